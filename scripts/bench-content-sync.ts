// npm run bench:content-sync (docs/decisions.md, "Sites of 25,000 pages, step two"): Astro's content
// sync alone (`sync()` with the site's config, the step that reads every page into the content
// store) over the Mintlify-like corpus of bench:scale (bench-corpus.ts), one fresh process per size,
// outside the sandbox. Prints per size the sync's CPU and wall time, CPU per page and the ratio of
// CPU per page to the smallest size's: a sync whose cost grows faster than the pages shows as a
// ratio above 1. BENCH_PAGES=1000,5000,10000 (default) chooses the sizes.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../src/site/settings.ts';
import { writeMintlifyScaleSite } from './bench-corpus.ts';

const benchDir = path.join(repoRoot, 'bench-out', 'content-sync');

interface SyncFigures {
  cpuS: number;
  wallS: number;
  peakMb: number;
}

if (process.argv[2] === '--child') {
  // One sync in this process: the figures cover `sync()` only, not Node's and Astro's start.
  const [contentRoot, buildRoot] = process.argv.slice(3) as [string, string];
  const { sync } = await import('astro');
  const { roleConfig } = await import('../src/site/astro-config.ts');
  const { resolveSiteSettings } = await import('../src/site/settings.ts');
  const settings = resolveSiteSettings({ contentRoot, buildRoot, outDir: path.join(buildRoot, 'out'), siteUrl: undefined, allowCode: false });
  const config = await roleConfig(settings);
  const cpu = process.cpuUsage();
  const started = performance.now();
  await sync({ ...config, logLevel: 'warn' });
  const used = process.cpuUsage(cpu);
  const figures: SyncFigures = { cpuS: (used.user + used.system) / 1e6, wallS: (performance.now() - started) / 1000, peakMb: process.resourceUsage().maxRSS / 1024 };
  console.log(`FIGURES ${JSON.stringify(figures)}`);
} else {
  const sizes = (process.env.BENCH_PAGES ?? '1000,5000,10000').split(',').filter(Boolean).map(Number);
  const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
  console.log(`content sync benchmark: ${os.availableParallelism()} cores, Node ${process.version}, load average ${load()}`);
  let basePerPage: number | undefined;
  for (const size of sizes) {
    const site = await writeMintlifyScaleSite(path.join(benchDir, `root-${size}`), size);
    const buildRoot = path.join(benchDir, `build-${size}`);
    fs.rmSync(buildRoot, { recursive: true, force: true });
    fs.mkdirSync(buildRoot, { recursive: true });
    const figures = await new Promise<SyncFigures>((resolve, reject) => {
      const child = spawn(process.execPath, [path.join(repoRoot, 'scripts/bench-content-sync.ts'), '--child', site.root, buildRoot], { cwd: repoRoot, env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output = (output + d).slice(-8000)));
      child.on('close', (code) => {
        const line = /FIGURES (.*)/.exec(output);
        if (code === 0 && line) resolve(JSON.parse(line[1]!) as SyncFigures);
        else reject(new Error(`the sync of ${size} pages exited ${code}:\n${output.slice(-4000)}`));
      });
    });
    const cpuPerPage = (figures.cpuS * 1000) / size;
    basePerPage ??= cpuPerPage;
    console.log(
      `  ${size} MDX/Markdown pages: ${figures.cpuS.toFixed(1)} s CPU, ${figures.wallS.toFixed(1)} s wall, ${cpuPerPage.toFixed(2)} ms CPU per page` +
        ` (${(cpuPerPage / basePerPage).toFixed(2)}x the ${sizes[0]} figure), ${figures.peakMb.toFixed(0)} MB peak`,
    );
  }
  console.log(`load average at the end: ${load()}`);
}
