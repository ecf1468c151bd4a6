// Writes a site's search index in shards (search-shards.ts; docs/decisions.md, "Search index in
// shards") with Pagefind's Node API. Runs in the build's sandbox, as the build's uid: it reads the
// built site and writes only into its output folder, which the server takes and checks (output.ts,
// takeOutput) like any build output.
//
// FOLIO_SEARCH_JOB (JSON): `site` (the built site, read only), `out` (the index folder to write),
// `shardPages`, and `launchedAt` (the server's clock when it started this process), which lets the
// `time spent` line say what the start itself cost. A full build's job has nothing else: every
// shard is written.
//
// A fast redeploy starts this process while Astro still runs (docs/decisions.md, "The search shard
// indexed while Astro runs"): its job has `expected` (the HTML files the changed pages are expected
// to be), and the real list, the HTML files the partial build wrote, comes on stdin, one JSON line,
// once the partial build is merged into `site`. The previous build's `pagefind/shard-pages.json` in
// `site` then says which shards hold them; only those are written, the server keeps the others'
// files. Meanwhile the process loads, starts Pagefind's service and adds each expected shard's
// pages that come before its first expected page: those are the previous build's files, the same
// once merged unless the partial build wrote them too, which the real list says (such a shard is
// then indexed from its first page, as it would have been).
import { open, readdir, readFile, rename, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as pagefind from 'pagefind';
import { MAX_OUTPUT_PATH } from '../site/tenant-limits.ts';
import { batchShards, isSearchable, parseShardPages, shardDir, shardsToReindex, SHARD_PAGES_FILE, SHARDS_FILE, type ShardPagesFile, type ShardsFile } from './search-shards.ts';

interface Job {
  site: string;
  out: string;
  shardPages: number;
  expected?: string[];
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
const spent = { plan: 0, read: 0, added: 0, written: 0, bytes: 0, pages: 0, early: 0, earlyMs: 0, waited: 0 };
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

type Index = NonNullable<Awaited<ReturnType<typeof pagefind.createIndex>>['index']>;

async function newIndex(): Promise<Index> {
  const { index, errors } = await pagefind.createIndex({});
  if (!index) throw new Error(`search index: ${errors.join('; ')}`);
  return index;
}

/** Adds pages to an index in order (the same input always gives the same files). */
async function addPages(index: Index, files: string[]): Promise<void> {
  const started = performance.now();
  const sent: Array<Promise<void>> = [];
  let failed: Error | undefined;
  for (const file of files) {
    const reading = performance.now();
    const content = readAhead.get(file) ?? (await readFile(path.join(job.site, file), 'utf8'));
    readAhead.delete(file);
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
}

/**
 * Pages of a begun shard past its first expected page, read while Astro ran: their text is the
 * same once merged unless the partial build wrote them (dropped then: main). Bounded, as a
 * shard's pages are never all held otherwise: past READ_AHEAD_BYTES they are read when added.
 */
const readAhead = new Map<string, string>();
const READ_AHEAD_BYTES = 32 * 2 ** 20;

/** A shard's index begun before the changes were known: its first `added` pages are in. */
interface Begun {
  index: Index;
  added: number;
}

/** One shard's Pagefind index, written: its pages added in order, after those a begun index holds. */
async function writeShard(files: string[], outputPath: string, begun?: Begun): Promise<void> {
  const index = begun?.index ?? (await newIndex());
  await addPages(index, files.slice(begun?.added ?? 0));
  const writing = performance.now();
  const written = await index.writeFiles({ outputPath });
  if (written.errors.length) throw new Error(`search index: ${written.errors.join('; ')}`);
  await index.deleteIndex();
  spent.written += since(writing);
}

const readShardPages = (site: string) => readFile(path.join(site, 'pagefind', SHARD_PAGES_FILE), 'utf8').catch(() => '');

/**
 * While Astro runs: for each shard the previous build's list says holds an expected page, an index
 * with the shard's pages before the first of them. Every other page of the shard may come after a
 * changed page in its order, and Pagefind's files depend on that order.
 */
async function beginShards(previous: ShardPagesFile | undefined, expected: string[]): Promise<Map<number, Begun>> {
  const begun = new Map<number, Begun>();
  if (!previous || previous.shardPages !== job.shardPages) return begun;
  const firstExpected = new Map<number, number>();
  const position = new Map<string, [number, number]>();
  previous.shards.forEach((files, k) => files.forEach((file, i) => position.set(file, [k, i])));
  for (const file of expected) {
    const at = position.get(file);
    if (at) firstExpected.set(at[0], Math.min(at[1], firstExpected.get(at[0]) ?? Infinity));
  }
  for (const [k, first] of [...firstExpected].sort((a, b) => a[0] - b[0])) {
    const index = await newIndex();
    try {
      await addPages(index, previous.shards[k]!.slice(0, first));
    } catch {
      // Not this build's failure yet: the shard is indexed from its first page once the changes are known.
      await index.deleteIndex().catch(() => undefined);
      continue;
    }
    begun.set(k, { index, added: first });
    spent.early += first;
  }
  let held = 0;
  for (const [k, first] of firstExpected) {
    for (const file of previous.shards[k]!.slice(first)) {
      const handle = await open(path.join(job.site, file)).catch(() => undefined);
      if (!handle) continue;
      try {
        // Its size first: a page as large as the bound is never held beside the others.
        if ((held += (await handle.stat()).size) > READ_AHEAD_BYTES) return begun;
        readAhead.set(file, await handle.readFile('utf8'));
      } catch {
        // Read when it is added.
      } finally {
        await handle.close();
      }
    }
  }
  // None expected in a shard (a new page, another file name): the service is started all the same.
  if (!begun.size) await pagefind.createIndex({}).then(({ index }) => index?.deleteIndex());
  return begun;
}

/** A begun shard the changes did not leave as it was begun: it is indexed from its first page, if at all. */
async function dropBegun(begun: Map<number, Begun>, k: number): Promise<void> {
  const { index, added } = begun.get(k)!;
  await index.deleteIndex();
  begun.delete(k);
  spent.pages -= added;
  spent.early -= added;
}

/** The partial build's HTML files, sent by the server once they are merged into the site; it closes stdin after them. */
async function changesFromServer(): Promise<string[]> {
  let text = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) text += chunk as string;
  const changed: unknown = JSON.parse(text);
  if (!Array.isArray(changed) || !changed.every((f) => typeof f === 'string')) throw new Error('search index: the changed pages are not a list of files');
  return changed;
}

/** The shards to write: all of them, or for a fast redeploy only those holding a changed page. */
async function plan(changedFiles: string[] | undefined, previous: ShardPagesFile | undefined): Promise<{ manifest: ShardPagesFile; again: number[]; why?: string }> {
  const fresh = async (why?: string) => {
    const manifest = { shardPages: job.shardPages, shards: batchShards(await searchablePages(job.site), job.shardPages) };
    return { manifest, again: manifest.shards.map((_, k) => k), why };
  };
  if (!changedFiles) return fresh();
  if (!previous) return fresh('the previous build has no search shards');
  const changed = await Promise.all(changedFiles.map(async (file) => ({ file, searchable: isSearchable(await readFile(path.join(job.site, file), 'utf8')) })));
  const again = shardsToReindex(previous, job.shardPages, changed);
  return again ? { manifest: previous, again } : fresh('the previous build\'s shards do not fit this one');
}

/** The `time spent` line: how the indexing's time splits (docs/decisions.md, "The search shard of a fast redeploy"). */
function timeSpent(shards: number): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const started = job.launchedAt === undefined ? '' : `process start ${s(Math.max(0, startedAt - job.launchedAt))}, `;
  const early = job.expected ? ` (${spent.early} of them in ${s(spent.earlyMs)} while Astro ran, then waited ${s(spent.waited)} for the changes)` : '';
  return `search index: time spent: ${started}plan ${s(spent.plan)}, ${spent.pages} page${spent.pages === 1 ? '' : 's'} ` +
    `(${(spent.bytes / 2 ** 20).toFixed(1)} MiB) read in ${s(spent.read)} and added in ${s(spent.added)}${early}, index written in ${s(spent.written)}` +
    (shards > 1 ? ` (summed over ${shards} shards, ${PARALLEL_SHARDS} at a time)` : '');
}

async function main() {
  let changed: string[] | undefined;
  let previous: ShardPagesFile | undefined;
  let begun = new Map<number, Begun>();
  if (job.expected) {
    const earlyText = await readShardPages(job.site);
    const early = parseShardPages(earlyText);
    const beginning = performance.now();
    begun = await beginShards(early, job.expected);
    spent.earlyMs = since(beginning);
    const waiting = performance.now();
    changed = await changesFromServer();
    spent.waited = since(waiting);
    // The plan reads the list as it is now; the shards were begun from the list as it was.
    const text = await readShardPages(job.site);
    previous = text === earlyText ? early : parseShardPages(text);
    // Only pages the partial build did not write are the same as when they were added or read.
    const written = new Set(changed);
    for (const file of written) readAhead.delete(file);
    for (const [k, { added }] of begun) {
      if (text !== earlyText || early!.shards[k]!.slice(0, added).some((file) => written.has(file))) await dropBegun(begun, k);
    }
  }
  const planning = performance.now();
  const { manifest, again, why } = await plan(changed, previous);
  spent.plan = since(planning);
  for (const k of begun.keys()) {
    if (why || !again.includes(k)) await dropBegun(begun, k);
  }
  const queue = [...again];
  await Promise.all(Array.from({ length: PARALLEL_SHARDS }, async () => {
    for (let k = queue.shift(); k !== undefined; k = queue.shift()) await writeShard(manifest.shards[k]!, path.join(job.out, String(k)), begun.get(k));
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
  if (changed && !why) {
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
