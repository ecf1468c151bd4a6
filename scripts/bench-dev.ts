// `npm run bench:dev`: how long a saved change takes to show in the browser in `folio dev`, on a
// repository of BENCH_PAGES pages (default 1,000; the goal, under 2 s, is in docs/benchmarks.md). Chromium keeps a page
// open; the time runs from the write of the file to the moment the open page shows the new text
// (the preview reloads it; nothing else does), for a page, a snippet the page includes, docs.json
// (the site's name in the header) and the OpenAPI file it names (an operation's description, on
// its page), each BENCH_RUNS times
// (default 5); medians printed. Baseline: the same page edits under `npm run dev` (astro dev of the
// same repository without the folio command), to show what the command adds.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { launchChromium } from '../test/helpers/browser.ts';
import { freePort } from '../test/helpers/free-port.ts';
import { devBuildRoot } from '../src/cli/dev.ts';

const PAGES = Number(process.env.BENCH_PAGES ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CHECKOUT = fileURLToPath(new URL('../', import.meta.url));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const pageText = (n: number, words: string) => `---\ntitle: Page ${n}\n---\n\n## Part ${n}\n\n${words}\n\n<Snippet file="shared.mdx" />\n`;

const docsJson = (name: string) => JSON.stringify({ name, api: { openapi: 'api.json' }, navigation: { pages: ['index', ...Array.from({ length: PAGES }, (_, i) => `guides/page-${i}`)] } });
/** One operation, at /api-reference/list-lamps/; `words` is its description. */
const openApi = (words: string) => JSON.stringify({ openapi: '3.1.0', info: { title: 'Lamps', version: '1' }, paths: { '/lamps': { get: { summary: 'List lamps', description: words, responses: { '200': { description: 'OK' } } } } } });

function makeRepo(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-dev-'));
  const names = Array.from({ length: PAGES }, (_, i) => `guides/page-${i}`);
  fs.writeFileSync(path.join(root, 'docs.json'), docsJson('Bench v0'));
  fs.writeFileSync(path.join(root, 'api.json'), openApi('Lamp words a0.'));
  fs.writeFileSync(path.join(root, 'index.mdx'), pageText(0, 'Home words v0.'));
  fs.mkdirSync(path.join(root, 'guides'));
  fs.mkdirSync(path.join(root, 'snippets'));
  fs.writeFileSync(path.join(root, 'snippets/shared.mdx'), 'Shared words s0.\n');
  for (let i = 0; i < PAGES; i++) fs.writeFileSync(path.join(root, `${names[i]}.mdx`), pageText(i, `Words of page ${i}.`));
  return fs.realpathSync(root);
}

async function until(tab: Page, text: string): Promise<void> {
  await tab.waitForFunction((t) => document.body?.innerText.includes(t) ?? false, text, { timeout: 120_000, polling: 20 });
}

/** Starts a preview, waits until it serves the page, and returns it with its open tab. */
async function open(command: string[], cwd: string, env: Record<string, string>, url: string, tab: Page): Promise<ChildProcess> {
  const child = spawn(command[0], command.slice(1), { cwd, env: { ...process.env, ...env }, stdio: 'ignore', detached: true });
  for (const deadline = Date.now() + 600_000; ; ) {
    const ok = await fetch(url).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`${command.join(' ')} did not serve ${url}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await tab.goto(url);
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
}

/** Edits `file` RUNS times, each time timing until the tab shows the new text. */
async function edits(tab: Page, root: string, file: string, text: (run: number) => [string, string]): Promise<number> {
  const times: number[] = [];
  for (let run = 1; run <= RUNS; run++) {
    const [content, shown] = text(run);
    const started = performance.now();
    fs.writeFileSync(path.join(root, file), content);
    await until(tab, shown);
    times.push(performance.now() - started);
  }
  return median(times);
}

const root = makeRepo();
const browser = await launchChromium();
const tab = await browser.newPage();
const results: Array<[string, number]> = [];
let round = 0;
try {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/guides/page-500/`;
  // Run from the repository, as an author does.
  const folio = await open([path.join(CHECKOUT, 'bin/folio'), 'dev', '--port', String(port)], root, {}, url, tab);
  try {
    results.push(['folio dev: page', await edits(tab, root, 'guides/page-500.mdx', () => [pageText(500, `Folio words ${++round}.`), `Folio words ${round}.`])]);
    results.push(['folio dev: snippet', await edits(tab, root, 'snippets/shared.mdx', (r) => [`Shared words s${r}.\n`, `Shared words s${r}.`])]);
    results.push(['folio dev: docs.json', await edits(tab, root, 'docs.json', (r) => [docsJson(`Bench v${r}`), `Bench v${r}`])]);
    await tab.goto(`http://127.0.0.1:${port}/api-reference/list-lamps/`);
    results.push(['folio dev: OpenAPI file', await edits(tab, root, 'api.json', (r) => [openApi(`Lamp words a${r}.`), `Lamp words a${r}.`])]);
  } finally {
    await stop(folio);
  }
  const basePort = await freePort();
  const baseUrl = `http://127.0.0.1:${basePort}/guides/page-500/`;
  const buildRoot = devBuildRoot(root);
  const config = path.relative(buildRoot, path.join(CHECKOUT, 'astro.config.mjs'));
  const astro = await open(
    [path.join(CHECKOUT, 'node_modules/.bin/node'), path.join(CHECKOUT, 'node_modules/astro/bin/astro.mjs'), 'dev', '--root', buildRoot, '--config', config, '--host', '127.0.0.1', '--port', String(basePort)],
    CHECKOUT,
    { FOLIO_ROLE: 'site', FOLIO_CONTENT_ROOT: root, FOLIO_BUILD_ROOT: buildRoot, ASTRO_TELEMETRY_DISABLED: '1' },
    baseUrl,
    tab,
  );
  try {
    results.push(['baseline npm run dev: page', await edits(tab, root, 'guides/page-500.mdx', () => [pageText(500, `Base words ${++round}.`), `Base words ${round}.`])]);
  } finally {
    await stop(astro);
  }
} finally {
  await browser.close();
  fs.rmSync(devBuildRoot(root), { recursive: true, force: true });
  fs.rmSync(root, { recursive: true, force: true });
}
console.log(`\nfolio dev, ${PAGES} pages: a saved change until the open page shows it (median of ${RUNS})\n`);
console.log('| change | median |');
console.log('|---|---|');
for (const [what, ms] of results) console.log(`| ${what} | ${(ms / 1000).toFixed(2)} s |`);
const page = results.find(([w]) => w === 'folio dev: page')?.[1];
const base = results.find(([w]) => w.startsWith('baseline'))?.[1];
if (page && base) console.log(`\npage change, folio dev ÷ npm run dev: ${(page / base).toFixed(2)}`);
