// Folio on several machines, on one machine (content/operating/several-machines.mdx): two api+sites
// nodes (A, B) and two worker nodes sharing one PostgreSQL database, each with its own data dir.
// Real server processes speak HTTP; builds clone real repositories over file://. A worker killed
// with SIGKILL mid-build leaves its deployment to the lease (FOLIO_BUILD_LEASE_S, short here):
// another node ends it `interrupted` and the other worker builds the next one; a cancel answered
// by an API node stops a build running on a worker. Pages, docs.json and snippets written through
// one node are read, changed and built on the others. Rate limits are exact across nodes whether
// PostgreSQL or Redis (FOLIO_REDIS_URL) counts them, the sites' MCP limit too, and the console's
// usage chart shows the requests both nodes answered.
import http from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { repoHost, type RepoHost } from '../helpers/git-repos.ts';
import { articleOf, latestDeployment, waitForDeployment } from '../helpers/deployments.ts';
import { consoleRequest, PASSWORD, sessionCookie } from '../helpers/console.ts';
import { createTestDatabase } from '../helpers/postgres.ts';
import { MCP_REQUESTS_PER_MINUTE } from '../../src/hosting/serve-site.ts';
import { startRedis, type TestRedis } from '../helpers/redis.ts';
import { createTestBucket, S3_CREDENTIALS } from '../helpers/s3.ts';
import { ADMIN, client, getWithHost, pinnedClock, removeDir, request, runNode, startServer, tempDataDir, uniqueSlug, type TestServer } from '../helpers/server.ts';

const LIMIT = 30;
let databaseUrl: string;
let storageUrl: string;
let host: RepoHost;
const dirs = new Map<string, string>();
const nodes = new Map<string, TestServer>();
let key: string;
let redis: TestRedis | undefined;
/** One instant for every node's rate-limit clock: bursts across nodes fall in one window. */
const clock = pinnedClock();

/** Starts (or restarts, on the same data dir) the node `name` with the given roles. */
async function startNode(name: string, roles: string, env: Record<string, string> = {}): Promise<TestServer> {
  let dir = dirs.get(name);
  if (!dir) dirs.set(name, (dir = await tempDataDir()));
  const server = await startServer({
    dataDir: dir,
    env: {
      ...S3_CREDENTIALS,
      FOLIO_DATABASE_URL: databaseUrl,
      // Builds reach the serving nodes through object storage: no node reads another's data dir.
      FOLIO_STORAGE_URL: storageUrl,
      FOLIO_ROLES: roles,
      FOLIO_GIT_URL: host.gitUrl,
      FOLIO_BUILD_LEASE_S: '3',
      // Pro limited to LIMIT a minute, for the exact count across A and B.
      FOLIO_RATE_LIMITS: `free=1000000,pro=${LIMIT},business=1000000`,
      ...clock,
      ...env,
    },
  });
  nodes.set(name, server);
  return server;
}
const node = (name: string) => nodes.get(name)!;
const api = (name: string) => client(node(name).url, key);

beforeAll(async () => {
  databaseUrl = await createTestDatabase(inject('postgresUrl'));
  storageUrl = `s3://${await createTestBucket(inject('s3Endpoint'))}/sites?endpoint=${inject('s3Endpoint')}`;
  host = repoHost();
  // A and one Redis node also serve the console: its usage chart shows what both nodes counted.
  const a = await startNode('a', 'api,sites,console');
  key = a.defaultKey!;
  redis = await startRedis();
  // Two more API nodes count rate limits in Redis instead of PostgreSQL.
  await Promise.all([
    startNode('b', 'api,sites'), startNode('worker-1', 'worker'), startNode('worker-2', 'worker'),
    startNode('redis-a', 'api,console', { FOLIO_REDIS_URL: redis.url }), startNode('redis-b', 'api', { FOLIO_REDIS_URL: redis.url }),
  ]);
});

afterAll(async () => {
  await Promise.all([...nodes.values()].map((s) => s.stop()));
  for (const dir of dirs.values()) await removeDir(dir);
  host?.remove();
  await redis?.stop();
});

/** A JSON-RPC ping to a site's MCP server on one node; its HTTP status. */
function mcpPing(base: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/mcp`, { method: 'POST', headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
  });
}

/** The node whose process holds a deployment's build lease (the lease owner names its pid). */
async function builder(deploymentId: string): Promise<string | undefined> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ lease_owner: string | null }>("SELECT lease_owner FROM deployments WHERE id = $1 AND status = 'building'", [deploymentId]);
    const pid = rows[0]?.lease_owner?.split('/')[1];
    return [...nodes].find(([, server]) => String(server.process.pid) === pid)?.[0];
  } finally {
    await db.end();
  }
}

/** Waits until a worker builds the deployment; returns that node's name. */
async function waitForBuilder(deploymentId: string): Promise<string> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const name = await builder(deploymentId);
    if (name) return name;
    if (Date.now() > deadline) throw new Error(`no worker started building deployment ${deploymentId}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('two api+sites nodes and two workers on one database', () => {
  it('splits the roles: only the API nodes answer /v1, a worker answers /healthz only', async () => {
    expect((await request(node('worker-1').url, 'GET', '/healthz')).status).toBe(200);
    const refused = await request(node('worker-1').url, 'GET', '/v1/projects', { key, outsideContract: 'a node without the api role answers no API route' });
    expect(refused.status).toBe(404);
    expect(refused.body.message).toContain('does not serve the api role (FOLIO_ROLES=worker)');
    expect((await api('b')('GET', '/v1/projects')).status).toBe(200);
  });

  it('gives exactly one 201 to concurrent creates of one slug across A and B', async () => {
    const slug = uniqueSlug('race');
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      api(i % 2 ? 'a' : 'b')('POST', '/v1/projects', { body: { name: `Race ${i}`, slug } })));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 409 && r.body.error === 'slug_taken')).toHaveLength(19);
  });

  it.each([
    { counter: 'PostgreSQL', nodes: ['a', 'b'] },
    { counter: 'Redis', nodes: ['redis-a', 'redis-b'] },
  ])('counts a rate limit exactly across two nodes under parallel requests ($counter)', async ({ counter, nodes: [first, second] }) => {
    let dir = dirs.get('cli');
    if (!dir) dirs.set('cli', (dir = await tempDataDir()));
    const env = { FOLIO_DATABASE_URL: databaseUrl, FOLIO_DATA_DIR: dir };
    const org = `limited-${counter.toLowerCase()}`;
    expect((await runNode(ADMIN, ['org', 'create', org, '--plan', 'pro'], env)).code).toBe(0);
    const limited = JSON.parse((await runNode(ADMIN, ['key', 'create', '--org', org, '--json'], env)).stdout).key;
    const answers = await Promise.all(Array.from({ length: LIMIT + 20 }, (_, i) =>
      request(node(i % 2 ? first! : second!).url, 'GET', '/v1/projects', { key: limited })));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(LIMIT);
    const refused = answers.filter((r) => r.status === 429);
    expect(refused).toHaveLength(20);
    expect(refused.every((r) => r.body.error === 'rate_limited' && Number(r.headers.get('retry-after')) >= 1)).toBe(true);
    const remaining = answers.filter((r) => r.status === 200).map((r) => Number(r.headers.get('x-ratelimit-remaining')));
    expect(remaining.sort((x, y) => x - y)).toEqual(Array.from({ length: LIMIT }, (_, i) => i));
    expect(answers.every((r) => r.headers.get('x-ratelimit-limit') === String(LIMIT))).toBe(true);
    expect(new Set(answers.map((r) => r.headers.get('x-ratelimit-reset'))).size).toBe(1);
    // The organization's usage chart, on the first node's console, counts what both nodes answered.
    const link = (await runNode(ADMIN, ['user', 'create', '--org', org, '--email', `owner@${org}.example`, '--role', 'owner'], env)).stdout.trim().split('\n').at(-1)!;
    const signedIn = await consoleRequest(node(first!), 'POST', new URL(link).pathname, { form: { password: PASSWORD, confirm: PASSWORD } });
    const session = sessionCookie(signedIn)!.value;
    const chart = await consoleRequest(node(first!), 'GET', '/settings/organization', { session });
    expect(chart.status).toBe(200);
    expect(chart.text).toMatch(new RegExp(`In the last hour: ${LIMIT} API requests, at most ${LIMIT} in a minute`));
    expect(chart.text).toMatch(/1 minute reached it, and requests over it were refused/);
    if (counter === 'Redis') {
      // The Redis nodes counted in Redis, not in PostgreSQL.
      const db = new pg.Client({ connectionString: databaseUrl });
      await db.connect();
      const { rows } = await db.query("SELECT 1 FROM rate_limit_windows w JOIN orgs o ON w.bucket = 'org:' || o.id WHERE o.name = $1", [org]).finally(() => db.end());
      expect(rows).toHaveLength(0);
      await Promise.all([first!, second!].map(async (name) => {
        expect(await node(name).stop()).toBe(0);
        nodes.delete(name);
      }));
    }
  });

  it('keeps pages, docs.json and snippets written through one node for all: read and changed on B, built by a worker, served by B', async () => {
    const created = await api('a')('POST', '/v1/projects', { body: { name: 'Written', slug: uniqueSlug('written') } });
    expect(created.status).toBe(201);
    const project = created.body;
    const base = `/v1/projects/${project.id}`;
    expect((await api('a')('PUT', `${base}/snippets/note.mdx`, { body: { content: 'Shared through the database.\n' } })).status).toBe(201);
    expect((await api('a')('POST', `${base}/pages`, { body: { path: 'index', title: 'Home', content: 'Written on node A.\n\n<Snippet file="note.mdx" />\n' } })).status).toBe(201);
    expect((await api('a')('POST', `${base}/pages`, { body: { path: 'guides/setup', title: 'Setup', content: 'Draft.\n' } })).status).toBe(201);
    expect((await api('a')('POST', `${base}/pages`, { body: { path: 'old', title: 'Old', content: 'Going.\n' } })).status).toBe(201);
    expect((await api('a')('PUT', `${base}/docs-json`, { body: { name: 'Written Docs' } })).status).toBe(201);

    // Node B reads what A wrote; what B changes, A reads.
    const onB = await api('b')('GET', `${base}/pages/index`);
    expect(onB.status).toBe(200);
    expect(onB.body.content).toContain('Written on node A.');
    expect(onB.body.updated_at).toBe((await api('a')('GET', `${base}/pages/index`)).body.updated_at);
    expect((await api('b')('GET', `${base}/docs-json`)).body.content).toEqual({ name: 'Written Docs' });
    expect((await api('b')('GET', `${base}/snippets/note.mdx`)).body.content).toBe('Shared through the database.\n');
    expect((await api('b')('PATCH', `${base}/pages/guides/setup`, { body: { content: 'Edited on node B.\n' } })).status).toBe(200);
    expect((await api('a')('GET', `${base}/pages/guides/setup`)).body.content).toBe('Edited on node B.\n');
    expect((await api('b')('DELETE', `${base}/pages/old`)).status).toBe(204);
    expect((await api('a')('GET', `${base}/pages/old`)).status).toBe(404);
    // A create on B of a page A made is refused: the check sees every node's pages; so are all but
    // one of concurrent creates of one path across A and B.
    expect((await api('b')('POST', `${base}/pages`, { body: { path: 'index', title: 'Again', content: 'Twice.\n' } })).status).toBe(409);
    const racing = await Promise.all(Array.from({ length: 6 }, (_, i) =>
      api(i % 2 ? 'a' : 'b')('POST', `${base}/pages`, { body: { path: 'race', title: `Race ${i}`, content: 'Raced.\n' } })));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect((await api('b')('DELETE', `${base}/pages/race`)).status).toBe(204);
    const listed = await api('a')('GET', `${base}/pages`);
    expect(listed.body.data.map((p: { path: string }) => p.path)).toEqual(['guides/setup', 'index']);

    // Built by a worker (A and B have no worker role), served by B.
    const deployment = await api('b')('POST', `${base}/deployments`);
    expect(deployment.status).toBe(202);
    expect((await waitForDeployment(api('a'), project.id, deployment.body.id)).status).toBe('succeeded');
    const page = (address: string) => getWithHost(node('b').url, address, `${project.slug}.localhost`, {}, 'a site host');
    await expect.poll(async () => (await page('/')).status, { timeout: 20_000 }).toBe(200);
    const home = (await page('/')).text;
    expect(articleOf(home)).toContain('Written on node A.');
    expect(articleOf(home)).toContain('Shared through the database.');
    expect(home).toContain('Written Docs');
    expect(articleOf((await page('/guides/setup')).text)).toContain('Edited on node B.');
    expect((await page('/old')).status).toBe(404);

    // The site's MCP server counts one budget per client address across A and B, in the shared
    // limiter: of a burst sent to both, exactly MCP_REQUESTS_PER_MINUTE are answered.
    await expect.poll(async () => (await getWithHost(node('a').url, '/', `${project.slug}.localhost`, {}, 'a site host')).status, { timeout: 20_000 }).toBe(200);
    const pings = await Promise.all(Array.from({ length: MCP_REQUESTS_PER_MINUTE + 20 }, (_, i) => mcpPing(node(i % 2 ? 'a' : 'b').url, `${project.slug}.localhost`)));
    expect(pings.filter((status) => status === 200)).toHaveLength(MCP_REQUESTS_PER_MINUTE);
    expect(pings.filter((status) => status === 429)).toHaveLength(20);
  }, 120_000);

  it('ends the deployment of a worker killed mid-build `interrupted` within the lease, and the other worker builds the next one', async () => {
    const repo = host.repo('acme', 'multi');
    repo.commit({ 'content/index.mdx': '# Several machines\n\nBuilt by a worker.\n' });
    const project = (await api('a')('POST', '/v1/projects', { body: { name: 'Multi', slug: uniqueSlug('multi'), source_repo: repo.slug } })).body;
    // Connecting the repository queued the first deployment; a worker claims it at once (LISTEN).
    const first = await latestDeployment(api('a'), project.id);
    const victim = await waitForBuilder(first.id);
    expect(victim).toMatch(/^worker-/);
    node(victim).process.kill('SIGKILL');
    await node(victim).exited;
    nodes.delete(victim);

    // Node B (not the dead worker, which cannot) sees it end once the lease runs out.
    const ended = await waitForDeployment(api('b'), project.id, first.id);
    expect(ended).toMatchObject({ status: 'failed', error: { code: 'interrupted' } });
    expect((await api('a')('GET', `/v1/projects/${project.id}`)).body.status).toBe('failed');

    const next = await api('b')('POST', `/v1/projects/${project.id}/deployments`);
    expect(next.status).toBe(202);
    expect((await waitForDeployment(api('a'), project.id, next.body.id)).status).toBe('succeeded');
    expect((await api('b')('GET', `/v1/projects/${project.id}`)).body.status).toBe('active');
    // Created on A, built by a worker, served by B (which built nothing): through object storage.
    const page = () => getWithHost(node('b').url, '/', `${project.slug}.localhost`, {}, 'a site host');
    await expect.poll(async () => (await page()).status, { timeout: 20_000 }).toBe(200);
    expect(articleOf((await page()).text)).toContain('Built by a worker.');

    // A cancel answered by node A stops the build running on the worker at once: its log says so.
    repo.commit({ 'content/index.mdx': '# Several machines\n\nCanceled.\n' });
    const doomed = (await api('b')('POST', `/v1/projects/${project.id}/deployments`)).body;
    const worker = await waitForBuilder(doomed.id);
    const canceled = await api('a')('POST', `/v1/projects/${project.id}/deployments/${doomed.id}/cancel`);
    expect(canceled.status).toBe(200);
    expect(canceled.body.status).toBe('canceled');
    // Read through the API: with object storage the worker's own copy of the log goes once it is
    // closed and copied, so a read of the worker's file could come after it went.
    expect(worker).toMatch(/^worker-/);
    await expect.poll(async () => (await api('b')('GET', `/v1/projects/${project.id}/deployments/${doomed.id}/log`)).text, { timeout: 60_000 }).toContain('canceled: the deployment was stopped by a client');
    expect((await waitForDeployment(api('b'), project.id, doomed.id)).status).toBe('canceled');
    expect((await api('b')('GET', `/v1/projects/${project.id}`)).body.status).toBe('active');
  }, 240_000); // three real builds and a lease running out, on a machine the other test files load too

  it('loses nothing when a node is killed and restarted; the admin CLI works on the database with no server running', async () => {
    const created = await api('a')('POST', '/v1/projects', { body: { name: 'Kept', slug: uniqueSlug('kept') } });
    expect(created.status).toBe(201);
    // Killed right after the answer: what it acknowledged is in the database.
    node('a').process.kill('SIGKILL');
    await node('a').exited;
    expect((await api('b')('GET', `/v1/projects/${created.body.id}`)).body.name).toBe('Kept');
    for (const name of [...nodes.keys()].filter((n) => n !== 'a')) {
      expect(await node(name).stop()).toBe(0);
      nodes.delete(name);
    }
    // No node runs now: the CLI edits the database directly.
    const cli = await runNode(ADMIN, ['key', 'create', '--org', 'default', '--scopes', 'projects:read', '--json'], { FOLIO_DATABASE_URL: databaseUrl, FOLIO_DATA_DIR: dirs.get('cli')! });
    expect(cli.code).toBe(0);
    const readOnly = JSON.parse(cli.stdout).key;

    const restarted = await startNode('a', 'api,sites');
    expect(restarted.defaultKey).toBeUndefined(); // the same organizations: no new default key
    const got = await api('a')('GET', `/v1/projects/${created.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body.name).toBe('Kept');
    const listed = await request(restarted.url, 'GET', '/v1/projects?limit=100', { key: readOnly });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((p: { id: string }) => p.id)).toContain(created.body.id);
  });
});
