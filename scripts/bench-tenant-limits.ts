// Figures for the tenant-sized inputs the server works on in its event loop or keeps in memory
// (docs/decisions.md#tenant-sized-input-stays-linear-and-bounded): `npm run bench:tenant-limits`.
// Each case prints the median of a few runs; run it on two commits to compare them.
import { jsonLocations } from '../src/site/config/json-locations.ts';
import { redirectsFileSchema, RedirectTable } from '../src/hosting/redirects.ts';
import { SiteFiles } from '../src/hosting/site-files.ts';
import { findSnippetCycles } from '../src/site/content-check/check-root.ts';
import { closeContentChecks, parseSiteFileIsolated } from '../src/site/content-check/check-pool.ts';
import { parseSiteConfigText } from '../src/site/config/site-config-file.ts';
import type { SnippetCall } from '../src/site/content-check/check-content.ts';
import { SNIPPETS_DIR, snippetFile } from '../src/site/snippet-paths.ts';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function timed(runs: number, run: () => void): number {
  const times: number[] = [];
  for (let n = 0; n < runs; n++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  return median(times);
}

/** One docs.json key of 17,000 characters holding `items` items, written as the API writes it. */
function longKeyDocsJson(items: number): string {
  return `${JSON.stringify({ name: 'x', ['k'.repeat(17_000)]: new Array(items).fill(0) }, null, 2)}\n`;
}

const cases = process.argv.slice(2);
const wanted = (name: string) => cases.length === 0 || cases.includes(name);

if (wanted('json-locations')) {
  for (const items of [1_000, 2_000, 4_000]) {
    const text = longKeyDocsJson(items);
    const ms = timed(3, () => jsonLocations(text));
    console.log(`json-locations: ${(text.length / 1024).toFixed(0)} KB docs.json, one 17,000-character key of ${items} items: median ${ms.toFixed(1)} ms`);
  }
}

/** What the server does with a stored redirects file (serve-site.ts loadRedirects): validate, then compile; invalid means none. */
function compileStored(text: string): RedirectTable {
  const parsed = redirectsFileSchema.safeParse(JSON.parse(text));
  return new RedirectTable(parsed.success ? parsed.data.rules : []);
}

/** Milliseconds to compile, and heap bytes the compiled tables keep, per rule (`copies` tables kept at once). */
function heapAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc (npm run bench:tenant-limits)');
  gc();
  return process.memoryUsage().heapUsed;
}

function compileCost(text: string, rules: number, copies: number): { ms: number; bytesPerRule: number; kept: number } {
  const before = heapAfterGc();
  const tables: RedirectTable[] = [];
  const times: number[] = [];
  for (let n = 0; n < copies; n++) {
    const start = performance.now();
    tables.push(compileStored(text));
    times.push(performance.now() - start);
  }
  const bytes = (heapAfterGc() - before) / copies;
  return { ms: median(times), bytesPerRule: bytes / rules, kept: tables.filter((t) => t.size > 0).length };
}

/** `rules` redirects of `segments` segments each, all different, written as the build stores them. */
function redirectsFile(rules: number, segments: number, segmentText: (rule: number, segment: number) => string): string {
  const list = Array.from({ length: rules }, (_, r) => {
    const parts = Array.from({ length: segments }, (_, k) => segmentText(r, k));
    return { source: `/${parts.join('/')}`, destination: `/moved/${parts.slice(-1)[0]}` };
  });
  return JSON.stringify({ rules: list });
}

if (wanted('redirects')) {
  const cases = [
    { name: 'a large real site: 455 rules of 4 segments', rules: 455, segments: 4, copies: 20, text: (r: number, k: number) => (k === 3 ? `page-${r}` : `section-${k}-${r % 7}`) },
    { name: 'at the limits: 5,000 rules of 4 segments, all distinct', rules: 5_000, segments: 4, copies: 5, text: (r: number, k: number) => `part-${k}-${r}` },
    { name: "the issue's file: 2,000 rules of 495 segments, sources of 1,000 characters (a 2 MB docs.json)", rules: 2_000, segments: 495, copies: 1, text: (r: number, k: number) => (k === 0 ? `r${r}` : 'x') },
  ];
  for (const c of cases) {
    const text = redirectsFile(c.rules, c.segments, c.text);
    const { ms, bytesPerRule, kept } = compileCost(text, c.rules, c.copies);
    const table = kept ? 'compiled' : 'refused: no redirects';
    console.log(`redirects, ${c.name}, ${(text.length / 1024).toFixed(0)} KB: ${table}; median ${ms.toFixed(1)} ms to validate and compile, ${(bytesPerRule / 1024).toFixed(2)} KB of heap per rule (${((bytesPerRule * c.rules) / 1024 / 1024).toFixed(1)} MB per site)`);
  }
}

/** Heap bytes a path cache keeps after `requests` lookups of distinct missing paths of `length` characters. */
async function missingPathsCost(build: string, requests: number, length: number): Promise<{ kept: number; firstCached: boolean }> {
  const files = new SiteFiles();
  const before = heapAfterGc();
  for (let n = 0; n < requests; n++) await files.find(build, `${n}-${'m'.repeat(length)}`);
  return { kept: heapAfterGc() - before, firstCached: files.cached(build, `0-${'m'.repeat(length)}`) === null };
}

if (wanted('missing-paths')) {
  // What the site handler keeps after visitors asked a live site for distinct paths it has no file at.
  const build = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'folio-bench-site-')));
  try {
    for (const [requests, length] of [[5_000, 100], [5_000, 15_000]] as const) {
      const { kept, firstCached } = await missingPathsCost(build, requests, length);
      console.log(`missing paths: ${requests.toLocaleString('en-US')} requests for distinct missing paths of ${length.toLocaleString('en-US')} characters keep ${(kept / 1024 / 1024).toFixed(1)} MB (the first ${firstCached ? 'still' : 'no longer'} cached)`);
    }
  } finally {
    rmSync(build, { recursive: true, force: true });
  }
}

/** The snippet graph of a content root: `snippets` files, each calling those `callees` names. */
function snippetGraph(count: number, callees: (n: number) => number[]): { snippets: string[]; calls: Map<string, SnippetCall[]> } {
  const snippets = Array.from({ length: count }, (_, n) => `s${n}.mdx`);
  const calls = new Map(snippets.map((key, n): [string, SnippetCall[]] => [snippetFile(key, SNIPPETS_DIR), callees(n).map((to, line) => ({ file: `s${to}.mdx`, key: `s${to}.mdx`, line: line + 1, column: 1 }))]));
  return { snippets, calls };
}

if (wanted('snippet-cycles')) {
  // The repository limit is 20,000 files (src/service/deployments/sync.ts).
  const graphs = [
    { name: 'a chain of 5,000 snippets, each including the next', ...snippetGraph(5_000, (n) => (n + 1 < 5_000 ? [n + 1] : [])) },
    { name: 'a chain of 19,000 snippets, each including the next', ...snippetGraph(19_000, (n) => (n + 1 < 19_000 ? [n + 1] : [])) },
    { name: 'a ring of 19,000 snippets, each including the next and the last the first', ...snippetGraph(19_000, (n) => [(n + 1) % 19_000]) },
    { name: '10,000 snippets, one including all the others', ...snippetGraph(10_000, (n) => (n === 0 ? Array.from({ length: 9_999 }, (_, k) => k + 1) : [])) },
  ];
  for (const graph of graphs) {
    let outcome = '';
    const ms = timed(1, () => {
      try {
        outcome = `${findSnippetCycles(graph.snippets, graph.calls, SNIPPETS_DIR).length} cycle(s)`;
      } catch (error) {
        outcome = `threw ${(error as Error).name}: ${(error as Error).message}`;
      }
    });
    console.log(`snippet cycles, ${graph.name}: ${outcome} in ${ms.toFixed(1)} ms`);
  }
}

/** The longest the event loop went without running a 5 ms timer while `run` was pending, in ms. */
async function longestStall(run: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  await run().catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, 20));
  clearInterval(timer);
  return longest;
}

if (wanted('docs-json-event-loop')) {
  // A repository's docs.json as the server reads it (docs/decisions.md, "docs.json in the check
  // processes"): in the server's process, the baseline, against in a check process (refused as too
  // complex past FOLIO_CHECK_TIMEOUT_MS).
  const files = [
    { name: '300,000 invalid groups', text: JSON.stringify({ name: 'x', navigation: { groups: new Array(300_000).fill({ group: 7 }) } }) },
    { name: '130,000 valid groups', text: JSON.stringify({ name: 'x', navigation: { groups: new Array(130_000).fill({ group: 'G', pages: ['a'] }) } }) },
  ];
  await parseSiteFileIsolated('docs.json', '{"name": "x"}'); // a check process started
  for (const { name, text } of files) {
    const inProcess: number[] = [];
    const isolated: number[] = [];
    for (let n = 0; n < 3; n++) {
      inProcess.push(await longestStall(async () => parseSiteConfigText('docs.json', text)));
      isolated.push(await longestStall(() => parseSiteFileIsolated('docs.json', text)));
    }
    const [before, after] = [median(inProcess), median(isolated)];
    console.log(`docs.json event loop, ${name} (${(text.length / 1024 / 1024).toFixed(1)} MiB): longest stall, median of 3: ${before.toFixed(0)} ms in this process, ${after.toFixed(0)} ms with the check processes (${(before / after).toFixed(0)}x less)`);
  }
  // Not awaited: the check processes no longer keep this process alive, so their exit may never be seen.
  void closeContentChecks();
}
