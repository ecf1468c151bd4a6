// npm run bench:real -- <dir-of-repos> [repo...] [--allow-code]: builds each repository (each folder
// of <dir-of-repos>, or the ones named) as it is, from a copy, and prints per repository: the pages
// found (the files Folio takes for pages, layout.ts), the pages built (HTML pages written), whether
// the build succeeded, its warnings by kind, wall time and the peak memory of the build's process
// tree; then the totals. A measure of real content for every later change (docs/decisions.md,
// "What Mintlify deploys, Folio deploys"). The default policy unless --allow-code; the sandbox as
// FOLIO_SANDBOX says (auto by default). Never edits the repositories.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSite } from '../src/builder/build.ts';
import { listRootFiles } from '../src/site/layout.ts';
import { groupWarnings } from '../src/builder/warning-summary.ts';
import type { SandboxMode } from '../src/builder/sandbox.ts';
import { withPeakRss } from './peak-rss.ts';

const USAGE = 'usage: npm run bench:real -- <dir-of-repos> [repo...] [--allow-code]';
const args = process.argv.slice(2);
const allowCode = args.includes('--allow-code');
const [dir, ...named] = args.filter((a) => a !== '--allow-code');
if (!dir || dir.startsWith('-') || !fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
  console.error(USAGE);
  process.exit(2);
}
const repos = named.length ? named : fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name).sort();
/** Kinds shown per repository; the others are counted in one line. */
const KINDS_SHOWN = 8;

const countHtml = (out: string): number =>
  (fs.readdirSync(out, { recursive: true, withFileTypes: true }) as fs.Dirent[]).filter((d) => d.isFile() && d.name.endsWith('.html') && d.name !== '404.html').length;

const totals = { found: 0, built: 0, warnings: 0, ok: 0 };
console.log(`bench:real: ${repos.length} repositories of ${path.resolve(dir)}, ${allowCode ? 'with code (--allow-code)' : 'default policy'}`);
for (const repo of repos) {
  const source = path.resolve(dir, repo);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-real-'));
  const root = path.join(work, 'root');
  const out = path.join(work, 'out');
  // A copy: a build never touches the repository (and links in it are copied as links, then refused as in any build).
  fs.cpSync(source, root, { recursive: true, verbatimSymlinks: true });
  fs.mkdirSync(out);
  const found = listRootFiles(root).pages.length;
  const started = performance.now();
  const { value: result, peakMb } = await withPeakRss(() =>
    buildSite({ contentRoot: root, outDir: out, timeoutMs: 1_800_000, allowCode, sandbox: { mode: (process.env.FOLIO_SANDBOX || 'auto') as SandboxMode } }),
  );
  const seconds = (performance.now() - started) / 1000;
  const built = countHtml(out);
  totals.found += found;
  totals.built += built;
  totals.warnings += result.warnings.length;
  if (result.ok) totals.ok += 1;
  const outcome = result.ok ? 'built' : `failed (${result.error?.code}: ${result.error?.message.split('\n')[0]?.slice(0, 160)})`;
  console.log(`\n${repo}: ${found} pages found, ${built} pages built (${found ? Math.round((built * 100) / found) : 0}%), ${outcome}`);
  console.log(`  time ${seconds.toFixed(1)} s, peak memory ${Math.round(peakMb)} MB, ${result.warnings.length} warnings`);
  const groups = groupWarnings(result.warnings);
  for (const group of groups.slice(0, KINDS_SHOWN)) console.log(`  ${String(group.count).padStart(6)} × ${group.kind}`);
  if (groups.length > KINDS_SHOWN) console.log(`  ${String(groups.slice(KINDS_SHOWN).reduce((n, g) => n + g.count, 0)).padStart(6)} × (${groups.length - KINDS_SHOWN} other kinds)`);
  fs.rmSync(work, { recursive: true, force: true });
}
console.log(`\ntotal: ${totals.ok}/${repos.length} repositories built, ${totals.built}/${totals.found} pages, ${totals.warnings} warnings`);
