// Writes a site's search index in shards (search-shards.ts; docs/decisions.md, "Search index in
// shards") with Pagefind's Node API. Runs in the build's sandbox, as the build's uid, after Astro
// has exited: it reads the built site and writes only into its output folder, which the server
// takes and checks (output.ts, takeOutput) like any build output.
//
// FOLIO_SEARCH_JOB (JSON): `site` (the built site, read only), `out` (the index folder to write),
// `shardPages`, and for a fast redeploy `changed`: the HTML files the partial build wrote. With
// `changed`, the previous build's `pagefind/shard-pages.json` in `site` says which shards hold
// them; only those are written, the server keeps the others' files.
import { readdir, readFile, rename, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as pagefind from 'pagefind';
import { MAX_OUTPUT_PATH } from '../site/tenant-limits.ts';
import { batchShards, isSearchable, parseShardPages, shardDir, shardsToReindex, SHARD_PAGES_FILE, SHARDS_FILE, type ShardPagesFile, type ShardsFile } from './search-shards.ts';

interface Job {
  site: string;
  out: string;
  shardPages: number;
  changed?: string[];
}

/** Shards indexed at once: Pagefind's service parses the pages of one index in turn. */
const PARALLEL_SHARDS = 2;

const job = JSON.parse(process.env.FOLIO_SEARCH_JOB ?? '') as Job;

/**
 * Every HTML file of the site (Pagefind's own `**\/*.html`), sorted. A folder whose path is past the
 * output's limit is not entered: the server refuses such an output with its own message (output.ts),
 * and a tree nested that deep would pass the system's path limit on the way down (ENAMETOOLONG).
 */
async function htmlFiles(site: string): Promise<string[]> {
  const files: string[] = [];
  const folders = [''];
  while (folders.length) {
    const folder = folders.pop()!;
    for (const entry of await readdir(path.join(site, folder), { withFileTypes: true })) {
      const rel = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory() && rel.length <= MAX_OUTPUT_PATH) folders.push(rel);
      else if (entry.isFile() && entry.name.endsWith('.html')) files.push(rel);
    }
  }
  return files.sort();
}

async function searchablePages(site: string): Promise<string[]> {
  const pages: string[] = [];
  for (const file of await htmlFiles(site)) if (isSearchable(await readFile(path.join(site, file), 'utf8'))) pages.push(file);
  return pages;
}

/** One shard's Pagefind index, its pages added in order (the same input always gives the same files). */
async function writeShard(files: string[], outputPath: string): Promise<void> {
  const { index, errors } = await pagefind.createIndex({});
  if (!index) throw new Error(`search index: ${errors.join('; ')}`);
  for (const file of files) {
    const added = await index.addHTMLFile({ sourcePath: file, content: await readFile(path.join(job.site, file), 'utf8') });
    if (added.errors.length) throw new Error(`search index: ${file}: ${added.errors.join('; ')}`);
  }
  const written = await index.writeFiles({ outputPath });
  if (written.errors.length) throw new Error(`search index: ${written.errors.join('; ')}`);
  await index.deleteIndex();
}

/** The shards to write: all of them, or for a fast redeploy only those holding a changed page. */
async function plan(): Promise<{ manifest: ShardPagesFile; again: number[]; why?: string }> {
  const fresh = async (why?: string) => {
    const manifest = { shardPages: job.shardPages, shards: batchShards(await searchablePages(job.site), job.shardPages) };
    return { manifest, again: manifest.shards.map((_, k) => k), why };
  };
  if (!job.changed) return fresh();
  const previous = parseShardPages(await readFile(path.join(job.site, 'pagefind', SHARD_PAGES_FILE), 'utf8').catch(() => ''));
  if (!previous) return fresh('the previous build has no search shards');
  const changed = await Promise.all(job.changed.map(async (file) => ({ file, searchable: isSearchable(await readFile(path.join(job.site, file), 'utf8')) })));
  const again = shardsToReindex(previous, job.shardPages, changed);
  return again ? { manifest: previous, again } : fresh('the previous build\'s shards do not fit this one');
}

async function main() {
  const { manifest, again, why } = await plan();
  const queue = [...again];
  await Promise.all(Array.from({ length: PARALLEL_SHARDS }, async () => {
    for (let k = queue.shift(); k !== undefined; k = queue.shift()) await writeShard(manifest.shards[k]!, path.join(job.out, String(k)));
  }));
  await pagefind.close();
  // Shard 0 went to a folder of its own (each index writes its folder whole): now to the top.
  if (again.includes(0)) {
    const first = path.join(job.out, '0');
    for (const name of await readdir(first)) await rename(path.join(first, name), path.join(job.out, name));
    await rmdir(first);
  }
  const indexes: ShardsFile = { indexes: manifest.shards.map((_, k) => shardDir(k)) };
  await writeFile(path.join(job.out, SHARDS_FILE), JSON.stringify(indexes));
  await writeFile(path.join(job.out, SHARD_PAGES_FILE), JSON.stringify(manifest));
  const pages = manifest.shards.reduce((n, s) => n + s.length, 0);
  const total = manifest.shards.length;
  if (job.changed && !why) {
    const kept = total - again.length;
    console.log(`search index: ${again.length} of ${total} shard${total === 1 ? '' : 's'} indexed again (${again.map((k) => `shard ${k + 1}`).join(', ') || 'none'}); ${kept} kept from the previous build`);
  } else {
    console.log(`search index: ${pages} page${pages === 1 ? '' : 's'} in ${total} shard${total === 1 ? '' : 's'} of up to ${job.shardPages}${why ? ` (all indexed again: ${why})` : ''}`);
  }
}

main().catch((error: unknown) => {
  console.error(`[folio] error: ${(error as Error).message}`);
  process.exit(1);
});
