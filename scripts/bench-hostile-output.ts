// How long hostile build output holds up the server (docs/decisions.md#hostile-build-output), in
// this process as in the server: `npx --no-install node scripts/bench-hostile-output.ts [checkout]`
// (default: this one; name an older Folio checkout to compare). Prints, as medians of 3 runs:
//
// - line: the build log's reader and path scrubbing fed one 10 MB line of `../x ` paths in 64 KiB
//   chunks, as a build's output arrives: the longest single block of the event loop and the total;
// - fifo: a site's small file replaced by a FIFO, read by 8 requests at once (more than libuv's 4
//   threads), then one other file operation of the server: how long that operation waits (given
//   up after 5 s: a blocked server answers nothing until it is restarted).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const checkout = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..'));
const load = (rel: string) => import(pathToFileURL(path.join(checkout, rel)).href);
/** The first of `rels` the checkout has: an older one has the build runner in src/site, not src/builder. */
const loadFirst = (...rels: string[]) => load(rels.find((rel) => fs.existsSync(path.join(checkout, rel))) ?? rels[0]!);
const { lineReader } = await loadFirst('src/builder/build-log.ts', 'src/site/build.ts');
const tenantPaths = await loadFirst('src/builder/tenant-paths.ts', 'src/site/tenant-paths.ts');
const { createDiskSiteSource } = await load('src/hosting/site-source.ts');

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function lineRun(): Promise<{ block: number; total: number }> {
  // The view buildSite gives a build: paths are resolved from a build root in the install.
  const view = { contentRoots: ['/srv/content', '/input/site'], hidden: [checkout, '/input'], hiddenRelative: ['.folio-builds/'], base: path.join(checkout, '.folio-builds', 'b') };
  await tenantPaths.listServerDirs?.(view);
  const stream = new PassThrough();
  let lines = 0;
  lineReader(stream, (line: string) => {
    tenantPaths.scrubPaths(line, view);
    lines += 1;
  });
  const text = `${'../x '.repeat(2_000_000)}\n`;
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const start = performance.now();
  for (let at = 0; at < text.length; at += 64 * 1024) {
    stream.write(text.slice(at, at + 64 * 1024));
    await new Promise((resolve) => setImmediate(resolve));
  }
  stream.end();
  await new Promise((resolve) => stream.on('end', resolve));
  const total = performance.now() - start;
  delay.disable();
  if (lines !== 1) throw new Error(`expected one line, got ${lines}`);
  return { block: delay.max / 1e6, total };
}

async function fifoRun(): Promise<number> {
  const build = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-fifo-'));
  fs.mkdirSync(path.join(build, '_folio'));
  execFileSync('mkfifo', [path.join(build, '_folio/connect-origins.txt')]);
  const source = createDiskSiteSource(os.tmpdir());
  // Opened, a FIFO with no writer keeps each of these reads (and its thread) waiting.
  for (let i = 0; i < 8; i++) void source.readSmall(build, '_folio/connect-origins.txt', 16 * 1024);
  const start = performance.now();
  const waited = await Promise.race([fs.promises.stat(build).then(() => performance.now() - start), new Promise<number>((resolve) => setTimeout(() => resolve(Infinity), 5_000).unref())]);
  // Frees whatever waits: one writer that opens and closes the FIFO, per waiting read.
  for (let i = 0; i < 8; i++) execFileSync('sh', ['-c', `: > '${path.join(build, '_folio/connect-origins.txt')}'`], { timeout: 2_000 }).toString();
  fs.rmSync(build, { recursive: true, force: true });
  return waited;
}

const lineRuns = [];
for (let i = 0; i < 3; i++) lineRuns.push(await lineRun());
console.log(`line: longest event-loop block ${median(lineRuns.map((r) => r.block)).toFixed(0)} ms, total ${median(lineRuns.map((r) => r.total)).toFixed(0)} ms (median of 3)`);
const fifoRuns = [];
for (let i = 0; i < 3; i++) fifoRuns.push(await fifoRun());
const fifo = median(fifoRuns);
console.log(`fifo: another file operation waited ${Number.isFinite(fifo) ? `${fifo.toFixed(1)} ms` : 'over 5 s (no answer)'} (median of 3)`);
process.exit(0);
