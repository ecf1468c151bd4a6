// Writes a site's search index in shards (search-shards.ts; docs/decisions.md, "Search index in
// shards") with Pagefind's Node API. Runs in the build's sandbox, as the build's uid, after Astro
// has exited: it reads the built site and writes only into its output folder, which the server
// takes and checks (output.ts, takeOutput) like any build output.
//
// FOLIO_SEARCH_JOB (JSON): `site` (the built site, read only), `out` (the index folder to write),
// `shardPages`, and for a fast redeploy `changed`: the HTML files the partial build wrote. With
// `changed`, the previous build's `pagefind/shard-pages.json` in `site` says which shards hold
// them; only those are written, the server keeps the others' files. `launchedAt` (the server's
// clock when it started this process) lets the `time spent` line say what the start itself cost.
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
  launchedAt?: number;
}

/** Shards indexed at once: Pagefind's service parses the pages of one index in turn. */
const PARALLEL_SHARDS = 2;

/**
 * Pages of a shard sent to Pagefind before the first of them is answered. Its service handles
 * its messages one at a time in the order they arrive (so the pages keep the order they are sent
 * in, and the index is the same as when each is awaited: the fast/full comparison of
 * test/service/search-shards.test.ts checks it); sending ahead lets this process read the next
 * pages while the service parses the earlier ones. Bounded: a shard's pages are never all held.
 */
const PAGES_AHEAD = 16;

/** Where the time goes, summed over the shards written (two at a time in a full build): the `time spent` line. */
const spent = { plan: 0, read: 0, added: 0, written: 0, bytes: 0, pages: 0 };
const since = (start: number) => performance.now() - start;

/** When this process was ready, its modules (Pagefind's too) loaded: on the server's clock, as `launchedAt`. */
const startedAt = Date.now();
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
  const started = performance.now();
  const { index, errors } = await pagefind.createIndex({});
  if (!index) throw new Error(`search index: ${errors.join('; ')}`);
  const sent: Array<Promise<void>> = [];
  let failed: Error | undefined;
  for (const file of files) {
    const reading = performance.now();
    const content = await readFile(path.join(job.site, file), 'utf8');
    spent.read += since(reading);
    spent.bytes += Buffer.byteLength(content);
    // Never a rejection left waiting in `sent`: the first failure is kept and thrown below.
    sent.push(index.addHTMLFile({ sourcePath: file, content }).then((added) => {
      if (added.errors.length) failed ??= new Error(`search index: ${file}: ${added.errors.join('; ')}`);
    }, (error: unknown) => {
      failed ??= error as Error;
    }));
    if (sent.length >= PAGES_AHEAD) await sent.shift();
    if (failed) break;
  }
  await Promise.all(sent);
  if (failed) throw failed;
  spent.pages += files.length;
  spent.added += since(started);
  const writing = performance.now();
  const written = await index.writeFiles({ outputPath });
  if (written.errors.length) throw new Error(`search index: ${written.errors.join('; ')}`);
  await index.deleteIndex();
  spent.written += since(writing);
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

/** The `time spent` line: how the indexing's time splits (docs/decisions.md, "The search shard of a fast redeploy"). */
function timeSpent(shards: number): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const started = job.launchedAt === undefined ? '' : `process start ${s(Math.max(0, startedAt - job.launchedAt))}, `;
  return `search index: time spent: ${started}plan ${s(spent.plan)}, ${spent.pages} page${spent.pages === 1 ? '' : 's'} ` +
    `(${(spent.bytes / 2 ** 20).toFixed(1)} MiB) read in ${s(spent.read)} and added in ${s(spent.added)}, index written in ${s(spent.written)}` +
    (shards > 1 ? ` (summed over ${shards} shards, ${PARALLEL_SHARDS} at a time)` : '');
}

async function main() {
  const planning = performance.now();
  const { manifest, again, why } = await plan();
  spent.plan = since(planning);
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
  console.log(timeSpent(again.length));
}

main().catch((error: unknown) => {
  console.error(`[folio] error: ${(error as Error).message}`);
  process.exit(1);
});
