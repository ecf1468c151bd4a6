// `npm run bench:api`: load-tests the real server with autocannon and compares it with a bare
// node:http JSON endpoint measured in the same run. BENCH_DURATION_S (default 10) and
// BENCH_CONNECTIONS (default 50) shorten or change a run.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { ensureServiceBuilt } from '../src/api/build-service.ts';
import { createKey, createOrg } from '../src/service/admin-commands.ts';
import { acquireLock } from '../src/service/data-dir-lock.ts';
import { SCOPES } from '../src/service/scopes.ts';
import { openStore } from '../src/service/store.ts';
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

/** Seeds a data dir through the store itself: one org, one key, 10,000 projects. */
async function seed(dataDir: string): Promise<{ key: string; projectId: string }> {
  const lock = await acquireLock(dataDir, 'admin');
  const store = await openStore(dataDir);
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
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function load(name: string, options: LoadOptions): Promise<Figures> {
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...options });
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

async function main(): Promise<void> {
  await ensureServiceBuilt();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'folio-bench-'));
  const results: Figures[] = [];
  try {
    console.log(`Seeding ${EXISTING_PROJECTS} projects…`);
    const { key, projectId } = await seed(dataDir);

    const bare = await startChild(['-e', BARE_SERVER], {}, /listening (\d+)/);
    console.log(`bare node:http baseline: ${CONNECTIONS} connections, ${DURATION} s`);
    results.push(await load('bare node:http GET (baseline)', { url: `http://127.0.0.1:${bare.port}/` }));
    await stopChild(bare.child);

    const folio = await startChild(['src/server.ts'], {
      PORT: '0', HOST: '127.0.0.1', FOLIO_DATA_DIR: dataDir,
      FOLIO_RATE_LIMITS: 'free=100000000,pro=100000000,business=100000000',
    }, /Folio listening on http:\/\/[^:]+:(\d+)/);
    const base = `http://127.0.0.1:${folio.port}`;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    // Where the time goes: an Astro endpoint that does almost nothing (no key, no store lookup).
    console.log(`Folio GET /healthz: ${CONNECTIONS} connections, ${DURATION} s`);
    results.push(await load('Folio GET /healthz (Astro endpoint floor)', { url: `${base}/healthz` }));
    console.log(`Folio GET /v1/projects/{id}: ${CONNECTIONS} connections, ${DURATION} s`);
    results.push(await load('Folio GET /v1/projects/{id}', { url: `${base}/v1/projects/${projectId}`, headers }));
    let n = 0;
    console.log(`Folio POST /v1/projects (${EXISTING_PROJECTS} existing): ${CONNECTIONS} connections, ${DURATION} s`);
    results.push(await load(`Folio POST /v1/projects (${EXISTING_PROJECTS}+ projects)`, {
      url: `${base}/v1/projects`,
      method: 'POST',
      headers,
      requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ name: 'Bench', slug: `bench-${process.pid}-${n++}` }) }) }],
    }));
    await stopChild(folio.child);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }

  const baseline = results[0].rps;
  console.log('');
  console.log('| run | req/s | p50 ms | p99 ms | × baseline | non-2xx | errors |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    console.log(`| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${(r.rps / baseline).toFixed(2)} | ${r.non2xx} | ${r.errors} |`);
  }
  const [, , get, post] = results;
  console.log('');
  console.log(`Goals: GET ≥ 0.8× baseline: ${(get.rps / baseline).toFixed(2)}× ${get.rps >= 0.8 * baseline ? 'met' : 'NOT met'}; ` +
    `GET p99 < 25 ms: ${get.p99} ms ${get.p99 < 25 ? 'met' : 'NOT met'}; ` +
    `POST ≥ 1000 req/s: ${post.rps.toFixed(0)} ${post.rps >= 1000 ? 'met' : 'NOT met'}`);
}

await main();
