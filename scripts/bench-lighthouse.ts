// npm run bench:lighthouse: Lighthouse (the npm package, on Debian's Chromium at /usr/bin/chromium)
// on a Folio site and on a Starlight site built from the same Markdown pages in the same run, both
// served by Folio's own site hosting (Starlight's with inline scripts allowed, which its pages need).
// Prints the median of BENCH_RUNS runs (default 3) per category and page for both, taking turns
// run by run so both see the same machine load, after one uncounted warm-up audit of each.
// Lighthouse's default (mobile) settings: a phone screen, simulated slow 4G and a 4× slower CPU.
// Goal: Folio ≥ 95 in performance, accessibility, best practices and SEO, and not below Starlight.
// Starlight's project is generated under bench-out/ (git-ignored) by this script; nothing of it is
// committed. Exit code 1 when a goal is missed. After the scores it lists what cost Folio points
// (failed audits, how many runs failed them, and the LCP element), and BENCH_REPORTS=1 keeps every
// report as JSON under bench-out/lighthouse/reports/ for a closer look.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { createSiteHandler } from '../src/hosting/serve-site.ts';
import { publishBuild } from '../src/service/builds/disk.ts';
import { buildDir } from '../src/service/project-files.ts';
import type { ProjectRecord } from '../src/service/store/records.ts';
import { buildSite } from '../src/builder/build.ts';
import { repoRoot } from '../src/site/settings.ts';
import { writeFileIn, writeStarlightProject } from './bench-corpus.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const GOAL = 95;
const benchDir = path.join(repoRoot, 'bench-out', 'lighthouse');

/** The shared pages: path (no extension) → title, description, Markdown body. */
const PAGES: Record<string, { title: string; description: string; body: string }> = {
  index: {
    title: 'Acme Widgets documentation',
    description: 'Build, ship and run widgets with the Acme platform.',
    body: 'Acme Widgets turns a configuration file into a running widget. Start with the [quickstart](/guides/quickstart/), then read about [configuration](/guides/configuration/).\n\n## What you get\n\n- A command-line tool, `widget`, for every platform\n- A JSON API with keys and scopes\n- Dashboards for every deployment\n\n## Next steps\n\nRead the guides in order, or search for a topic.\n',
  },
  'guides/quickstart': {
    title: 'Quickstart',
    description: 'Install the CLI and deploy a first widget in five minutes.',
    body: '## Install\n\nInstall the command-line tool with npm:\n\n```bash\nnpm install --global @acme/widget-cli\nwidget login\n```\n\n## Create a widget\n\n```js\nimport { createWidget } from "@acme/widgets";\n\nconst widget = await createWidget({ name: "hello", size: "small" });\nconsole.log(widget.id);\n```\n\n## Deploy\n\nRun `widget deploy` in the project folder. The CLI prints the address of the new widget.\n',
  },
  'guides/configuration': {
    title: 'Configuration',
    description: 'Every setting of widget.json, with defaults and examples.',
    body: '## The file\n\nA widget reads `widget.json` from its folder.\n\n| Setting | Default | Meaning |\n| --- | --- | --- |\n| `name` | (none) | The widget\'s name, shown in dashboards |\n| `size` | `small` | One of `small`, `medium`, `large` |\n| `region` | `eu-west` | Where the widget runs |\n| `retries` | `3` | How often a failed start is retried |\n\n## Environment variables\n\nSettings can also come from `WIDGET_*` variables, which win over the file.\n\n```json\n{\n  "name": "hello",\n  "size": "medium",\n  "region": "us-east"\n}\n```\n',
  },
  'guides/deployments': {
    title: 'Deployments',
    description: 'How deployments work, how to roll back, and what the logs say.',
    body: '## How a deployment runs\n\n1. The CLI uploads the folder.\n2. The platform builds the widget.\n3. Traffic moves to the new version once it is healthy.\n\n## Rolling back\n\nRun `widget rollback` to move traffic back to the previous version. Nothing is rebuilt.\n\n## Logs\n\nEvery deployment keeps its log for thirty days.\n\n> Logs older than thirty days are deleted and cannot be recovered.\n',
  },
  'reference/api': {
    title: 'API reference',
    description: 'The endpoints of the Acme Widgets API.',
    body: '## Authentication\n\nSend `Authorization: Bearer <key>` with every request.\n\n## Endpoints\n\n### List widgets\n\n```bash\ncurl https://api.acme.example/v1/widgets -H "Authorization: Bearer $KEY"\n```\n\n### Create a widget\n\n```bash\ncurl -X POST https://api.acme.example/v1/widgets -d \'{"name":"hello"}\'\n```\n\n## Errors\n\nErrors are JSON objects with `error` and `message`.\n',
  },
};
// The home page, a page of code blocks and a page with a wide table.
const AUDITED = ['/', '/guides/quickstart/', '/guides/configuration/'];

const write = writeFileIn;

const frontmatter = (p: { title: string; description: string }) => `---\ntitle: ${JSON.stringify(p.title)}\ndescription: ${JSON.stringify(p.description)}\n---\n\n`;

async function buildFolio(siteUrl: string): Promise<string> {
  const root = path.join(benchDir, 'folio-root');
  const out = path.join(benchDir, 'folio-out');
  for (const dir of [root, out]) fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  write(root, 'docs.json', JSON.stringify({
    name: 'Acme Widgets',
    description: PAGES.index!.description,
    navigation: [
      { group: 'Start', pages: ['index'] },
      { group: 'Guides', pages: ['guides/quickstart', 'guides/configuration', 'guides/deployments'] },
      { group: 'Reference', pages: ['reference/api'] },
    ],
  }));
  for (const [page, p] of Object.entries(PAGES)) write(root, `content/${page}.md`, frontmatter(p) + p.body);
  const result = await buildSite({ contentRoot: root, outDir: out, siteUrl, timeoutMs: 300_000 });
  if (!result.ok) throw new Error(`the Folio build failed: ${result.error?.message}`);
  return out;
}

async function buildStarlight(siteUrl: string): Promise<string> {
  // Inside the repository, so the generated project resolves Astro and Starlight from node_modules.
  const root = writeStarlightProject(path.join(benchDir, 'starlight'), {
    title: 'Acme Widgets',
    description: PAGES.index!.description,
    siteUrl,
    sidebar: [
      { label: 'Start', items: ['index'] },
      { label: 'Guides', items: ['guides/quickstart', 'guides/configuration', 'guides/deployments'] },
      { label: 'Reference', items: ['reference/api'] },
    ],
  });
  for (const [page, p] of Object.entries(PAGES)) write(root, `src/content/docs/${page}.md`, frontmatter(p) + p.body);
  const astro = path.join(repoRoot, 'node_modules/astro/bin/astro.mjs');
  await run(process.execPath, [astro, 'build', '--root', root], root);
  return path.join(root, 'dist');
}

function run(file: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(args[0] ?? file)} exited ${code}:\n${output.slice(-4000)}`))));
  });
}

/** A site served the way Folio serves a live one; the build is published into it later. */
async function startHosting(allowCode: boolean) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-lighthouse-'));
  const project = { id: randomUUID(), allow_code: allowCode } as ProjectRecord;
  const sites = createSiteHandler(dataDir);
  const server = http.createServer((req, res) => void sites.serve(project, req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    async publish(out: string) {
      const deployment = randomUUID();
      const dir = buildDir(dataDir, project.id, deployment);
      fs.mkdirSync(path.dirname(dir), { recursive: true });
      fs.cpSync(out, dir, { recursive: true });
      await publishBuild(dataDir, project.id, deployment);
      sites.liveChanged(project.id);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function startChromium(): Promise<{ port: number; child: ChildProcess; profile: string }> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium is needed at ${CHROMIUM}: apt-get install -y chromium`);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-lighthouse-chromium-'));
  const child = spawn(CHROMIUM, ['--headless=new', '--no-sandbox', '--disable-gpu', '--remote-debugging-port=0', `--user-data-dir=${profile}`, '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const port = await new Promise<number>((resolve, reject) => {
    let text = '';
    child.stderr!.on('data', (d) => {
      text += d;
      const m = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(text);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`Chromium exited ${code}: ${text.slice(-2000)}`)));
  });
  return { port, child, profile };
}

/** An audit that cost points in one run: its id, title and what it measured. */
interface Lost {
  id: string;
  title: string;
  value: string;
}
type Scores = Record<(typeof CATEGORIES)[number], number> & { metrics: string; lost: Lost[]; lcpElement?: string };
const METRICS = { 'first-contentful-paint': 'FCP', 'largest-contentful-paint': 'LCP', 'total-blocking-time': 'TBT', 'cumulative-layout-shift': 'CLS', 'speed-index': 'SI' };

const REPORTS = process.env.BENCH_REPORTS === '1' ? path.join(benchDir, 'reports') : undefined;

async function audit(url: string, port: number, name = ''): Promise<Scores> {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { categories, runtimeError, audits } = result.lhr;
  if (runtimeError) throw new Error(`Lighthouse could not audit ${url}: ${runtimeError.message}`);
  if (REPORTS && name) {
    fs.mkdirSync(REPORTS, { recursive: true });
    fs.writeFileSync(path.join(REPORTS, `${name}${new URL(url).pathname.replaceAll('/', '_')}${Date.now()}.json`), JSON.stringify(result.lhr));
  }
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((categories[c]?.score ?? 0) * 100)]));
  const metrics = Object.entries(METRICS).map(([id, label]) => `${label} ${audits[id]?.displayValue ?? '?'}`).join(', ');
  // Audits that count (a weight in a category, or an opportunity with savings) and did not pass.
  const counted = new Set(CATEGORIES.flatMap((c) => (categories[c]?.auditRefs ?? []).filter((r) => r.weight > 0 || r.group === 'diagnostics' || r.group === 'load-opportunities').map((r) => r.id)));
  const lost = [...counted]
    .map((id) => audits[id]!)
    .filter((a) => a && a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'manual' && a.scoreDisplayMode !== 'notApplicable')
    .map((a) => ({ id: a.id, title: a.title, value: a.displayValue ?? '' }));
  // The LCP element: the node item of Lighthouse's LCP breakdown (its selector and the start of its text).
  const lcp = audits['lcp-breakdown-insight']?.details as { items?: Array<{ type?: string; selector?: string; nodeLabel?: string }> } | undefined;
  const node = lcp?.items?.find((i) => i.type === 'node');
  const lcpElement = node ? `${node.selector ?? ''} “${(node.nodeLabel ?? '').slice(0, 40)}”` : undefined;
  return { ...scores, metrics, lost, lcpElement } as Scores;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
};

/** Other work on the machine stretches main-thread tasks, so Total Blocking Time moves with it. */
const loadAverage = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

async function main() {
  const startLoad = loadAverage();
  fs.mkdirSync(benchDir, { recursive: true });
  const folio = await startHosting(false);
  const starlight = await startHosting(true);
  const chromium = await startChromium();
  try {
    console.log('building the Folio site…');
    await folio.publish(await buildFolio(folio.url));
    console.log('building the Starlight site from the same pages…');
    await starlight.publish(await buildStarlight(starlight.url));
    // A first audit pays for Chromium's and the servers' warm-up: not counted, for either site.
    for (const site of [folio, starlight]) await audit(`${site.url}/`, chromium.port);
    const samples: Record<string, Record<string, Scores[]>> = { Folio: {}, Starlight: {} };
    for (let run = 1; run <= RUNS; run++) {
      for (const page of AUDITED) {
        for (const [name, site] of [['Folio', folio], ['Starlight', starlight]] as const) {
          const scores = await audit(`${site.url}${page}`, chromium.port, name);
          (samples[name]![page] ??= []).push(scores);
          console.log(`run ${run}/${RUNS} ${name.padEnd(9)} ${page.padEnd(24)} ${CATEGORIES.map((c) => `${c} ${scores[c]}`).join(', ')} (${scores.metrics})`);
        }
      }
    }
    console.log(`\nLighthouse ${(await import('lighthouse/package.json', { with: { type: 'json' } })).default.version}, mobile defaults, median of ${RUNS} run(s); load average ${loadAverage()} on ${os.availableParallelism()} cores (${startLoad} at the start):\n`);
    console.log(`${'page'.padEnd(24)}${'category'.padEnd(16)}${'Folio'.padStart(7)}${'Starlight'.padStart(11)}  goal (≥ ${GOAL}, ≥ Starlight)`);
    let missed = 0;
    for (const page of AUDITED) {
      for (const c of CATEGORIES) {
        const f = median(samples.Folio![page]!.map((s) => s[c]));
        const s = median(samples.Starlight![page]!.map((x) => x[c]));
        const ok = f >= GOAL && f >= s;
        if (!ok) missed++;
        console.log(`${page.padEnd(24)}${c.padEnd(16)}${String(f).padStart(7)}${String(s).padStart(11)}  ${ok ? 'met' : 'MISSED'}`);
      }
    }
    console.log(missed ? `\n${missed} goal(s) missed` : '\nall goals met');
    console.log('\nWhat cost Folio points (audits failed, in how many runs):');
    for (const page of AUDITED) {
      const runs = samples.Folio![page]!;
      const failed = new Map<string, { lost: Lost; runs: number }>();
      for (const run of runs) for (const lost of run.lost) failed.set(lost.id, { lost, runs: (failed.get(lost.id)?.runs ?? 0) + 1 });
      const lcp = [...new Set(runs.map((r) => r.lcpElement).filter(Boolean))];
      console.log(`${page}: ${failed.size ? '' : 'none'}${lcp.length ? `(LCP element: ${lcp.join(' | ')})` : ''}`);
      for (const { lost, runs: n } of failed.values()) console.log(`  ${lost.id} (${n}/${runs.length}): ${lost.title}${lost.value ? ` — ${lost.value}` : ''}`);
    }
    process.exitCode = missed ? 1 : 0;
  } finally {
    chromium.child.kill('SIGKILL');
    fs.rmSync(chromium.profile, { recursive: true, force: true });
    await folio.close();
    await starlight.close();
  }
}

await main();
