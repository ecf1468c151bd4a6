// `npm run bench:pages`: the pages API against the real server (issue 5). Measures, for projects
// of 100, 1,000 and 5,000 pages written to disk beforehand:
//   cold  the first `GET …/pages?limit=100` of a project after the server started: it scans and
//         parses every page file (the OS file cache is warm: the files were just written; the
//         server has answered one GET /healthz and one GET /v1/projects first, so loading its
//         code is not counted);
//         median over BENCH_RESTARTS server starts (default 3);
//   warm  listing ALL pages by following next_cursor with limit=100 (N/100 requests, one after
//         another), median over BENCH_RUNS repetitions (default 20);
// and the create throughput (POST …/pages, BENCH_CREATES pages, sequential and 8 at a time).
// To separate the page work from HTTP, the same warm walk is also run in this process against
// the pages service itself (createPagesService, same files, no HTTP, no auth).
// Baselines, run in this script on the same files: a raw fast-glob + readFile of every page
// (lists) and a raw durable file write, temp + fsync + rename + folder fsync (creates). For
// context, the HTTP floor: as many sequential `GET /healthz` (an Astro endpoint doing nothing) as
// the warm walk makes list requests.
// Last, the latency of `GET /healthz` (median and p99 of BENCH_HEALTHZ sequential requests, default
// 2,000) on a quiet server, then while two clients keep writing 2 MiB pages that make the content
// parser slow (unclosed braces; each answered 422 content_too_complex): the checks run in check
// processes, so the server's event loop must stay free (goal: p99 under 50 ms).
import type { ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fg from 'fast-glob';
import { ensureServiceBuilt } from '../src/api/build-service.ts';
import { createKey, createOrg } from '../src/service/admin-commands.ts';
import { acquireLock } from '../src/service/data-dir-lock.ts';
import type { Config } from '../src/service/config.ts';
import { createPagesService } from '../src/service/pages/service.ts';
import { contentRootDir } from '../src/service/project-files.ts';
import type { Project, ProjectsService } from '../src/service/projects.ts';
import { SCOPES } from '../src/service/scopes.ts';
import { openStore } from '../src/service/store/json/index.ts';
import { startChild, stopChild } from './bench-child.ts';

const SIZES = [100, 1000, 5000];
const RESTARTS = Number(process.env.BENCH_RESTARTS ?? 3);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const CREATES = Number(process.env.BENCH_CREATES ?? 300);
const HEALTHZ = Number(process.env.BENCH_HEALTHZ ?? 2000);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

/** `count` sequential GET /healthz: what the same number of requests costs before any page work. */
async function httpFloor(base: string, count: number): Promise<number> {
  const [elapsed] = await timed(async () => {
    for (let i = 0; i < count; i++) await (await fetch(`${base}/healthz`)).text();
  });
  return elapsed;
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const result = await fn();
  return [performance.now() - start, result];
}

/** A realistic page: frontmatter, a heading, a few paragraphs and a code block (about 1.5 KB). */
function pageText(i: number): string {
  const para = `Paragraph about feature ${i}. `.repeat(12);
  return `---\ntitle: Page ${i}\ndescription: What page ${i} covers\norder: ${i}\n---\n# Page ${i}\n\n${para}\n\n\`\`\`bash\nnpm install acme-${i}\n\`\`\`\n\n${para}\n`;
}

/** Writes `count` pages into a content dir, 100 per folder. */
async function writePages(contentDir: string, count: number): Promise<void> {
  for (let folder = 0; folder * 100 < count; folder++) {
    const dir = path.join(contentDir, `section-${folder}`);
    await mkdir(dir, { recursive: true });
    const inFolder = Math.min(100, count - folder * 100);
    await Promise.all(Array.from({ length: inFolder }, (_, i) => writeFile(path.join(dir, `page-${i}.mdx`), pageText(folder * 100 + i))));
  }
}

/** Seeds a data dir through the store: one org and key, one API project per size plus one for creates. */
async function seed(dataDir: string): Promise<{ key: string; projects: Map<number, string>; createProject: string }> {
  const lock = await acquireLock(dataDir, 'admin');
  const store = await openStore(dataDir);
  const org = await createOrg(store, 'bench', 'business');
  const { key } = await createKey(store, org.id, [...SCOPES], 'bench');
  const newProject = async (slug: string) => {
    const id = crypto.randomUUID();
    await store.createProject({ id, org_id: org.id, name: slug, slug, status: 'pending', created_at: new Date().toISOString() });
    return id;
  };
  const projects = new Map<number, string>();
  for (const size of SIZES) {
    const id = await newProject(`pages-${size}`);
    await writePages(path.join(contentRootDir(dataDir, id), 'content'), size);
    projects.set(size, id);
  }
  const createProject = await newProject('creates');
  await store.close();
  await lock.release();
  return { key, projects, createProject };
}

async function startServer(dataDir: string): Promise<{ child: ChildProcess; base: string }> {
  const env = { PORT: '0', HOST: '127.0.0.1', FOLIO_DATA_DIR: dataDir, FOLIO_RATE_LIMITS: 'free=100000000,pro=100000000,business=100000000' };
  const { child, port } = await startChild(['src/server.ts'], env, /Folio listening on http:\/\/[^:]+:(\d+)/);
  return { child, base: `http://127.0.0.1:${port}` };
}

async function getJson(url: string, key: string): Promise<{ data: unknown[]; next_cursor: string | null }> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<{ data: unknown[]; next_cursor: string | null }>;
}

/** Lists every page of a project through the API, 100 at a time; returns the count. */
async function listAll(base: string, key: string, projectId: string): Promise<number> {
  let count = 0;
  let cursor: string | null = null;
  do {
    const page = await getJson(`${base}/v1/projects/${projectId}/pages?limit=100${cursor ? `&cursor=${cursor}` : ''}`, key);
    count += page.data.length;
    cursor = page.next_cursor;
  } while (cursor);
  return count;
}

/** The warm walk of listAll, in process against the pages service (median of RUNS, after one cold walk). */
async function inProcessWalk(dataDir: string, projectId: string, size: number): Promise<number> {
  const project: Project = { id: projectId, name: 'x', slug: 'x', status: 'pending', created_at: new Date().toISOString(), allow_code: false, previews: false, url: 'http://x.localhost:4321/' };
  const projects = { get: async () => project } as unknown as ProjectsService;
  const pages = createPagesService({ dataDir } as Config, projects);
  const walk = async () => {
    let count = 0;
    let cursor: string | undefined;
    do {
      const page = await pages.list('org', projectId, 100, cursor);
      JSON.stringify(page); // the serialisation an answer needs
      count += page.data.length;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    if (count !== size) throw new Error(`listed ${count} of ${size} pages in process`);
  };
  await walk();
  const runs: number[] = [];
  for (let run = 0; run < RUNS; run++) runs.push((await timed(walk))[0]);
  return median(runs);
}

/** Baseline: what the simplest code reading the same pages costs (glob, then read every file). */
async function rawGlobAndRead(contentDir: string): Promise<number> {
  const files = await fg('**/*.{md,mdx}', { cwd: contentDir });
  await Promise.all(files.map((f) => readFile(path.join(contentDir, f), 'utf8')));
  return files.length;
}

async function rawDurableWrite(dir: string, name: string, text: string): Promise<void> {
  const tmp = path.join(dir, `.${name}.tmp`);
  const handle = await open(tmp, 'w');
  await handle.writeFile(text);
  await handle.sync();
  await handle.close();
  await rename(tmp, path.join(dir, name));
  const folder = await open(dir, 'r');
  await folder.sync();
  await folder.close();
}

async function createPages(base: string, key: string, projectId: string, prefix: string, concurrency: number): Promise<number> {
  let next = 0;
  const worker = async () => {
    while (next < CREATES) {
      const i = next++;
      const body = JSON.stringify({ path: `${prefix}/page-${i}`, title: `Page ${i}`, description: 'Bench', content: pageText(i).replace(/^---[\s\S]*?---\n/, '') });
      const res = await fetch(`${base}/v1/projects/${projectId}/pages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body,
      });
      if (res.status !== 201) throw new Error(`POST: ${res.status} ${await res.text()}`);
    }
  };
  const [elapsed] = await timed(() => Promise.all(Array.from({ length: concurrency }, worker)));
  return (CREATES / elapsed) * 1000;
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.max(0, Math.ceil((p / 100) * values.length) - 1)]!;

/** Latencies of `count` sequential GET /healthz. */
async function healthzLatencies(base: string, count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push((await timed(async () => (await fetch(`${base}/healthz`)).text()))[0]);
  return out;
}

/** /healthz latency alone, then while two clients write pathological 2 MiB pages without pause. */
async function healthzUnderPathologicalWrites(base: string, key: string, projectId: string): Promise<void> {
  const quiet = await healthzLatencies(base, HEALTHZ);
  const body = JSON.stringify({ path: 'slow', title: 'Slow', content: '{'.repeat(2 * 1024 * 1024 - 1024) });
  const statuses = new Map<number, number>();
  let writing = true;
  let firstSent!: () => void;
  const sent = new Promise<void>((resolve) => (firstSent = resolve));
  const writer = async () => {
    while (writing) {
      const answer = fetch(`${base}/v1/projects/${projectId}/pages`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
      firstSent();
      const res = await answer;
      await res.text();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
  };
  const writers = [writer(), writer()];
  await sent;
  const busy = await healthzLatencies(base, HEALTHZ);
  writing = false;
  await Promise.all(writers);
  console.log('');
  console.log(`| GET /healthz, ${HEALTHZ} sequential | median | p99 | max |`);
  console.log('|---|---:|---:|---:|');
  console.log(`| quiet server | ${ms(median(quiet))} | ${ms(percentile(quiet, 99))} | ${ms(Math.max(...quiet))} |`);
  console.log(`| while 2 clients write 2 MiB pathological pages | ${ms(median(busy))} | ${ms(percentile(busy, 99))} | ${ms(Math.max(...busy))} |`);
  console.log(`Page writes answered meanwhile: ${[...statuses].map(([status, n]) => `${n} × ${status}`).join(', ')}`);
  const p99 = percentile(busy, 99);
  console.log(`Goal: /healthz p99 under 50 ms during pathological writes: ${ms(p99)} ${p99 < 50 ? 'met' : 'NOT met'}`);
}

async function main(): Promise<void> {
  await ensureServiceBuilt();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'folio-bench-pages-'));
  try {
    console.log(`Writing ${SIZES.join(', ')} pages…`);
    const { key, projects, createProject } = await seed(dataDir);
    const contentOf = (id: string) => path.join(contentRootDir(dataDir, id), 'content');

    const cold = new Map<number, number[]>(SIZES.map((s) => [s, []]));
    const warmRuns = new Map<number, number[]>(SIZES.map((s) => [s, []]));
    const floors = new Map<number, number[]>(SIZES.map((s) => [s, []]));
    for (let restart = 0; restart < RESTARTS; restart++) {
      const server = await startServer(dataDir);
      await httpFloor(server.base, 1);
      await getJson(`${server.base}/v1/projects`, key);
      for (const size of SIZES) {
        const [elapsed] = await timed(() => getJson(`${server.base}/v1/projects/${projects.get(size)}/pages?limit=100`, key));
        cold.get(size)!.push(elapsed);
      }
      if (restart === RESTARTS - 1) {
        for (const size of SIZES) {
          for (let run = 0; run < RUNS; run++) {
            const [elapsed, count] = await timed(() => listAll(server.base, key, projects.get(size)!));
            if (count !== size) throw new Error(`listed ${count} of ${size} pages`);
            warmRuns.get(size)!.push(elapsed);
            floors.get(size)!.push(await httpFloor(server.base, size / 100));
          }
        }
        console.log(`Creating ${CREATES} pages sequentially, then ${CREATES} 8 at a time…`);
        const sequential = await createPages(server.base, key, createProject, 'seq', 1);
        const parallel = await createPages(server.base, key, createProject, 'par', 8);
        console.log('Measuring /healthz, quiet and during pathological page writes…');
        try {
          await healthzUnderPathologicalWrites(server.base, key, createProject);
        } finally {
          await stopChild(server.child);
        }

        const rawDir = path.join(dataDir, 'raw-writes');
        await mkdir(rawDir);
        const [rawElapsed] = await timed(async () => {
          for (let i = 0; i < CREATES; i++) await rawDurableWrite(rawDir, `page-${i}.mdx`, pageText(i));
        });
        const rawRate = (CREATES / rawElapsed) * 1000;

        console.log('');
        console.log('| pages | cold: first list request (median) | warm: list all, limit=100 (median) | requests | per request | HTTP floor: as many GET /healthz | same walk in process, no HTTP | baseline: fast-glob + readFile all (median) | cold ÷ baseline | warm ÷ baseline |');
        console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
        for (const size of SIZES) {
          const base: number[] = [];
          for (let run = 0; run < RUNS; run++) base.push((await timed(() => rawGlobAndRead(contentOf(projects.get(size)!))))[0]);
          const c = median(cold.get(size)!);
          const w = median(warmRuns.get(size)!);
          const b = median(base);
          const f = median(floors.get(size)!);
          const inProcess = await inProcessWalk(dataDir, projects.get(size)!, size);
          console.log(`| ${size} | ${ms(c)} | ${ms(w)} | ${size / 100} | ${ms(w / (size / 100))} | ${ms(f)} | ${ms(inProcess)} | ${ms(b)} | ${(c / b).toFixed(2)} | ${(w / b).toFixed(2)} |`);
        }
        console.log('');
        console.log('| create | pages/s | baseline: raw durable write (temp + fsync + rename + dir fsync), pages/s | ÷ baseline |');
        console.log('|---|---:|---:|---:|');
        console.log(`| sequential | ${sequential.toFixed(0)} | ${rawRate.toFixed(0)} | ${(sequential / rawRate).toFixed(2)} |`);
        console.log(`| 8 at a time | ${parallel.toFixed(0)} | ${rawRate.toFixed(0)} | ${(parallel / rawRate).toFixed(2)} |`);
        const warm5k = median(warmRuns.get(5000)!);
        const cold5k = median(cold.get(5000)!);
        console.log('');
        console.log(`Goals: warm list of 5,000 < 50 ms: ${ms(warm5k)} ${warm5k < 50 ? 'met' : 'NOT met'}; cold < 1 s: ${ms(cold5k)} ${cold5k < 1000 ? 'met' : 'NOT met'}`);
      } else {
        await stopChild(server.child);
      }
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
