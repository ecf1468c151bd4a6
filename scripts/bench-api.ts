// `npm run bench:api`: load-tests the real server with autocannon and compares it with a bare
// node:http JSON endpoint measured in the same run: the bare server and the authenticated
// GET /v1/projects/{id} take turns for BENCH_ROUNDS rounds (default 2; medians compared), so both
// see the same machine load, after a short unmeasured warm-up of each. BENCH_DURATION_S (default
// 10) and BENCH_CONNECTIONS (default 50) shorten or change a run. BENCH_PROFILE=1 runs the server under `node --cpu-prof`, measures only
// the GET rounds, and prints the functions that took the most CPU time (self time), with their file.
// The same GET is measured on a second server whose store is PostgreSQL (FOLIO_DATABASE_URL), on a
// throwaway cluster started the way the tests start theirs (test/helpers/postgres.ts), in the same
// rounds; without PostgreSQL installed that row is left out, with a note.
// BENCH_PROFILE=postgres runs the whole benchmark with that second server under `node --cpu-prof`
// and prints its top functions the same way.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { ensureServiceBuilt } from '../src/api/build-service.ts';
import { createKey, createOrg } from '../src/service/admin-commands.ts';
import { acquireLock } from '../src/service/data-dir-lock.ts';
import { SCOPES } from '../src/service/scopes.ts';
import { openStorage } from '../src/service/storage.ts';
import { createTestDatabase, startPostgres, type TestPostgres } from '../test/helpers/postgres.ts';
import { startChild, stopChild } from './bench-child.ts';

/** The part of autocannon's API used here (the package ships no types). */
interface LoadOptions {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  connections?: number;
  duration?: number;
  requests?: { setupRequest(req: { body?: string }): { body?: string } }[];
}
interface LoadResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (options: LoadOptions) => Promise<LoadResult>;

const DURATION = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const EXISTING_PROJECTS = 10_000;
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
const PROFILE = process.env.BENCH_PROFILE === '1';
/** BENCH_PROFILE=postgres: the whole run, with the PostgreSQL store's server under `node --cpu-prof`. */
const PROFILE_PG = process.env.BENCH_PROFILE === 'postgres';
/** Seconds of unmeasured load on each server before the first round (a fresh process runs unoptimised code at first). */
const WARM_UP_S = 2;

/** A bare node:http server answering a project-sized JSON body: the baseline. */
const BARE_SERVER = `
const http = require('node:http');
const body = JSON.stringify({ id: '6f1c1a52-3c1e-4d0e-9a57-0f3f6f0a9b11', name: 'Project 1', slug: 'project-1', status: 'pending',
  created_at: new Date().toISOString(), url: 'http://project-1.localhost:4321/' });
http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  res.end(body);
}).listen(0, '127.0.0.1', function () { console.log('listening ' + this.address().port); });
`;

/** Seeds a data dir (or the PostgreSQL database at `databaseUrl`) through the store itself: one org, one key, 10,000 projects. */
async function seed(dataDir: string, databaseUrl?: string): Promise<{ key: string; projectId: string }> {
  const lock = await acquireLock(dataDir, 'admin');
  const { store, rateLimiter } = await openStorage({ dataDir, databaseUrl });
  rateLimiter.close();
  const org = await createOrg(store, 'bench', 'business');
  const { key } = await createKey(store, org.id, [...SCOPES], 'bench');
  const writes: Promise<unknown>[] = [];
  const start = Date.now() - EXISTING_PROJECTS;
  for (let i = 0; i < EXISTING_PROJECTS; i++) {
    writes.push(store.createProject({
      id: crypto.randomUUID(), org_id: org.id, name: `Seed ${i}`, slug: `seed-${i}`, status: 'pending',
      created_at: new Date(start + i).toISOString(),
    }));
  }
  const created = (await Promise.all(writes)) as { id: string }[];
  await store.close();
  await lock.release();
  return { key, projectId: created[created.length - 1].id };
}

interface Figures {
  name: string;
  rps: number;
  /** CPU time the server process spent per request (user + system): hardly moved by other load on the machine. */
  cpuUs?: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** CPU time a process has used so far, in microseconds (Linux /proc; undefined elsewhere). */
async function cpuTimeUs(pid: number | undefined): Promise<number | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (!stat) return undefined;
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100; // USER_HZ is 100 on Linux
}

async function load(name: string, options: LoadOptions, server?: ChildProcess): Promise<Figures> {
  const cpuBefore = await cpuTimeUs(server?.pid);
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...options });
  const cpuAfter = await cpuTimeUs(server?.pid);
  const total = result.requests.average * DURATION;
  return {
    name,
    rps: result.requests.average,
    cpuUs: cpuBefore !== undefined && cpuAfter !== undefined && total > 0 ? (cpuAfter - cpuBefore) / total : undefined,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** Runs load that is not measured, so that the rounds measure servers whose code is already compiled and optimised. */
async function warmUp(options: LoadOptions): Promise<void> {
  await autocannon({ connections: CONNECTIONS, duration: WARM_UP_S, ...options });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** One figure per run name: the median of its rounds. */
function medianFigures(rounds: Figures[]): Figures {
  return {
    name: rounds[0]!.name,
    rps: median(rounds.map((r) => r.rps)),
    cpuUs: rounds.every((r) => r.cpuUs !== undefined) ? median(rounds.map((r) => r.cpuUs!)) : undefined,
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    non2xx: rounds.reduce((n, r) => n + r.non2xx, 0),
    errors: rounds.reduce((n, r) => n + r.errors, 0),
  };
}

/**
 * Where a V8 CPU profile's busy time went (idle and GC left out of the total): the functions with
 * the most self time, then Folio's and Astro's functions with the most total time (themselves and
 * what they call), as printable lines.
 */
async function profileTop(dir: string, count = 20): Promise<string[]> {
  const file = (await readdir(dir)).find((f) => f.endsWith('.cpuprofile'));
  if (!file) return ['(no profile written)'];
  const profile = JSON.parse(await readFile(path.join(dir, file), 'utf8')) as {
    nodes: { id: number; hitCount?: number; children?: number[]; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  };
  const nameOf = new Map<number, string>();
  const parentOf = new Map<number, number>();
  for (const { id, children = [], callFrame } of profile.nodes) {
    const where = callFrame.url ? `${callFrame.url.replace(/^file:\/\//, '').replace(`${process.cwd()}/`, '')}:${callFrame.lineNumber + 1}` : '';
    nameOf.set(id, `${callFrame.functionName || '(anonymous)'} ${where}`.trim());
    for (const child of children) parentOf.set(child, id);
  }
  const idle = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let busy = 0;
  for (const { id, hitCount = 0 } of profile.nodes) {
    const name = nameOf.get(id)!;
    if (!hitCount || idle.has(name)) continue;
    busy += hitCount;
    self.set(name, (self.get(name) ?? 0) + hitCount);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) seen.add(nameOf.get(at)!);
    for (const n of seen) total.set(n, (total.get(n) ?? 0) + hitCount);
  }
  const lines = (entries: Map<string, number>, keep: (name: string) => boolean) =>
    [...entries.entries()]
      .filter(([name]) => keep(name))
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, hits]) => `${((100 * hits) / busy).toFixed(1).padStart(5)}%  ${name}`);
  return [
    'self time, % of busy time:',
    ...lines(self, () => true),
    'total time (with callees) of Folio and Astro functions, % of busy time:',
    ...lines(total, (name) => /(^|\s)(src|dist)\//.test(name)),
  ];
}

/** A throwaway PostgreSQL database, or undefined (with the reason printed) when PostgreSQL is not installed. */
async function startBenchPostgres(): Promise<{ cluster: TestPostgres; url: string } | undefined> {
  try {
    const cluster = await startPostgres();
    return { cluster, url: await createTestDatabase(cluster.url) };
  } catch (err) {
    console.log(`PostgreSQL store not measured: ${(err as Error).message.split('\n')[0]}`);
    return undefined;
  }
}

async function main(): Promise<void> {
  await ensureServiceBuilt();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'folio-bench-'));
  const pgDataDir = await mkdtemp(path.join(os.tmpdir(), 'folio-bench-pg-'));
  const profileDir = await mkdtemp(path.join(os.tmpdir(), 'folio-bench-profile-'));
  const results: Figures[] = [];
  let top: string[] = [];
  const postgres = PROFILE ? undefined : await startBenchPostgres();
  try {
    console.log(`Seeding ${EXISTING_PROJECTS} projects…`);
    const { key, projectId } = await seed(dataDir);
    const pgSeed = postgres && (console.log(`Seeding ${EXISTING_PROJECTS} projects in PostgreSQL…`), await seed(pgDataDir, postgres.url));

    const bare = await startChild(['-e', BARE_SERVER], {}, /listening (\d+)/);
    const folio = await startChild([...(PROFILE ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []), 'src/server.ts'], {
      PORT: '0', HOST: '127.0.0.1', FOLIO_DATA_DIR: dataDir,
      FOLIO_RATE_LIMITS: 'free=100000000,pro=100000000,business=100000000',
    }, /Folio listening on http:\/\/[^:]+:(\d+)/);
    const pgFolio = pgSeed && await startChild([...(PROFILE_PG ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []), 'src/server.ts'], {
      PORT: '0', HOST: '127.0.0.1', FOLIO_DATA_DIR: pgDataDir, FOLIO_DATABASE_URL: postgres.url,
      FOLIO_RATE_LIMITS: 'free=100000000,pro=100000000,business=100000000',
    }, /Folio listening on http:\/\/[^:]+:(\d+)/);
    const base = `http://127.0.0.1:${folio.port}`;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    // The bare server and the authenticated GETs take turns, so all see the same machine load.
    const bareRounds: Figures[] = [];
    const getRounds: Figures[] = [];
    const pgRounds: Figures[] = [];
    const pgGet = pgFolio && pgSeed && { url: `http://127.0.0.1:${pgFolio.port}/v1/projects/${pgSeed.projectId}`, headers: { authorization: `Bearer ${pgSeed.key}` } };
    console.log(`warming up each server for ${WARM_UP_S} s (not measured)`);
    await warmUp({ url: `http://127.0.0.1:${bare.port}/` });
    await warmUp({ url: `${base}/v1/projects/${projectId}`, headers });
    if (pgGet) await warmUp(pgGet);
    for (let round = 1; round <= ROUNDS; round++) {
      console.log(`round ${round}/${ROUNDS}: bare node:http, then Folio GET /v1/projects/{id}${pgFolio ? ' (JSON file, then PostgreSQL)' : ''}: ${CONNECTIONS} connections, ${DURATION} s each`);
      bareRounds.push(await load('bare node:http GET (baseline)', { url: `http://127.0.0.1:${bare.port}/` }, bare.child));
      getRounds.push(await load('Folio GET /v1/projects/{id}', { url: `${base}/v1/projects/${projectId}`, headers }, folio.child));
      if (pgFolio && pgGet) pgRounds.push(await load('Folio GET /v1/projects/{id}, PostgreSQL store', pgGet, pgFolio.child));
      console.log(`  bare ${bareRounds.at(-1)!.rps.toFixed(0)} req/s, GET ${getRounds.at(-1)!.rps.toFixed(0)} req/s (p99 ${getRounds.at(-1)!.p99} ms)` +
        (pgRounds.length ? `, PostgreSQL GET ${pgRounds.at(-1)!.rps.toFixed(0)} req/s (p99 ${pgRounds.at(-1)!.p99} ms)` : ''));
    }
    await stopChild(bare.child);
    if (pgFolio) await stopChild(pgFolio.child);
    if (PROFILE_PG) top = await profileTop(profileDir);
    results.push(medianFigures(bareRounds));
    results.push(medianFigures(getRounds));
    if (pgRounds.length) results.push(medianFigures(pgRounds));
    if (PROFILE) {
      await stopChild(folio.child);
      top = await profileTop(profileDir);
      return report(results, top);
    }
    // Where the time goes: an endpoint without a key or a project lookup (it checks the store file
    // and the free space on each request).
    console.log(`Folio GET /healthz: ${CONNECTIONS} connections, ${DURATION} s`);
    results.push(await load('Folio GET /healthz (no key; checks the store file and free space)', { url: `${base}/healthz` }, folio.child));
    let n = 0;
    console.log(`Folio POST /v1/projects (${EXISTING_PROJECTS} existing): ${CONNECTIONS} connections, ${DURATION} s`);
    results.push(await load(`Folio POST /v1/projects (${EXISTING_PROJECTS}+ projects)`, {
      url: `${base}/v1/projects`,
      method: 'POST',
      headers,
      requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ name: 'Bench', slug: `bench-${process.pid}-${n++}` }) }) }],
    }, folio.child));
    await stopChild(folio.child);
  } finally {
    await postgres?.cluster.stop();
    await rm(dataDir, { recursive: true, force: true });
    await rm(pgDataDir, { recursive: true, force: true });
    await rm(profileDir, { recursive: true, force: true });
  }

  report(results, top);
}

function report(results: Figures[], top: string[]): void {
  const baseline = results[0]!.rps;
  console.log('');
  const cpuBaseline = results[0]!.cpuUs;
  const cpuText = (r: Figures) => (r.cpuUs === undefined ? '–' : `${r.cpuUs.toFixed(0)}`);
  const cpuRatio = (r: Figures) => (r.cpuUs && cpuBaseline ? (cpuBaseline / r.cpuUs).toFixed(2) : '–');
  console.log('| run | req/s | p50 ms | p99 ms | × baseline | server CPU µs/request | × baseline by CPU | non-2xx | errors |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    console.log(`| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${(r.rps / baseline).toFixed(2)} | ${cpuText(r)} | ${cpuRatio(r)} | ${r.non2xx} | ${r.errors} |`);
  }
  const get = results.find((r) => r.name === 'Folio GET /v1/projects/{id}')!;
  const pgGet = results.find((r) => r.name.endsWith('PostgreSQL store'));
  const post = results.find((r) => r.name.startsWith('Folio POST'));
  console.log('');
  console.log(`Goals: GET ≥ 0.25× baseline: ${(get.rps / baseline).toFixed(2)}× ${get.rps >= 0.25 * baseline ? 'met' : 'NOT met'}; ` +
    `GET p99 < 25 ms: ${get.p99} ms ${get.p99 < 25 ? 'met' : 'NOT met'}` +
    (post ? `; POST ≥ 1000 req/s: ${post.rps.toFixed(0)} ${post.rps >= 1000 ? 'met' : 'NOT met'}` : ''));
  if (pgGet) {
    console.log(`PostgreSQL store: GET ≥ 0.7× the JSON file's: ${(pgGet.rps / get.rps).toFixed(2)}× ${pgGet.rps >= 0.7 * get.rps ? 'met' : 'NOT met'}; ` +
      `GET p99 < 25 ms: ${pgGet.p99} ms ${pgGet.p99 < 25 ? 'met' : 'NOT met'}`);
  }
  if (top.length) {
    console.log('');
    console.log((PROFILE_PG ? 'PostgreSQL store\'s server' : 'Server') + ' CPU profile over the whole run, top functions by self time:');
    for (const line of top) console.log(line);
  }
}

await main();
