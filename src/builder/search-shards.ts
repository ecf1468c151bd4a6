// The site's search index in shards (docs/decisions.md, "Search index in shards"): the searchable
// pages, sorted by path, in fixed-size batches, each batch a Pagefind index of its own. Shard 0 is
// written at `pagefind/` itself (where a one-shard site's index always was), shard k at
// `pagefind/k/`; `pagefind/shards.json` names the folders the browser merges (Pagefind's
// `mergeIndex`), `pagefind/shard-pages.json` the pages of each shard, so that a fast redeploy
// indexes again only the shards holding a changed page and keeps the others' files.
// Shared by the indexing process (search-index-worker.ts, in the sandbox) and the server (build.ts).

/**
 * Pages per shard unless the server says otherwise (FOLIO_SEARCH_SHARD_PAGES). 500: a fast
 * redeploy's shard takes about half the time of 1,000 pages' (its work is per page), for twice
 * the shards a first search merges (docs/decisions.md, "The search shard of a fast redeploy").
 */
export const SEARCH_SHARD_PAGES = 500;

/** The browser's list: the index folders under `/pagefind/` to load, shard 0 (`''`) first. */
export const SHARDS_FILE = 'shards.json';
/** The pages of each shard (their HTML files, relative to the site), for the next fast redeploy. */
export const SHARD_PAGES_FILE = 'shard-pages.json';

export interface ShardsFile {
  indexes: string[];
}

export interface ShardPagesFile {
  shardPages: number;
  shards: string[][];
}

/** A shard's folder under `pagefind/`: `''` for shard 0, `k/` for the others. */
export const shardDir = (k: number): string => (k === 0 ? '' : `${k}/`);

/** Whether an entry of `pagefind/` is a shard's folder (`1`, `2`, …) rather than a file of shard 0. */
export const isShardFolder = (name: string): boolean => /^[1-9]\d*$/.test(name);

/** Sorted page files (already sorted) in batches of `size`. */
export function batchShards(files: string[], size: number): string[][] {
  const shards: string[][] = [];
  for (let i = 0; i < files.length; i += size) shards.push(files.slice(i, i + size));
  return shards.length ? shards : [[]];
}

/**
 * A page Pagefind indexes: the layout marks its article `data-pagefind-body` (a hidden or
 * noindex page has none). Each shard holds only such pages, so that none of them falls under
 * Pagefind's rule for an index without the attribute (every page's whole body indexed).
 */
const SEARCHABLE = /<[a-z][^<>]*\sdata-pagefind-body[\s=>]/i;
export const isSearchable = (html: string): boolean => SEARCHABLE.test(html);

/** A previous build's `shard-pages.json`, or undefined when it is not one (an older build, or anything else). */
export function parseShardPages(text: string): ShardPagesFile | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const v = value as Partial<ShardPagesFile> | null;
  if (!v || !Number.isInteger(v.shardPages) || (v.shardPages ?? 0) < 1 || !Array.isArray(v.shards)) return undefined;
  if (!v.shards.every((s) => Array.isArray(s) && s.every((f) => typeof f === 'string'))) return undefined;
  return v as ShardPagesFile;
}

/**
 * The shards a fast redeploy indexes again: those holding a changed page. Undefined when the
 * previous shards do not fit this build (another shard size, or a changed page that became or
 * stopped being searchable): then every shard is indexed again.
 */
export function shardsToReindex(previous: ShardPagesFile, shardPages: number, changed: Array<{ file: string; searchable: boolean }>): number[] | undefined {
  if (previous.shardPages !== shardPages) return undefined;
  const shardOf = new Map<string, number>();
  previous.shards.forEach((files, k) => files.forEach((file) => shardOf.set(file, k)));
  const again = new Set<number>();
  for (const { file, searchable } of changed) {
    const k = shardOf.get(file);
    if ((k !== undefined) !== searchable) return undefined;
    if (k !== undefined) again.add(k);
  }
  return [...again].sort((a, b) => a - b);
}
