// `npm run soak -- [--iterations N] [--seed S]`: crash recovery under load. A real server (the
// built service, its own process) on a fresh data dir takes a mixed load (project creates, page
// creates/updates/deletes, deployments of API projects, reads) and is killed with SIGKILL at a
// random moment, N times (default 50), restarted each time. After every restart it checks:
//   - every acknowledged write is there (projects, deployments, each page's last acknowledged
//     content; a write in flight at the kill may or may not have landed, nothing else may show),
//   - every site that was live is still served (its Host header, 200 at /),
//   - the temporary files, snapshots, unfinished roots and empty folders the kill left are gone,
//     and no build dir belongs to a deployment that did not succeed,
//   - the store file is readable JSON.
// Prints the iterations survived and every violation; exits 1 when there is any.
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureServiceBuilt } from '../src/api/build-service.ts';
import { isTempFileName } from '../src/service/atomic-write.ts';
import { client, getWithHost, removeDir, startServer, tempDataDir, type TestServer } from '../test/helpers/server.ts';

const { values: args } = parseArgs({
  options: { iterations: { type: 'string', default: '50' }, seed: { type: 'string' } },
});
const ITERATIONS = Number(args.iterations);
if (!Number.isInteger(ITERATIONS) || ITERATIONS < 1) {
  console.error('--iterations must be a whole number of at least 1');
  process.exit(2);
}
const SEED = Number(args.seed ?? Math.floor(Math.random() * 2 ** 31));

/** mulberry32: a seeded generator, so a failing run can be repeated with --seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = rng(SEED);
const pick = <T>(xs: T[]): T => xs[Math.floor(random() * xs.length)];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A page's possible states: the last acknowledged one, and writes in flight at a kill. */
interface PageState {
  /** The acknowledged content, or null for "no page" (deleted, or never created). */
  acked: string | null;
  /** Outcomes of writes whose answer never came (the server died): each may have landed. */
  unknown: (string | null)[];
}

interface ProjectState {
  id: string;
  slug: string;
  pages: Map<string, PageState>;
  deployments: string[];
  /** A deployment of it was seen succeeded: its site must stay served. */
  live: boolean;
}

const projects: ProjectState[] = [];
const violations: string[] = [];
let acknowledged = 0;
let serial = 0;

/** Sends one request; undefined when the server died before answering. */
async function send(api: ReturnType<typeof client>, method: string, url: string, body?: unknown) {
  try {
    return await api(method, url, body === undefined ? {} : { body });
  } catch (err) {
    const text = `${(err as Error).message} ${String((err as Error).cause ?? '')}`;
    if (/fetch failed|terminated|ECONNRESET|ECONNREFUSED|socket|UND_ERR/i.test(text)) return undefined;
    violations.push(`${method} ${url}: ${(err as Error).message.split('\n')[0]}`);
    return undefined;
  }
}

/**
 * Sends one page write and records its outcome in `state`: acknowledged (`expected` status),
 * refused (a violation: the load only sends valid writes), or unknown (the server died first).
 */
async function pageWrite(state: PageState, value: string | null, expected: number, what: string, request: () => ReturnType<typeof send>): Promise<void> {
  state.unknown.push(value);
  const res = await request();
  if (!res) return;
  state.unknown = [];
  if (res.status === expected) {
    state.acked = value;
    acknowledged++;
  } else violations.push(`${what} answered ${res.status}: ${res.text}`);
}

/** One write of a page: a create, an update or a delete. */
async function writePage(api: ReturnType<typeof client>, project: ProjectState): Promise<void> {
  const settled = [...project.pages.keys()].filter((p) => project.pages.get(p)!.acked !== null && project.pages.get(p)!.unknown.length === 0);
  const deletable = settled.filter((p) => p !== 'index');
  const roll = random();
  const content = `Content ${++serial} of the soak.`;
  const pages = `/v1/projects/${project.id}/pages`;
  if ((roll < 0.45 && project.pages.size < 30) || settled.length === 0) {
    const pagePath = `${pick(['guides', 'api/v1', 'faq'])}/p${serial}`;
    const state: PageState = { acked: null, unknown: [] };
    project.pages.set(pagePath, state);
    await pageWrite(state, content, 201, 'page create', () => send(api, 'POST', pages, { path: pagePath, title: `Page ${serial}`, content }));
  } else if (roll < 0.85 || deletable.length === 0) {
    const pagePath = pick(settled);
    await pageWrite(project.pages.get(pagePath)!, content, 200, 'page update', () => send(api, 'PATCH', `${pages}/${pagePath}`, { content }));
  } else {
    const pagePath = pick(deletable);
    await pageWrite(project.pages.get(pagePath)!, null, 204, 'page delete', () => send(api, 'DELETE', `${pages}/${pagePath}`));
  }
}

async function createProject(api: ReturnType<typeof client>, busy = new Set<ProjectState>()): Promise<ProjectState | undefined> {
  const slug = `soak-${SEED.toString(36)}-${++serial}`;
  const res = await send(api, 'POST', '/v1/projects', { name: `Soak ${serial}`, slug });
  if (!res) return undefined; // in flight at the kill: it may exist, nothing is promised
  if (res.status !== 201) {
    violations.push(`project create answered ${res.status}: ${res.text}`);
    return undefined;
  }
  acknowledged++;
  const project: ProjectState = { id: res.body.id, slug, pages: new Map(), deployments: [], live: false };
  busy.add(project); // its index page comes first
  projects.push(project);
  const index: PageState = { acked: null, unknown: [] };
  project.pages.set('index', index);
  const body = { path: 'index', title: 'Home', content: 'Welcome to the soak.' };
  await pageWrite(index, body.content, 201, 'page create', () => send(api, 'POST', `/v1/projects/${project.id}/pages`, body));
  busy.delete(project);
  return project;
}

async function triggerDeployment(api: ReturnType<typeof client>, project: ProjectState): Promise<void> {
  const res = await send(api, 'POST', `/v1/projects/${project.id}/deployments`);
  if (!res) return;
  if (res.status !== 202) return void violations.push(`deployment trigger answered ${res.status}: ${res.text}`);
  acknowledged++;
  if (!project.deployments.includes(res.body.id)) project.deployments.push(res.body.id);
}

/** Notes which projects have a succeeded deployment (their sites must stay live). */
async function observeDeployments(api: ReturnType<typeof client>, project: ProjectState): Promise<void> {
  const res = await send(api, 'GET', `/v1/projects/${project.id}/deployments?limit=5`);
  if (res?.status === 200 && res.body.data.some((d: { status: string }) => d.status === 'succeeded')) project.live = true;
}

/**
 * Mixed load until `until` says so, from 4 workers. A project is worked on by one worker at a
 * time, so the writes of a page are ordered and each answer tells exactly which write it was.
 */
async function load(api: ReturnType<typeof client>, server: TestServer, until: () => boolean): Promise<void> {
  const busy = new Set<ProjectState>();
  const worker = async () => {
    while (!until() && server.process.exitCode === null) {
      const roll = random();
      const free = projects.filter((p) => !busy.has(p));
      if ((roll < 0.08 && projects.length < 12) || free.length === 0) {
        await createProject(api, busy);
        continue;
      }
      const project = pick(free);
      busy.add(project);
      if (roll < 0.7) await writePage(api, project);
      else if (roll < 0.78) await triggerDeployment(api, project);
      else if (roll < 0.88) await observeDeployments(api, project);
      else await send(api, 'GET', `/v1/projects/${project.id}/pages?limit=20`);
      busy.delete(project);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
}

/** What a kill leaves that the next start must remove (paths), and the empty folders under content. */
async function leftovers(dataDir: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (dir: string, inContent: boolean): Promise<number> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const abs = path.join(dir, entry.name);
      if (entry.isFile() && isTempFileName(entry.name)) found.push(abs);
      else if (entry.name.startsWith('.root-') || (entry.name.startsWith('live.') && entry.name.endsWith('.tmp'))) found.push(abs);
      else if (entry.isDirectory() && path.basename(dir) === 'snapshots') found.push(abs);
      else if (entry.isDirectory() && entry.name !== 'git' && entry.name !== 'builds') {
        const inside = await visit(abs, inContent || entry.name === 'content');
        if (inside === 0 && inContent) found.push(abs);
      }
    }
    return entries.length;
  };
  await visit(dataDir, false);
  return found;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(() => true, () => false);
}

/** The checks after a restart. */
async function check(iteration: number, server: TestServer, api: ReturnType<typeof client>, left: string[]): Promise<void> {
  const fail = (what: string) => void violations.push(`after kill ${iteration}: ${what}`);
  try {
    JSON.parse(await readFile(path.join(server.dataDir, 'folio.json'), 'utf8'));
  } catch (err) {
    fail(`the store file is not readable: ${(err as Error).message}`);
  }
  for (const file of left) if (await exists(file)) fail(`leftover not removed at start: ${path.relative(server.dataDir, file)}`);
  for (const project of projects) {
    const got = await send(api, 'GET', `/v1/projects/${project.id}`);
    if (got?.status !== 200) {
      fail(`acknowledged project ${project.slug} answered ${got?.status}`);
      continue;
    }
    const deployments = new Map<string, string>();
    let cursor: string | null = null;
    do {
      const list = await send(api, 'GET', `/v1/projects/${project.id}/deployments?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      for (const d of list?.body?.data ?? []) deployments.set(d.id, d.status);
      cursor = list?.body?.next_cursor ?? null;
    } while (cursor);
    for (const id of project.deployments) if (!deployments.has(id)) fail(`acknowledged deployment ${id} of ${project.slug} is missing`);
    // A deployment that succeeded before the kill made a site that must be served from now on.
    if ([...deployments.values()].includes('succeeded')) project.live = true;
    const builds = await readdir(path.join(server.dataDir, 'projects', project.id, 'builds')).catch(() => [] as string[]);
    for (const build of builds) {
      const status = deployments.get(build);
      if (status !== 'succeeded' && status !== 'building' && status !== 'queued') fail(`build dir of ${status ?? 'unknown'} deployment ${build} of ${project.slug} stayed`);
    }
    for (const [pagePath, state] of project.pages) {
      const res = await send(api, 'GET', `/v1/projects/${project.id}/pages/${pagePath}`);
      if (!res) {
        fail('the server died during the checks');
        return;
      }
      const now = res.status === 200 ? (res.body.content as string) : res.status === 404 ? null : undefined;
      if (now === undefined || (now !== state.acked && !state.unknown.includes(now))) {
        fail(`page ${project.slug}/${pagePath} is ${JSON.stringify(now)}, acknowledged ${JSON.stringify(state.acked)}`);
      }
      // From here on the page is what it is now.
      state.acked = now ?? null;
      state.unknown = [];
    }
    if (project.live) {
      const site = await getWithHost(server.url, '/', `${project.slug}.localhost`, {}, 'a site host').catch((err: Error) => ({ status: 0, text: err.message }));
      if (site.status !== 200) fail(`the live site of ${project.slug} answered ${site.status}`);
    }
  }
}

async function main(): Promise<number> {
  await ensureServiceBuilt();
  const dataDir = await tempDataDir();
  console.log(`soak: ${ITERATIONS} kill(s), seed ${SEED}, data dir ${dataDir}`);
  let server = await startServer({ dataDir });
  const key = server.defaultKey!;
  let api = client(server.url, key);
  const started = Date.now();
  let survived = 0;
  try {
    // A few live sites first, so there is something that must stay served through the kills.
    for (let i = 0; i < 2; i++) {
      const project = await createProject(api);
      if (project) await triggerDeployment(api, project);
    }
    for (let t = 0; t < 600 && projects.some((p) => !p.live); t++) {
      for (const project of projects) await observeDeployments(api, project);
      await sleep(200);
    }
    for (let iteration = 1; iteration <= ITERATIONS; iteration++) {
      const deadline = Date.now() + 300 + random() * 2_700;
      const running = load(api, server, () => Date.now() >= deadline);
      await sleep(deadline - Date.now());
      server.process.kill('SIGKILL'); // while requests are in flight
      await running;
      await server.exited;
      const left = await leftovers(dataDir);
      try {
        server = await startServer({ dataDir });
      } catch (err) {
        violations.push(`after kill ${iteration}: the server did not start again: ${(err as Error).message}`);
        break;
      }
      api = client(server.url, key);
      const before = violations.length;
      await check(iteration, server, api, left);
      if (violations.length === before) survived++;
      const live = projects.filter((p) => p.live).length;
      console.log(`soak: kill ${iteration}/${ITERATIONS} ${violations.length === before ? 'ok' : 'VIOLATED'} (${projects.length} projects, ${live} live, ${acknowledged} acknowledged writes, ${left.length} leftovers removed)`);
    }
  } finally {
    await server.stop();
    await removeDir(dataDir);
  }
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  console.log(`soak: ${survived}/${ITERATIONS} iterations survived in ${minutes} min; ${acknowledged} acknowledged writes; ${projects.filter((p) => p.live).length} live sites; ${violations.length} violation(s)`);
  for (const violation of violations) console.log(`violation: ${violation}`);
  return violations.length === 0 ? 0 : 1;
}

process.exitCode = await main();
