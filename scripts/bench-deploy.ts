// `npm run bench:deploy`: deploy speed and static-serving throughput of live sites.
//
// 1. Trigger-to-live latency of a full rebuild: a real server, real git repositories over file:// of
//    10 and 1,000 generated MDX pages; each run commits a change, POSTs a deployment with
//    `full_build: true` (a one-page change would otherwise be a fast redeploy) and polls the site
//    host until the new content answers 200 (median of BENCH_RUNS, default 5). Goals: 10 pages < 2 s,
//    1,000 pages < 15 s.
// 1b. Push-to-live for a one-page change in the 1,000-page site (when 1,000 is among BENCH_SIZES):
//    a signed push webhook delivery (POST /hooks/git/{id}) instead of the API trigger, then the site
//    host polled until the changed page answers with the new text; printed beside the full-rebuild
//    figure of step 1 measured in the same run. Goal: ≤ 3 s median. The push is a fast redeploy
//    (docs/decisions.md#fast-redeploys); each run's log lines `build: fast (…)`/`build: full (…)` and
//    `timings: …` (the time of each step: sync, snapshot, check, Astro, Pagefind, publish…) are printed.
//    BENCH_ONLY=push runs step 1b alone, at BENCH_PUSH_PAGES pages (default 1,000) of the corpus
//    BENCH_PUSH_CORPUS (`plain`, the default: this file's MDX pages in Folio's layout; `mintlify`:
//    the Mintlify-like site of bench:scale, scripts/bench-corpus.ts), its connect deployment
//    (full, timed once) standing in for step 1; the median of each step of the `timings:` lines
//    over the runs and the content sync's count of pages read again are printed too, with the
//    search index's and the reuse copy's lines; each push starts once the previous deployment has
//    ended (its reuse copy is made after its site is live). BENCH_LOG_DIR=dir keeps each of these
//    deployments' whole logs there, the bench's own clock added (push sent and answered, the
//    deployment's record, the new text's first 200, its snapshot gone): a push's time broken down
//    past `timings:` (docs/decisions.md, "Where a one-page push at 25,000 pages spends its 18 s").
//    Goal at 25,000 pages: ≤ 5 s (docs/benchmarks.md).
// 1c. The same trigger-to-live runs on a second server with the store in PostgreSQL
//    (FOLIO_DATABASE_URL, a throwaway cluster started as the tests start theirs:
//    test/helpers/postgres.ts), the two servers taking turns run by run; printed beside the
//    JSON-file figures of step 1 with their ratio. BENCH_ONLY=store runs steps 1 and 1c alone
//    (no push, build, serving or redirect parts).
// 2. The build step alone, cold (a fresh Astro process per build) against a warm worker, on the
//    10-page site, in this process: the ratio is what the warm worker saves. Each is measured with
//    the build sandbox (FOLIO_SANDBOX=required) and without (off), the two taking turns run by run,
//    and the ratio sandbox / no sandbox is printed (goal for warm builds: about 1×).
//    BENCH_ONLY=build runs this part alone.
// 3. Serving a live page and a CSS asset with autocannon (BENCH_DURATION_S, default 10;
//    BENCH_CONNECTIONS, 20), compression on both sides: every request says
//    `Accept-Encoding: gzip, br`; Folio answers from the brotli copies made at publish time,
//    nginx (`gzip on`, compressing as it sends, its usual setup) serves the same build directory
//    (worker_processes 1: one process each, like for like; nginx's default of one worker per core
//    is printed too), in BENCH_SERVING_ROUNDS alternating rounds (default 3; medians compared),
//    requests per second and p99 printed, and (Linux, BENCH_ONLY=serving) the CPU time each server's
//    processes spent per request: steadier than requests per second on a shared machine, where the
//    load generator and other work take turns with the server. Goal: ≥ 1.0× nginx on both. BENCH_ONLY=serving runs this
//    part alone on a 10-page build made here, served by Folio's site handler. Needs nginx
//    (`apt-get install -y nginx`; CI does not run benchmarks); without it the comparison is
//    skipped and says so.
// 4. What redirects cost static serving: the same live build served by Folio's site handler with
//    no redirects and with 5,000 docs.json rules (exact paths, `:param`, `:param*` and `prefix*`),
//    in BENCH_REDIRECT_ROUNDS alternating rounds (default 6); a page request walks the rules before
//    the file (docs/decisions.md#redirects). The matcher alone is timed too (steadier on a busy machine).
//    Goal: the 5,000 rules cost < 5% of throughput. BENCH_ONLY=redirects runs this part alone on
//    a 10-page build made here.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ensureServiceBuilt } from '../src/api/build-service.ts';
import { buildSite, type AstroRunner } from '../src/builder/build.ts';
import type { SandboxMode } from '../src/builder/sandbox.ts';
import { WarmWorker } from '../src/builder/warm-worker.ts';
import { startDeployingServer } from '../test/helpers/deployments.ts';
import { createTestDatabase, startPostgres } from '../test/helpers/postgres.ts';
import type { RepoHost, TestRepo } from '../test/helpers/git-repos.ts';
import { client, getWithHost, type TestServer } from '../test/helpers/server.ts';
import { serveWithFolio } from '../test/site/helpers.ts';
import { writeMintlifyScaleSite } from './bench-corpus.ts';
import { REDIRECTS_FILE, RedirectTable, type RedirectsFile } from '../src/hosting/redirects.ts';
import { snapshotDir } from '../src/service/project-files.ts';

interface LoadResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (options: Record<string, unknown>) => Promise<LoadResult>;

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 5));
const SIZES = (process.env.BENCH_SIZES ?? '10,1000').split(',').map(Number);
const DURATION = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const SERVING_ROUNDS = Math.max(1, Number(process.env.BENCH_SERVING_ROUNDS ?? 3));
const GOALS_S: Record<number, number> = { 10: 2, 1000: 15 };
const REDIRECT_ROUNDS = Math.max(1, Number(process.env.BENCH_REDIRECT_ROUNDS ?? 6));
const PUSH_PAGES = Number(process.env.BENCH_PUSH_PAGES ?? 1000);
const PUSH_CORPUS = process.env.BENCH_PUSH_CORPUS ?? 'plain';
const PUSH_GOALS_S: Record<number, number> = { 1000: 3, 25000: 5 };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

/** A content root of `pages` MDX pages with headings, code, lists, badges and a snippet. */
function pagesOf(pages: number): Record<string, string> {
  const files: Record<string, string> = {
    'docs.json': JSON.stringify({ name: `Bench ${pages}` }),
    '_snippets/auth.mdx': 'Send `Authorization: Bearer {key}` with every request.\n',
    'content/index.mdx': '# Bench home\n\nThe start.\n',
  };
  for (let i = 1; i < pages; i++) {
    files[`content/section-${String(Math.floor(i / 25)).padStart(2, '0')}/page-${i}.mdx`] = [
      `# Page ${i}`,
      '',
      `Intro for page ${i} with **bold**, \`code\` and a [link](/).`,
      '',
      `## <ApiMethod method="get" /> Endpoint ${i}`,
      '',
      '- first item',
      '- second item',
      '',
      '```ts',
      `const response = await fetch('/v1/things/${i}');`,
      '```',
      '',
      `<Snippet file="auth.mdx" vars={{ key: "key_${i}" }} />`,
      '',
    ].join('\n');
  }
  return files;
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A project of one site size on a server, deployed once (the connect deployment warms the worker; not counted). */
async function benchProject(server: TestServer, repo: TestRepo, pages: number) {
  const api = client(server.url, server.defaultKey);
  const slug = `bench-${pages}`;
  repo.commit(pagesOf(pages));
  const project = (await api('POST', '/v1/projects', { body: { name: `Bench ${pages}`, slug, source_repo: repo.slug } })).body;
  await waitUntil(async () => (await getWithHost(server.url, '/', `${slug}.localhost`)).status === 200);
  return {
    slug,
    projectId: project.id as string,
    liveDir: () => fs.realpathSync(path.join(server.dataDir, 'projects', project.id, 'live')),
    /** One trigger-to-live latency: commit, POST a deployment, poll the site until the change answers. */
    async deploy(run: number, label = ''): Promise<number> {
      const marker = `run-${run}-${Date.now()}`;
      repo.commit({ 'content/index.mdx': `# Bench home\n\nThe start, ${marker}.\n` });
      const started = performance.now();
      const res = await api('POST', `/v1/projects/${project.id}/deployments`, { body: { full_build: true } });
      if (res.status !== 202) throw new Error(`trigger answered ${res.status}`);
      await waitUntil(async () => {
        const page = await getWithHost(server.url, '/', `${slug}.localhost`);
        return page.status === 200 && page.text.includes(marker);
      });
      const time = performance.now() - started;
      console.log(`  ${pages} pages${label}, run ${run}: ${seconds(time)} (load ${load()})`);
      return time;
    },
  };
}

/**
 * Step 1c: a second server with the store in PostgreSQL (one node, every role) on a throwaway
 * cluster, as the tests start theirs; `close` stops both.
 */
async function postgresServer(): Promise<{ server: TestServer; host: RepoHost; close(): Promise<void> }> {
  const cluster = await startPostgres();
  try {
    const fixture = await startDeployingServer({ FOLIO_BUILD_CONCURRENCY: '1', FOLIO_DATABASE_URL: await createTestDatabase(cluster.url) });
    let closing: Promise<void> | undefined;
    return { server: fixture.server, host: fixture.host, close: () => (closing ??= fixture.close().finally(() => cluster.stop())) };
  } catch (err) {
    await cluster.stop();
    throw err;
  }
}

/** The page a push changes: its file, its address, and its text with a marker (frontmatter and title kept: a fast redeploy). */
interface PushedPage {
  file: string;
  urlPath: string;
  text(marker: string): string;
}

/** The corpus of step 1b at `pages` pages: its files and the page a push changes. */
async function pushCorpus(pages: number): Promise<{ files: Record<string, string>; page: PushedPage }> {
  if (PUSH_CORPUS !== 'mintlify') {
    return { files: pagesOf(pages), page: { file: 'content/section-05/page-125.mdx', urlPath: '/section-05/page-125', text: (marker) => `# Page 125\n\nChanged by a push, ${marker}.\n` } };
  }
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-push-'));
  try {
    await writeMintlifyScaleSite(root, pages);
    const files: Record<string, string> = {};
    for (const rel of fs.readdirSync(root, { recursive: true, encoding: 'utf8' })) {
      if (fs.statSync(path.join(root, rel)).isFile()) files[rel] = fs.readFileSync(path.join(root, rel), 'utf8');
    }
    const file = Object.keys(files).find((rel) => rel.endsWith('/page-125.mdx'))!;
    const original = files[file]!;
    return { files, page: { file, urlPath: `/${file.replace(/\.mdx$/, '')}`, text: (marker) => `${original}\nChanged by a push, ${marker}.\n` } };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/**
 * BENCH_LOG_DIR (opt-in): each deployment's whole log of step 1b is written there as `{name}.log`
 * (its lines timestamped by the server), to break a push's time down past the `timings:` line; the
 * server's data dir is removed at the end of the bench.
 */
function keepLog(name: string, log: string): void {
  const dir = process.env.BENCH_LOG_DIR;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${name}.log`), log);
  console.log(`    full log: ${path.join(dir, `${name}.log`)}`);
}

/**
 * With BENCH_LOG_DIR: when the deployment's content snapshot is gone (runner.ts moves it aside after
 * recording the end, then its build slot takes the next deployment), a line at the end of its
 * kept log. Watched beside the next push, which does not wait for it; from once the log was read, so
 * a snapshot already gone then gets that time (an upper bound).
 */
async function noteSnapshotRemoved(server: TestServer, projectId: string, deploymentId: string, name: string): Promise<void> {
  const dir = snapshotDir(server.dataDir, projectId, deploymentId);
  await waitUntil(async () => !fs.existsSync(dir), 120_000).catch(() => undefined);
  fs.appendFileSync(path.join(process.env.BENCH_LOG_DIR!, `${name}.log`), `${new Date().toISOString()} bench: its snapshot removed\n`);
}

/** Push-to-live latencies of a one-page change: a signed push delivery, then the page polled until it has the change. */
async function pushLatency(server: TestServer, repo: TestRepo, projectId: string, slug: string, pushed: PushedPage, pages: number): Promise<{ times: number[]; steps: Map<string, number[]> }> {
  const api = client(server.url, server.defaultKey);
  const { secret, url } = (await api('POST', `/v1/projects/${projectId}/webhook-secret`)).body;
  const hook = new URL(url).pathname;
  const times: number[] = [];
  const steps = new Map<string, number[]>();
  for (let run = 1; run <= RUNS; run++) {
    const marker = `push-${run}-${Date.now()}`;
    const sha = repo.commit({ [pushed.file]: pushed.text(marker) });
    const body = JSON.stringify({ ref: 'refs/heads/main', after: sha });
    const started = performance.now();
    const sent = new Date().toISOString();
    const res = await api('POST', hook, {
      body,
      headers: { 'x-github-event': 'push', 'x-github-delivery': marker, 'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}` },
    });
    const answered = new Date().toISOString();
    if (res.status !== 202 || res.body.status !== 'queued') throw new Error(`push answered ${res.status} ${res.text}`);
    await waitUntil(async () => {
      const answer = await getWithHost(server.url, pushed.urlPath, `${slug}.localhost`, {}, 'a site host');
      return answer.status === 200 && answer.text.includes(marker);
    });
    times.push(performance.now() - started);
    const live = new Date().toISOString();
    // The deployment goes on after the site is live (its reuse copy for the next push: runner.ts),
    // as pushes minutes apart would let it: the next push starts once it has ended.
    let deployment = (await api('GET', `/v1/projects/${projectId}/deployments?limit=1`)).body.data[0];
    await waitUntil(async () => {
      deployment = (await api('GET', `/v1/projects/${projectId}/deployments/${deployment.id}`)).body;
      return ['succeeded', 'failed', 'canceled'].includes(deployment.status);
    });
    const log = (await api('GET', `/v1/projects/${projectId}/deployments/${deployment.id}/log`)).text;
    // The bench's own clock around the server's lines: the push sent, the deployment's record, the new text's first 200.
    const record = `${sent} bench: push sent\n${deployment.created_at} bench: deployment created\n${answered} bench: push answered 202\n${deployment.started_at} bench: deployment started\n`;
    keepLog(`push-${pages}-run-${run}`, `${record}${log}${live} bench: first 200 of the new text\n`);
    if (process.env.BENCH_LOG_DIR) void noteSnapshotRemoved(server, projectId, deployment.id, `push-${pages}-run-${run}`);
    const kind = log.match(/build: (?:fast|full) \([^\n]*\)/g)?.join('; ') ?? 'no build line';
    console.log(`  push, one page of ${pages} changed, run ${run}: ${seconds(times.at(-1)!)} (load ${load()}; ${kind})`);
    // The deployment's own steps (runner.ts): where the time went.
    const timings = log.match(/timings: [^\n]*/)?.[0];
    console.log(`    ${timings ?? 'timings: not in the log'}`);
    console.log(`    ${log.match(/\[folio\] content sync: [^\n]*/)?.[0] ?? 'content sync: every page read (no line)'}`);
    for (const line of log.match(/search index: [^\n]*|previous build: [^\n]*|reuse: [^\n]*/g) ?? []) console.log(`    ${line}`);
    for (const [, step, secs] of timings?.matchAll(/(?:timings: |, )([a-z ]+) ([\d.]+) s/g) ?? []) steps.set(step!, [...(steps.get(step!) ?? []), Number(secs) * 1000]);
  }
  return { times, steps };
}

/** BENCH_ONLY=push: step 1b alone at BENCH_PUSH_PAGES pages of BENCH_PUSH_CORPUS; the summary line. */
async function pushCase(server: TestServer, host: RepoHost): Promise<string> {
  const pages = PUSH_PAGES;
  const { files, page } = await pushCorpus(pages);
  const repo = host.repo('bench', `push-${PUSH_CORPUS}-${pages}`);
  repo.commit(files);
  const api = client(server.url, server.defaultKey);
  const slug = `push-${PUSH_CORPUS}-${pages}`;
  console.log(`\nConnect deployment (full) of ${pages} pages (${PUSH_CORPUS} corpus)…`);
  const started = performance.now();
  const project = (await api('POST', '/v1/projects', { body: { name: `Push ${pages}`, slug, source_repo: repo.slug } })).body;
  await waitUntil(async () => {
    const connect = (await api('GET', `/v1/projects/${project.id}/deployments?limit=1`)).body.data[0];
    if (connect?.status === 'failed') throw new Error(`the connect deployment failed: ${connect.error?.message}`);
    return connect?.status === 'succeeded';
  }, 3_600_000);
  const full = performance.now() - started;
  console.log(`  ${seconds(full)} (load ${load()})`);
  const connect = (await api('GET', `/v1/projects/${project.id}/deployments?limit=1`)).body.data[0];
  const connectLog = (await api('GET', `/v1/projects/${project.id}/deployments/${connect.id}/log`)).text;
  keepLog(`connect-${pages}`, connectLog);
  for (const line of connectLog.match(/timings: [^\n]*|search index: [^\n]*|reuse: [^\n]*/g) ?? []) console.log(`    ${line}`);
  console.log(`\nPush-to-live latency, one page of ${pages} changed (signed POST /hooks/git/{id} → first 200 of the new text):`);
  const { times, steps } = await pushLatency(server, repo, project.id, slug, page, pages);
  const pushed = median(times);
  const goal = PUSH_GOALS_S[pages];
  const medians = [...steps].map(([step, ms]) => `${step} ${seconds(median(ms))}`).join(', ');
  return `push → live, one page of ${pages} changed (${PUSH_CORPUS}): median ${seconds(pushed)} of ${times.length}${goal ? ` (goal ≤ ${goal} s: ${pushed <= goal * 1000 ? 'met' : 'NOT met'})` : ''}; ` +
    `connect deployment (full): ${seconds(full)}; median steps: ${medians}`;
}

/** One build variant: cold or with a warm worker, in the sandbox or not. */
interface BuildVariant {
  name: string;
  mode: SandboxMode;
  astro?: AstroRunner;
  times: number[];
}

/**
 * The build step alone: `runs` builds of each variant, the variants taking turns run by run (so all
 * see the same machine load). Each warm worker's first build, which loads Astro, is not counted.
 */
async function buildTimes(files: Record<string, string>, variants: BuildVariant[], runs: number): Promise<void> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-build-'));
  const root = path.join(base, 'root');
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  let n = 0;
  const once = async (v: BuildVariant) => {
    const started = performance.now();
    const result = await buildSite({ contentRoot: root, outDir: fs.mkdtempSync(path.join(base, `out-${n++}-`)), astro: v.astro, sandbox: { mode: v.mode } });
    if (!result.ok) throw new Error(`${v.name} build failed: ${result.error?.message}`);
    return performance.now() - started;
  };
  try {
    for (const v of variants) if (v.astro) await once(v);
    for (let run = 0; run < runs; run++) {
      for (const v of variants) v.times.push(await once(v));
    }
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
}

/** The build step, cold and warm, with and without the sandbox; returns the summary lines. */
async function buildStep(): Promise<string[]> {
  console.log('\nBuild step alone, 10 pages (cold Astro process per build vs a warm worker; with and without the sandbox)…');
  const warmOff = new WarmWorker({ sandbox: { mode: 'off' } });
  const warmOn = new WarmWorker({ sandbox: { mode: 'required' } });
  const variants: BuildVariant[] = [
    { name: 'cold, no sandbox', mode: 'off', times: [] },
    { name: 'cold, sandbox', mode: 'required', times: [] },
    { name: 'warm, no sandbox', mode: 'off', astro: warmOff, times: [] },
    { name: 'warm, sandbox', mode: 'required', astro: warmOn, times: [] },
  ];
  try {
    await buildTimes(pagesOf(10), variants, RUNS);
  } finally {
    await Promise.all([warmOff.close(), warmOn.close()]);
  }
  const [coldOff, coldOn, warmOffT, warmOnT] = variants.map((v) => median(v.times)!);
  for (const v of variants) console.log(`  ${v.name}: median ${seconds(median(v.times)!)} (runs ${v.times.map((t) => (t / 1000).toFixed(2)).join(', ')})`);
  return [
    `build 10 pages without the sandbox: cold ${seconds(coldOff!)}, warm ${seconds(warmOffT!)} (warm is ${(coldOff! / warmOffT!).toFixed(1)}× faster)`,
    `build 10 pages in the sandbox: cold ${seconds(coldOn!)}, warm ${seconds(warmOnT!)}; sandbox / no sandbox: cold ${(coldOn! / coldOff!).toFixed(2)}×, warm ${(warmOnT! / warmOffT!).toFixed(2)}×`,
  ];
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function nginxBinary(): string | undefined {
  for (const candidate of ['/usr/sbin/nginx', '/usr/bin/nginx']) if (fs.existsSync(candidate)) return candidate;
  return undefined;
}

/** Runs nginx in the foreground on a free loopback port, serving `dir`; stop() ends it. */
async function startNginx(binary: string, dir: string, workers: string): Promise<{ port: number; pid: number; stop(): Promise<void> }> {
  const port = await freePort();
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-nginx-'));
  const conf = path.join(prefix, 'nginx.conf');
  fs.writeFileSync(conf, `
daemon off;
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes ${workers};
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  sendfile on;
  gzip on;
  gzip_types text/css text/javascript application/javascript application/json application/xml image/svg+xml text/plain text/markdown;
  tcp_nopush on;
  keepalive_requests 100000;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  server {
    listen 127.0.0.1:${port};
    root ${dir};
    location / { try_files $uri $uri/index.html =404; add_header X-Content-Type-Options nosniff; add_header Cache-Control no-cache; }
  }
}
`);
  const child: ChildProcess = spawn(binary, ['-c', conf, '-p', prefix], { stdio: 'ignore' });
  await waitUntil(async () => (await fetch(`http://127.0.0.1:${port}/`).then((r) => r.status, () => 0)) === 200, 10_000);
  return {
    port,
    pid: child.pid!,
    async stop() {
      child.kill('SIGQUIT');
      await new Promise((resolve) => child.on('exit', resolve));
      fs.rmSync(prefix, { recursive: true, force: true });
    },
  };
}

/** What a browser says it takes: the serving comparison sends it to Folio and nginx alike. */
const ACCEPT_COMPRESSED = { 'accept-encoding': 'gzip, deflate, br' };

async function throughput(name: string, url: string, host?: string, headers: Record<string, string> = {}): Promise<number> {
  return (await measure(name, url, host, headers)).rps;
}

/** Linux's clock ticks a second (USER_HZ), in which /proc/{pid}/stat counts CPU time. */
const TICKS_PER_S = 100;

/** The /proc/{pid}/stat fields after the command name (field 3, the state, first), or undefined once it is gone. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** CPU seconds (user and system) that process `pid` and its children (nginx's workers) have used; undefined off Linux. */
function cpuSecondsOf(pid: number): number | undefined {
  const ticks = (fields: string[] | undefined) => (fields ? Number(fields[11]) + Number(fields[12]) : 0); // utime, stime (fields 14, 15)
  if (!statFields(pid)) return undefined;
  let total = ticks(statFields(pid));
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(Number(entry));
    if (fields && Number(fields[1]) === pid) total += ticks(fields); // ppid (field 4)
  }
  return total / TICKS_PER_S;
}

interface Measured {
  rps: number;
  p99: number;
  /** CPU microseconds the server spent per request, when its process is known. */
  cpuUs?: number;
}

async function measure(name: string, url: string, host?: string, headers: Record<string, string> = {}, serverPid?: number): Promise<Measured> {
  const cpuBefore = serverPid === undefined ? undefined : cpuSecondsOf(serverPid);
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers: { ...headers, ...(host ? { host } : {}) } });
  const cpuAfter = serverPid === undefined ? undefined : cpuSecondsOf(serverPid);
  if (result.non2xx || result.errors) throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  const requests = result.requests.average * DURATION;
  const cpuUs = cpuBefore !== undefined && cpuAfter !== undefined && requests > 0 ? ((cpuAfter - cpuBefore) * 1e6) / requests : undefined;
  console.log(`  ${name}: ${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms${cpuUs === undefined ? '' : `, ${cpuUs.toFixed(1)} µs CPU a request`} (load ${load()})`);
  return { rps: result.requests.average, p99: result.latency.p99, cpuUs };
}

/** The encoding and size of one answer to `url` (with `host`), to show both sides compress. */
async function encodingOf(url: string, host?: string): Promise<string> {
  const res = await new Promise<{ encoding: string; bytes: number }>((resolve, reject) => {
    const req = http.get(url, { headers: { ...ACCEPT_COMPRESSED, ...(host ? { host } : {}) } }, (r) => {
      let bytes = 0;
      r.on('data', (c: Buffer) => (bytes += c.length));
      r.on('end', () => resolve({ encoding: String(r.headers['content-encoding'] ?? 'none'), bytes }));
    });
    req.on('error', reject);
  });
  return `${res.encoding}, ${res.bytes} bytes`;
}

/**
 * Step 3: Folio (`folioUrl`, with `host` for a site host) against nginx serving `liveDir`, on the
 * home page and the largest CSS asset, compression on both sides; returns the summary lines.
 */
async function servingCase(folioUrl: string, host: string | undefined, liveDir: string, folioPid?: number): Promise<string[]> {
  const css = fs.readdirSync(path.join(liveDir, '_astro')).filter((f) => f.endsWith('.css')).sort((a, b) => fs.statSync(path.join(liveDir, '_astro', b)).size - fs.statSync(path.join(liveDir, '_astro', a)).size)[0];
  if (!css) throw new Error('the build has no CSS asset');
  const targets = [{ what: 'page', rel: '/' }, { what: 'asset', rel: `/_astro/${css}` }];
  console.log(`\nServing the home page and /_astro/${css}: ${CONNECTIONS} connections, ${DURATION} s each, Accept-Encoding: ${ACCEPT_COMPRESSED['accept-encoding']}:`);
  const nginx = nginxBinary();
  if (!nginx) {
    const lines: string[] = [];
    for (const { what, rel } of targets) {
      const folio = await measure(`Folio, ${what}`, `${folioUrl}${rel}`, host, ACCEPT_COMPRESSED);
      lines.push(`serving (${what}): Folio ${folio.rps.toFixed(0)} req/s, p99 ${folio.p99} ms; nginx comparison skipped (not installed: apt-get install -y nginx)`);
    }
    console.log('  nginx is not installed (apt-get install -y nginx): the nginx comparison is skipped');
    return lines;
  }
  const lines: string[] = [];
  const one = await startNginx(nginx, liveDir, '1');
  const auto = await startNginx(nginx, liveDir, 'auto');
  try {
    for (const { what, rel } of targets) {
      console.log(`  ${what}: Folio sends ${await encodingOf(`${folioUrl}${rel}`, host)}; nginx ${await encodingOf(`http://127.0.0.1:${one.port}${rel}`)}`);
      // Rounds alternate, so both see the same load from whatever else runs on the machine.
      const folioRuns: Measured[] = [];
      const nginxRuns: Measured[] = [];
      for (let round = 0; round < SERVING_ROUNDS; round++) {
        const pair = [
          async () => folioRuns.push(await measure(`Folio, ${what}`, `${folioUrl}${rel}`, host, ACCEPT_COMPRESSED, folioPid)),
          async () => nginxRuns.push(await measure(`nginx gzip on, 1 worker, ${what}`, `http://127.0.0.1:${one.port}${rel}`, undefined, ACCEPT_COMPRESSED, folioPid === undefined ? undefined : one.pid)),
        ];
        if (round % 2) pair.reverse();
        for (const run of pair) await run();
      }
      const nginxAuto = await measure(`nginx gzip on, 1 worker per core, ${what}`, `http://127.0.0.1:${auto.port}${rel}`, undefined, ACCEPT_COMPRESSED);
      const folio = median(folioRuns.map((r) => r.rps))!;
      const nginxOne = median(nginxRuns.map((r) => r.rps))!;
      const ratio = folio / nginxOne;
      lines.push(
        `serving (${what}, compressed): Folio ${folio.toFixed(0)} req/s (p99 ${median(folioRuns.map((r) => r.p99))} ms), ` +
          `nginx gzip on, 1 worker ${nginxOne.toFixed(0)} req/s (p99 ${median(nginxRuns.map((r) => r.p99))} ms): ${ratio.toFixed(2)}× nginx ` +
          `(goal ≥ 1.0×: ${ratio >= 1 ? 'met' : 'NOT met'}); nginx with a worker per core ${nginxAuto.rps.toFixed(0)} req/s: ${(folio / nginxAuto.rps).toFixed(2)}×` +
          cpuComparison(folioRuns, nginxRuns),
      );
    }
  } finally {
    await Promise.all([one.stop(), auto.stop()]);
  }
  return lines;
}

/** The servers' median CPU time per request and nginx's over Folio's (above 1: Folio spends less), when both were measured. */
function cpuComparison(folioRuns: Measured[], nginxRuns: Measured[]): string {
  const folio = median(folioRuns.flatMap((r) => (r.cpuUs === undefined ? [] : [r.cpuUs])));
  const nginx = median(nginxRuns.flatMap((r) => (r.cpuUs === undefined ? [] : [r.cpuUs])));
  if (folio === undefined || nginx === undefined) return '';
  return `; CPU a request: Folio ${folio.toFixed(1)} µs, nginx ${nginx.toFixed(1)} µs (${(nginx / folio).toFixed(2)}× in Folio's favour)`;
}

/** serveWithFolio (test/site/helpers.ts) in a child process: its URL and build directory; close() ends it. */
async function serveInChild(out: string): Promise<{ url: string; dir: string; pid: number; close(): Promise<void> }> {
  const helpers = new URL('../test/site/helpers.ts', import.meta.url).href;
  const code = `const { serveWithFolio } = await import(${JSON.stringify(helpers)});
const site = await serveWithFolio(${JSON.stringify(out)});
process.on('SIGTERM', () => site.close().then(() => process.exit(0)));
console.log(JSON.stringify({ url: site.url, dir: site.dir }));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (c: Buffer) => {
      text += c.toString();
      if (text.includes('\n')) resolve(text.split('\n')[0]!);
    });
    child.on('exit', (code) => reject(new Error(`the serving process ended (${code})`)));
  });
  const { url, dir } = JSON.parse(line) as { url: string; dir: string };
  return {
    url,
    dir,
    pid: child.pid!,
    async close() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/** 5,000 redirect rules shaped like real sites': mostly exact moved pages, some patterns. */
function manyRedirects(count = 5000): RedirectsFile['rules'] {
  return Array.from({ length: count }, (_, i) => {
    switch (i % 10) {
      case 0:
        return { source: `/old-section-${i}/:slug*`, destination: `/section-${i}/:slug*` };
      case 1:
        return { source: `/blog/${i}/:year/:slug`, destination: `/news/:year/:slug` };
      case 2:
        return { source: `/articles/${i}-*`, destination: '/collections/overview', permanent: false };
      default:
        return { source: `/docs/v${i % 7}/moved-page-${i}`, destination: `/section-${i % 40}/page-${i}` };
    }
  });
}

/** Static serving through Folio's site handler without and with 5,000 redirects; returns the summary line. */
async function redirectCost(liveDir: string): Promise<string> {
  console.log(`\nRedirect cost: a page served by Folio's site handler, no rules vs 5,000 rules (${CONNECTIONS} connections, ${DURATION} s each, ${REDIRECT_ROUNDS} rounds)…`);
  const plain = await serveWithFolio(liveDir);
  const withRules = await serveWithFolio(liveDir);
  fs.writeFileSync(path.join(plain.dir, REDIRECTS_FILE), JSON.stringify({ rules: [] } satisfies RedirectsFile));
  fs.writeFileSync(path.join(withRules.dir, REDIRECTS_FILE), JSON.stringify({ rules: manyRedirects() } satisfies RedirectsFile));
  const hit = await fetch(`${withRules.url}/docs/v3/moved-page-3`, { redirect: 'manual' });
  if (hit.status !== 308) throw new Error(`the rules are not served: ${hit.status}`);
  // A page two segments deep, so the walk has segments to look up (the home page has none).
  const page = '/section-00/page-1/';
  const none: number[] = [];
  const many: number[] = [];
  try {
    // Rounds alternate which goes first, so a machine getting busier or quieter favours neither.
    for (let round = 0; round < REDIRECT_ROUNDS; round++) {
      const pair = [
        async () => none.push(await throughput('no redirects', `${plain.url}${page}`)),
        async () => many.push(await throughput('5,000 redirects', `${withRules.url}${page}`)),
      ];
      if (round % 2) pair.reverse();
      for (const run of pair) await run();
    }
  } finally {
    await Promise.all([plain.close(), withRules.close()]);
  }
  // The matcher alone, timed in this process: steadier than throughput on a loaded machine.
  const table = new RedirectTable(manyRedirects());
  const paths = ['/section-00/page-1/', '/section-03/page-77/', '/docs/v2/unknown', '/blog/5/2024/x', '/articles/12-hello', '/'];
  const samples: number[] = [];
  for (let round = 0; round < 7; round++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < 200_000; i++) table.match(paths[i % paths.length]!);
    samples.push(Number(process.hrtime.bigint() - started) / 200_000);
  }
  const matchNs = median(samples)!;
  const requestNs = 1e9 / median(none)!;
  const ratio = median(many)! / median(none)!;
  return (
    `redirects: static serving with 5,000 rules ${median(many)!.toFixed(0)} req/s vs none ${median(none)!.toFixed(0)} req/s: ratio ${ratio.toFixed(3)} ` +
    `(goal ≥ 0.95: ${ratio >= 0.95 ? 'met' : 'NOT met'}); one match ${matchNs.toFixed(0)} ns = ${((matchNs / requestNs) * 100).toFixed(2)}% of a request's ${(requestNs / 1000).toFixed(0)} µs`
  );
}

async function main(): Promise<void> {
  if (process.env.BENCH_ONLY === 'build') {
    for (const line of await buildStep()) console.log(`- ${line}`);
    return;
  }
  if (process.env.BENCH_ONLY === 'redirects' || process.env.BENCH_ONLY === 'serving') {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), `folio-bench-${process.env.BENCH_ONLY}-`));
    for (const [rel, text] of Object.entries(pagesOf(10))) {
      fs.mkdirSync(path.dirname(path.join(root, 'src', rel)), { recursive: true });
      fs.writeFileSync(path.join(root, 'src', rel), text);
    }
    fs.mkdirSync(path.join(root, 'out'));
    const built = await buildSite({ contentRoot: path.join(root, 'src'), outDir: path.join(root, 'out') });
    if (!built.ok) throw new Error(`build failed: ${built.error?.message}`);
    let lines: string[];
    if (process.env.BENCH_ONLY === 'redirects') lines = [await redirectCost(path.join(root, 'out'))];
    else {
      // Published as a deployment publishes it (its compressed copies made), served by the site
      // handler in a process of its own, as nginx runs in its own: not beside autocannon.
      const site = await serveInChild(path.join(root, 'out'));
      lines = await servingCase(site.url, undefined, site.dir, site.pid).finally(() => site.close());
    }
    fs.rmSync(root, { recursive: true, force: true });
    console.log(`\nSummary (load average ${load()}):`);
    for (const line of lines) console.log(`- ${line}`);
    return;
  }
  await ensureServiceBuilt();
  console.log(`bench:deploy on ${os.cpus().length} cores, load average ${load()}; ${RUNS} run(s) per size`);
  const fixture = await startDeployingServer({ FOLIO_BUILD_CONCURRENCY: '1' });
  const { server, host } = fixture;
  const summary: string[] = [];
  const storeOnly = process.env.BENCH_ONLY === 'store';
  const pushOnly = process.env.BENCH_ONLY === 'push';
  let served: { liveDir: string; slug: string } | undefined;
  if (pushOnly) {
    try {
      summary.push(await pushCase(server, host));
    } finally {
      await fixture.close();
    }
    console.log(`\nSummary (load average ${load()}):`);
    for (const line of summary) console.log(`- ${line}`);
    return;
  }
  const postgres = await postgresServer().catch(async (err: unknown) => {
    await fixture.close();
    throw err;
  });
  try {
    console.log(`\nTrigger-to-live latency of a full rebuild (POST …/deployments → first 200 of the new content)${postgres ? ', the JSON file and PostgreSQL taking turns run by run' : ''}:`);
    for (const pages of SIZES) {
      const repo = host.repo('bench', `site-${pages}`);
      const json = await benchProject(server, repo, pages);
      const pg = postgres && (await benchProject(postgres.server, postgres.host.repo('bench', `site-${pages}`), pages));
      const times: number[] = [];
      const pgTimes: number[] = [];
      for (let run = 1; run <= RUNS; run++) {
        // Alternating which goes first, so a machine getting busier or quieter favours neither.
        const pair = [async () => times.push(await json.deploy(run)), async () => pg && pgTimes.push(await pg.deploy(run, ', PostgreSQL'))];
        if (run % 2 === 0) pair.reverse();
        for (const step of pair) await step();
      }
      served ??= { liveDir: json.liveDir(), slug: json.slug };
      const goal = GOALS_S[pages];
      const m = median(times)!;
      const pgm = median(pgTimes)!;
      summary.push(`deploy ${pages} pages: median ${seconds(m)} of ${times.length}${goal ? ` (goal < ${goal} s: ${m < goal * 1000 ? 'met' : 'NOT met'})` : ''}`);
      if (pg) summary.push(`deploy ${pages} pages with PostgreSQL: median ${seconds(pgm)} of ${pgTimes.length}; PostgreSQL / JSON file ${(pgm / m).toFixed(2)}×`);
      if (pages === 1000 && !storeOnly) {
        console.log('\nPush-to-live latency, one page of the 1,000-page site changed (signed POST /hooks/git/{id} → first 200 of the new text):');
        const pushed = median((await pushLatency(server, repo, json.projectId, json.slug, (await pushCorpus(1000)).page, 1000)).times);
        summary.push(
          `push → live, one page of 1000 changed: median ${seconds(pushed)} (goal ≤ 3 s: ${pushed <= 3000 ? 'met' : 'NOT met'}); ` +
            `full rebuild of the same site in this run: ${seconds(m)} (${(m / pushed).toFixed(2)}× the push figure)`,
        );
      }
    }
    await postgres?.close();

    if (storeOnly) served = undefined;
    else summary.push(...(await buildStep()));

    if (served) {
      summary.push(...(await servingCase(server.url, `${served.slug}.localhost`, served.liveDir)));
      summary.push(await redirectCost(served.liveDir));
    }
  } finally {
    await Promise.all([fixture.close(), postgres?.close()]);
  }
  console.log(`\nSummary (load average ${load()}):`);
  for (const line of summary) console.log(`- ${line}`);
}

try {
  execFileSync('git', ['--version'], { stdio: 'ignore' });
} catch {
  console.error('bench:deploy needs git on PATH');
  process.exit(2);
}
await main();
