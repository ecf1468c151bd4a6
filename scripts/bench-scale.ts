// npm run bench:scale (docs/decisions.md, "Sites of 25,000 pages"): builds generated sites shaped like large Mintlify repositories
// (components on most pages, code blocks, snippets, navigation of languages × versions with tabs, an
// OpenAPI file; bench-corpus.ts) of 1k, 5k, 10k and 25k pages, in the build sandbox as deployments
// build them (the FOLIO_BUILD_* settings, the sandbox required), and prints per size: wall time, CPU
// time of all the build's processes, time per page, peak memory summed over all of them
// (peak-rss.ts), output size and the build's phases. It builds the same 1k and 5k plain Markdown
// pages with Folio and with Starlight in the same run and prints the ratio.
// BENCH_PAGES=25000 runs that one size (and Starlight only at 1k or 5k); BENCH_STARLIGHT=0 skips
// Starlight; BENCH_TIMEOUT_S (default 3600) bounds each build so large sizes give a figure rather than
// the deployments' time limit; BENCH_LOG=1 prints the build's log as it goes.
// Goals: peak memory ≤ 4 GB at 25k; time per page at each size ≤ 1.2× the 1k figure;
// Folio ≤ 0.3× Starlight's wall time on the same plain pages.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSite, type BuildSiteResult } from '../src/builder/build.ts';
import { buildSandboxOf, readBuildLimits } from '../src/builder/build-limits.ts';
import { repoRoot } from '../src/site/settings.ts';
import { componentPageText, writeComponentSite, writeFileIn, writeMintlifyScaleSite, writeStarlightProject } from './bench-corpus.ts';
import { withPeakRss } from './peak-rss.ts';

const SIZES = (process.env.BENCH_PAGES ?? '1000,5000,10000,25000').split(',').filter(Boolean).map(Number);
const STARLIGHT = process.env.BENCH_STARLIGHT !== '0';
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_S ?? 3600) * 1000;
const PEAK_GOAL_MB = 4096;
const PER_PAGE_GOAL = 1.2;
const STARLIGHT_GOAL = 0.3;
const benchDir = path.join(repoRoot, 'bench-out', 'scale');
const sandbox = { ...buildSandboxOf(readBuildLimits()), mode: 'required' as const };

interface Figures {
  wallS: number;
  cpuS: number;
  peakMb: number;
  outMb: number;
  outFiles: number;
}

/** Bytes and files under `dir` (links not followed). */
function treeSize(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    files++;
    bytes += fs.lstatSync(path.join(entry.parentPath, entry.name)).size;
  }
  return { bytes, files };
}

const seconds = (ms: number | undefined) => ((ms ?? 0) / 1000).toFixed(1);
const phasesText = (result: BuildSiteResult) =>
  Object.entries(result.phases)
    .map(([phase, ms]) => `${phase} ${seconds(ms)} s`)
    .join(', ');

/** One sandboxed Folio build of `root`: its figures, or undefined after printing why it failed. */
async function buildFolio(root: string, name: string): Promise<Figures | undefined> {
  const out = path.join(benchDir, `out-${name}`);
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const started = performance.now();
  const onLog = process.env.BENCH_LOG === '1' ? (line: string) => console.log(`    [${((performance.now() - started) / 1000).toFixed(0)} s] ${line}`) : undefined;
  const { value: result, peakMb, cpuS } = await withPeakRss(() => buildSite({ contentRoot: root, outDir: out, timeoutMs: TIMEOUT_MS, sandbox, onLog }));
  const wallS = (performance.now() - started) / 1000;
  if (!result.ok) {
    console.log(`  ${name}: FAILED after ${wallS.toFixed(1)} s (${result.error?.code}), ${peakMb.toFixed(0)} MB peak, ${cpuS.toFixed(1)} s CPU; phases: ${phasesText(result)}`);
    for (const line of result.log.filter((l) => !/\[WARN\]|\[folio\] warning/.test(l)).slice(-12)) console.log(`    | ${line.slice(0, 300)}`);
    return undefined;
  }
  const { bytes, files } = treeSize(out);
  console.log(`    phases: ${phasesText(result)}`);
  return { wallS, cpuS, peakMb, outMb: bytes / 2 ** 20, outFiles: files };
}

/** Starlight's build of the same plain pages: wall and CPU time of its process. */
async function buildStarlight(pages: number): Promise<{ wallS: number; cpuS: number; peakMb: number }> {
  const root = writeStarlightProject(path.join(benchDir, `starlight-${pages}`), { title: `Plain ${pages}` });
  for (let i = 0; i < pages; i++) writeFileIn(root, `src/content/docs/section-${String(Math.floor(i / 25)).padStart(2, '0')}/page-${i}.md`, componentPageText(i, false));
  const astro = path.join(repoRoot, 'node_modules/astro/bin/astro.mjs');
  const started = performance.now();
  const { peakMb, cpuS } = await withPeakRss(
    () =>
      new Promise<void>((resolve, reject) => {
        const child = spawn(process.execPath, [astro, 'build', '--root', root], { cwd: root, env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout.on('data', (d) => (output = (output + d).slice(-4000)));
        child.stderr.on('data', (d) => (output = (output + d).slice(-4000)));
        child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`Starlight's build exited ${code}:\n${output}`))));
      }),
  );
  return { wallS: (performance.now() - started) / 1000, cpuS, peakMb };
}

const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
fs.mkdirSync(benchDir, { recursive: true });
console.log(`scale benchmark: sandboxed builds (memory limit ${readBuildLimits().buildMemoryMb} MB per process), ${os.availableParallelism()} cores, Node ${process.version}, load average ${load()}`);
let missed = false;
const perPage = new Map<number, number>();
for (const size of SIZES) {
  const site = await writeMintlifyScaleSite(path.join(benchDir, `root-${size}`), size);
  console.log(`${size} MDX/Markdown pages (+${site.pages - size} OpenAPI pages), Mintlify-like:`);
  const f = await buildFolio(site.root, String(size));
  if (!f) {
    missed = true;
    continue;
  }
  const msPerPage = (f.wallS * 1000) / site.pages;
  perPage.set(size, msPerPage);
  const base = perPage.get(1000);
  const ratio = base ? msPerPage / base : undefined;
  const okPeak = size < 25000 || f.peakMb <= PEAK_GOAL_MB;
  const okRatio = ratio === undefined || ratio <= PER_PAGE_GOAL;
  missed ||= !okPeak || !okRatio;
  console.log(
    `  ${size}: ${f.wallS.toFixed(1)} s wall, ${f.cpuS.toFixed(1)} s CPU, ${msPerPage.toFixed(2)} ms per page (${((f.cpuS * 1000) / site.pages).toFixed(2)} ms CPU)` +
      `${ratio === undefined ? '' : `, ${ratio.toFixed(2)}x the 1k figure (goal ≤ ${PER_PAGE_GOAL}x: ${okRatio ? 'met' : 'MISSED'})`}` +
      `, ${f.peakMb.toFixed(0)} MB peak (all processes${size >= 25000 ? `; goal ≤ ${PEAK_GOAL_MB} MB: ${okPeak ? 'met' : 'MISSED'}` : ''}), output ${f.outMb.toFixed(0)} MB in ${f.outFiles} files`,
  );
  if (STARLIGHT && (size === 1000 || size === 5000)) {
    const folio = await buildFolio(writeComponentSite(path.join(benchDir, `plain-${size}`), size, false), `plain-${size}`);
    const starlight = await buildStarlight(size);
    if (!folio) {
      missed = true;
      continue;
    }
    const r = folio.wallS / starlight.wallS;
    missed ||= !(r <= STARLIGHT_GOAL);
    console.log(
      `  ${size} plain Markdown pages: Folio ${folio.wallS.toFixed(1)} s wall (${folio.cpuS.toFixed(1)} s CPU, ${folio.peakMb.toFixed(0)} MB), Starlight ${starlight.wallS.toFixed(1)} s wall (${starlight.cpuS.toFixed(1)} s CPU, ${starlight.peakMb.toFixed(0)} MB):` +
        ` ${r.toFixed(2)}x (CPU ${(folio.cpuS / starlight.cpuS).toFixed(2)}x) | goal ≤ ${STARLIGHT_GOAL}x: ${r <= STARLIGHT_GOAL ? 'met' : 'MISSED'}`,
    );
  }
}
console.log(`load average at the end: ${load()} (other processes on the machine slow wall times; CPU times barely move)`);
if (missed) process.exitCode = 1;
