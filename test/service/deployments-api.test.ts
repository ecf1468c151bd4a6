// Deployments over HTTP against the real server with real git repositories over file:// and real
// site builds (docs/decisions.md#projects status, §8, §4 scopes; issue 4).
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articleOf, deploy, latestDeployment, startDeployingServer, waitForDeployment, type DeployingServer } from '../helpers/deployments.ts';
import type { RepoHost, TestRepo } from '../helpers/git-repos.ts';
import { client, getWithHost, orgWithKey, uniqueSlug, type Json, type TestServer } from '../helpers/server.ts';

let fixture: DeployingServer;
let server: TestServer;
let host: RepoHost;
let api: ReturnType<typeof client>;
let other: ReturnType<typeof client>;
let docs: TestRepo;
/** The project connected to `acme/docs` at creation, deployed by the first tests. */
let project: { id: string; slug: string; url: string };

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const page = (title: string, text: string) => `# ${title}\n\n${text}\n`;
const site = (slug: string, urlPath = '/') => getWithHost(server.url, urlPath, `${slug}.localhost`);

beforeAll(async () => {
  // Few kept builds, so the test below sees pruning after a handful of deployments.
  fixture = await startDeployingServer({ FOLIO_KEEP_BUILDS: '3' });
  ({ server, host, api } = fixture);
  docs = host.repo('acme', 'docs');
  docs.commit({ 'docs.json': JSON.stringify({ name: 'Acme Docs' }), 'content/index.mdx': page('Welcome', 'Version one of the docs.') });
  docs.commit({ 'content/index.mdx': page('Welcome', 'The other branch.') }, 'other');
  // A file large enough that the sync's fetch takes seconds, for the disconnect below to land while
  // it runs, before the sync checks its files out. Committed before this process sends a request:
  // the commit blocks it for seconds, past the server's keep-alive, and a request sent right after
  // could reuse a connection the server closed meanwhile.
  host.repo('acme', 'big').commit({ 'docs.json': JSON.stringify({ name: 'Big' }), 'content/index.mdx': page('Big', 'From the repository.'), 'blobs/noise.txt': randomBytes(15_000_000).toString('base64') });
  other = client(server.url, (await orgWithKey(server.dataDir, 'other-org')).key);
});
afterAll(() => fixture.close());

describe('connecting a repository', () => {
  it('queues a connect deployment at create; the project goes pending → building → active and the page is served', async () => {
    const slug = uniqueSlug('acme');
    const created = await api('POST', '/v1/projects', { body: { name: 'Acme', slug, source_repo: docs.slug } });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('pending');
    project = { id: created.body.id, slug, url: created.body.url };

    const first = await latestDeployment(api, project.id);
    expect(first).toMatchObject({ project_id: project.id, trigger: 'connect', url: project.url });
    expect(['queued', 'building']).toContain(first.status);
    expect(first.created_at).toMatch(ISO_MS);

    // Watch the project's status while the deployment runs.
    const seen = new Set<string>([created.body.status]);
    for (let deployment = first; deployment.status === 'queued' || deployment.status === 'building';) {
      seen.add((await api('GET', `/v1/projects/${project.id}`)).body.status);
      deployment = (await api('GET', `/v1/projects/${project.id}/deployments/${first.id}`)).body;
    }
    const done = await waitForDeployment(api, project.id, first.id);
    expect(done).toMatchObject({ status: 'succeeded', source_branch: 'main', page_count: 1 });
    expect(done.commit_sha).toMatch(/^[0-9a-f]{40}$/);
    expect(done.started_at).toMatch(ISO_MS);
    expect(done.finished_at).toMatch(ISO_MS);
    expect(done.error).toBeUndefined();
    expect(seen).toContain('building');

    const after = (await api('GET', `/v1/projects/${project.id}`)).body;
    expect(after).toMatchObject({ status: 'active', source_branch: 'main', last_deploy_at: done.finished_at });

    const res = await site(slug);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(articleOf(res.text)).toContain('Version one of the docs.');
  });

  it('serves the log as text/plain: sync, build and publish steps', async () => {
    const deployment = await latestDeployment(api, project.id);
    const res = await api('GET', `/v1/projects/${project.id}/deployments/${deployment.id}/log`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.text).toMatch(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z sync: /m);
    expect(res.text).toContain(`main is at commit ${deployment.commit_sha}`);
    expect(res.text).toContain(`publish: live at ${project.url}`);
    // Each step's seconds, named in order (docs/architecture.md#a-deployment), just before the publish line.
    expect(res.text).toMatch(/Z timings: sync [\d.]+ s, snapshot [\d.]+ s, plan [\d.]+ s, check [\d.]+ s, (.+, )?astro [\d.]+ s, (.+, )?pagefind [\d.]+ s, output [\d.]+ s, (.+, )?build other [\d.]+ s, publish [\d.]+ s, content root [\d.]+ s\n\S+ publish: live at /);
    expect(res.text).not.toContain(server.dataDir); // no server paths
  });

  it('a second commit and a manual trigger make the new content live and advance last_deploy_at', async () => {
    const before = (await api('GET', `/v1/projects/${project.id}`)).body.last_deploy_at;
    const sha = docs.commit({ 'content/index.mdx': page('Welcome', 'Version two of the docs.'), 'content/guide.mdx': page('Guide', 'A guide.') });
    const done = await deploy(api, project.id);
    expect(done).toMatchObject({ status: 'succeeded', trigger: 'manual', commit_sha: sha, page_count: 2 });
    const after = (await api('GET', `/v1/projects/${project.id}`)).body;
    expect(after.last_deploy_at > before).toBe(true);
    expect(articleOf((await site(project.slug)).text)).toContain('Version two of the docs.');
    const guide = (await site(project.slug, '/guide')).text;
    expect(articleOf(guide)).toContain('A guide.');
    // The page's last commit, from git; no "Edit this page" for a repository not on GitHub or GitLab.
    expect(guide).toMatch(/class="last-updated">Last updated <time datetime="\d{4}-\d{2}-\d{2}T[^"]+">[A-Z][a-z]+ \d{1,2}, \d{4}<\/time>/);
    expect(guide).not.toContain('Edit this page');
  });

  it('a broken commit fails with file and line in the error and log; the old site stays live and the project active', async () => {
    docs.commit({ 'content/broken.mdx': '# Broken\n\n<ApiMethod method="FETCH" />\n' });
    const done = await deploy(api, project.id);
    expect(done.status).toBe('failed');
    expect(done.error.code).toBe('build_failed');
    expect(done.error.message).toMatch(/content\/broken\.mdx:3:\d+: .*FETCH/);
    const log = await api('GET', `/v1/projects/${project.id}/deployments/${done.id}/log`);
    expect(log.text).toMatch(/content\/broken\.mdx:3:\d+: .*FETCH/);
    expect((await api('GET', `/v1/projects/${project.id}`)).body.status).toBe('active');
    expect(articleOf((await site(project.slug)).text)).toContain('Version two of the docs.');
    // The pages API shows the commit the deployment synced, built or not.
    const synced = await api('GET', `/v1/projects/${project.id}/pages/broken`);
    expect(synced.status).toBe(200);
    expect(synced.body.content).toContain('<ApiMethod method="FETCH" />');
    docs.commit({ 'content/broken.mdx': null });
  });

  it('switching the branch by PATCH deploys that branch on the next trigger', async () => {
    const patched = await api('PATCH', `/v1/projects/${project.id}`, { body: { source_branch: 'other' } });
    expect(patched.status).toBe(200);
    const done = await deploy(api, project.id);
    expect(done).toMatchObject({ status: 'succeeded', source_branch: 'other' });
    expect(articleOf((await site(project.slug)).text)).toContain('The other branch.');
    await api('PATCH', `/v1/projects/${project.id}`, { body: { source_branch: 'main' } });
  });

  it('ignores X-Forwarded-Host (serving on a verified custom domain: test/service/custom-domains.test.ts)', async () => {
    const spoofed = await getWithHost(server.url, '/', '127.0.0.1', { 'x-forwarded-host': `${project.slug}.localhost` });
    expect(spoofed.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('fails the first deployment of a broken repository (project failed), then goes active once fixed', async () => {
    const repo = host.repo('acme', 'first-broken');
    repo.commit({ 'content/index.mdx': '# Hi\n\n<ApiMethod method="nope" />\n' });
    const created = await api('POST', '/v1/projects', { body: { name: 'Broken', slug: uniqueSlug('broken'), source_repo: repo.slug } });
    const failed = await waitForDeployment(api, created.body.id, (await latestDeployment(api, created.body.id)).id);
    expect(failed).toMatchObject({ status: 'failed', trigger: 'connect', error: { code: 'build_failed' } });
    const p = (await api('GET', `/v1/projects/${created.body.id}`)).body;
    expect(p.status).toBe('failed');
    expect(p.last_deploy_at).toBeUndefined();
    expect((await site(created.body.slug)).status).toBe(404);

    repo.commit({ 'content/index.mdx': '# Hi\n\n<ApiMethod method="get" /> fixed\n' });
    expect((await deploy(api, created.body.id)).status).toBe('succeeded');
    expect((await api('GET', `/v1/projects/${created.body.id}`)).body.status).toBe('active');
  });

  it('connecting by PATCH queues a connect deployment; an unknown repository fails sync_failed without server paths', async () => {
    const created = await api('POST', '/v1/projects', { body: { name: 'Later', slug: uniqueSlug('later') } });
    expect((await api('GET', `/v1/projects/${created.body.id}/deployments`)).body.data).toEqual([]);
    await api('PATCH', `/v1/projects/${created.body.id}`, { body: { source_repo: 'acme/missing' } });
    const deployment = await latestDeployment(api, created.body.id);
    expect(deployment.trigger).toBe('connect');
    const done = await waitForDeployment(api, created.body.id, deployment.id);
    expect(done).toMatchObject({ status: 'failed', error: { code: 'sync_failed' } });
    expect(done.error.message).not.toContain(host.base);
    expect((await api('GET', `/v1/projects/${created.body.id}`)).body.status).toBe('failed');
  });
});

describe('untrusted repositories', () => {
  it('a symlink to a file outside the repository fails the sync and leaks nothing', async () => {
    const secretFile = path.join(host.base, 'secret.txt');
    await writeFile(secretFile, 'TOP-SECRET-VALUE-42');
    const repo = host.repo('evil', 'links');
    repo.commit({ 'content/index.mdx': page('Hi', 'Hello.'), 'content/leak.mdx': { symlink: secretFile }, 'public/leak.txt': { symlink: secretFile } });
    const created = await api('POST', '/v1/projects', { body: { name: 'Evil', slug: uniqueSlug('evil'), source_repo: repo.slug } });
    const done = await waitForDeployment(api, created.body.id, (await latestDeployment(api, created.body.id)).id);
    expect(done.status).toBe('failed');
    expect(done.error.code).toBe('sync_failed');
    expect(done.error.message).toMatch(/content\/leak\.mdx is a symbolic link/);
    const log = await api('GET', `/v1/projects/${created.body.id}/deployments/${done.id}/log`);
    expect(log.text).not.toContain('TOP-SECRET');
    for (const urlPath of ['/', '/leak', '/leak.txt']) {
      const res = await site(created.body.slug, urlPath);
      expect(res.status).toBe(404);
      expect(res.text).not.toContain('TOP-SECRET');
    }
    // Nothing of the checkout was written: the content root does not exist.
    expect(existsSync(path.join(server.dataDir, 'projects', created.body.id, 'root'))).toBe(false);
  });
});

describe('projects without a repository', () => {
  it('an empty content root fails no_pages; a page written through the pages API then deploys and is served', async () => {
    const created = await api('POST', '/v1/projects', { body: { name: 'API docs', slug: uniqueSlug('apidocs') } });
    const empty = await deploy(api, created.body.id);
    expect(empty).toMatchObject({ status: 'failed', error: { code: 'no_pages' } });
    expect(empty.commit_sha).toBeUndefined();
    expect((await api('GET', `/v1/projects/${created.body.id}`)).body.status).toBe('failed');

    const written = await api('POST', `/v1/projects/${created.body.id}/pages`, { body: { path: 'index', title: 'Made by API', content: 'Written through the pages API.\n' } });
    expect(written.status).toBe(201);
    // Page writes are live after the next deployment, not before.
    expect((await site(created.body.slug)).status).toBe(404);
    const done = await deploy(api, created.body.id);
    expect(done).toMatchObject({ status: 'succeeded', page_count: 1 });
    const res = await site(created.body.slug);
    expect(res.status).toBe(200);
    expect(res.text).toContain('Made by API');
    expect(articleOf(res.text)).toContain('Written through the pages API.');
  });
});

describe('disconnecting a repository while its deployment runs', () => {
  it('after its sync: the pages API takes over the commit that deployment synced, not the one before', async () => {
    const moving = host.repo('acme', 'moving');
    moving.commit({ 'docs.json': JSON.stringify({ name: 'Moving' }), 'content/index.mdx': page('Moving', 'Version one.') });
    const created = await api('POST', '/v1/projects', { body: { name: 'Moving', slug: uniqueSlug('moving'), source_repo: 'acme/moving' } });
    expect((await waitForDeployment(api, created.body.id, (await latestDeployment(api, created.body.id)).id)).status).toBe('succeeded');
    moving.commit({ 'content/index.mdx': page('Moving', 'Version two.') });
    const triggered = await api('POST', `/v1/projects/${created.body.id}/deployments`, { body: {} });
    expect(triggered.status).toBe(202);
    const logUrl = `/v1/projects/${created.body.id}/deployments/${triggered.body.id}/log`;
    // Checked out, not yet built: the content root is still the commit before until the deployment ends.
    for (let log = ''; !log.includes('sync: checked out'); log = (await api('GET', logUrl)).text) await new Promise((r) => setTimeout(r, 10));
    expect((await api('PATCH', `/v1/projects/${created.body.id}`, { body: { source_repo: null } })).status).toBe(200);
    const now = await api('GET', `/v1/projects/${created.body.id}/pages/index`);
    expect(now.body).toMatchObject({ source: 'api', content: expect.stringContaining('Version two.') });
    expect((await waitForDeployment(api, created.body.id, triggered.body.id)).status).toBe('succeeded');
    expect(articleOf((await site(created.body.slug)).text)).toContain('Version two.');
    const after = await api('GET', `/v1/projects/${created.body.id}/pages/index`);
    expect(after.body).toMatchObject({ source: 'api', content: expect.stringContaining('Version two.') });
  });

  it('keeps the pages written through the API since: the deployment leaves the content root alone', async () => {
    const created = await api('POST', '/v1/projects', { body: { name: 'Big', slug: uniqueSlug('big'), source_repo: 'acme/big' } });
    expect(created.status).toBe(201);
    const deployment = await latestDeployment(api, created.body.id);
    const logUrl = `/v1/projects/${created.body.id}/deployments/${deployment.id}/log`;
    for (let log = ''; !log.includes('sync: acme/big'); log = (await api('GET', logUrl)).text) await new Promise((r) => setTimeout(r, 10));
    expect((await api('PATCH', `/v1/projects/${created.body.id}`, { body: { source_repo: null } })).status).toBe(200);
    const written = await api('POST', `/v1/projects/${created.body.id}/pages`, { body: { path: 'written', title: 'Written', content: 'Written after the disconnect.\n' } });
    expect(written.status).toBe(201);

    const done = await waitForDeployment(api, created.body.id, deployment.id);
    expect(done.status).toBe('succeeded');
    const kept = await api('GET', `/v1/projects/${created.body.id}/pages/written`);
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ source: 'api', content: 'Written after the disconnect.\n' });
    expect((await api('GET', logUrl)).text).toContain('the project is no longer connected to this repository (or its record could not be read); its content root is left as it is');
  });
});

describe('triggers', () => {
  it('coalesce: while a deployment is queued, triggers return that same deployment', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => api('POST', `/v1/projects/${project.id}/deployments`)));
    for (const a of answers) expect(a.status).toBe(202);
    const ids = new Set(answers.map((a) => a.body.id));
    // One may have started at once; every other trigger joined the one queued behind it. (The
    // queue claims a deployment just after it is queued, so the one that started may still have
    // been answered `queued`: the count of deployments is what shows the coalescing.)
    expect(ids.size).toBeLessThanOrEqual(2);
    for (const id of ids) expect((await waitForDeployment(api, project.id, id)).status).toBe('succeeded');
  });

  it('lists deployments newest first with a stable cursor; a bad cursor or limit is 400', async () => {
    const all = (await api('GET', `/v1/projects/${project.id}/deployments?limit=100`)).body.data;
    expect(all.length).toBeGreaterThanOrEqual(5);
    const sorted = [...all].sort((a: Json, b: Json) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
    expect(all.map((d: Json) => d.id)).toEqual(sorted.map((d: Json) => d.id));
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await api('GET', `/v1/projects/${project.id}/deployments?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(2);
      paged.push(...res.body.data.map((d: Json) => d.id));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(paged).toEqual(all.map((d: Json) => d.id));
    expect((await api('GET', `/v1/projects/${project.id}/deployments?cursor=nope`)).status).toBe(400);
    expect((await api('GET', `/v1/projects/${project.id}/deployments?limit=0`)).status).toBe(400);
  });

  it('keeps the last FOLIO_KEEP_BUILDS (3 here) successful builds on disk', async () => {
    const builds = await readdir(path.join(server.dataDir, 'projects', project.id, 'builds'));
    const succeeded = (await api('GET', `/v1/projects/${project.id}/deployments?limit=100`)).body.data.filter((d: Json) => d.status === 'succeeded');
    expect(succeeded.length).toBeGreaterThan(3);
    // Each with the file that says what it was made from (fast redeploys), pruned with it; the
    // newest with its reuse copy for the next fast redeploy (older builds' copies go).
    expect(builds.sort()).toEqual([...succeeded.slice(0, 3).flatMap((d: Json) => [d.id, `${d.id}.inputs.json`]), `${succeeded[0].id}.reuse`].sort());
  });
});

describe('the OpenAPI document agrees with the answers', () => {
  // The request helper checks every answer against src/api/openapi.json; this reaches deployments
  // in each final status the project has had, a queued one and a refused list.
  it('deployment, deployment list and error answers are the documented ones', async () => {
    const all = (await api('GET', `/v1/projects/${project.id}/deployments?limit=100`)).body;
    expect(new Set(all.data.map((d: Json) => d.status))).toEqual(new Set(['succeeded', 'failed']));
    for (const deployment of all.data) expect((await api('GET', `/v1/projects/${project.id}/deployments/${deployment.id}`)).status).toBe(200);
    const queued = await api('POST', `/v1/projects/${project.id}/deployments`);
    expect(queued.status).toBe(202);
    expect((await api('GET', `/v1/projects/${project.id}/deployments?limit=101`)).status).toBe(400);
    await waitForDeployment(api, project.id, queued.body.id);
  });
});

describe('authorization', () => {
  it('needs deployments:read / deployments:trigger; another org gets 404 on every endpoint', async () => {
    const deployment = await latestDeployment(api, project.id);
    const base = `/v1/projects/${project.id}/deployments`;
    const endpoints: [string, string, string][] = [
      ['GET', base, 'deployments:read'],
      ['POST', base, 'deployments:trigger'],
      ['GET', `${base}/${deployment.id}`, 'deployments:read'],
      ['GET', `${base}/${deployment.id}/log`, 'deployments:read'],
    ];
    const readOnly = client(server.url, (await orgWithKey(server.dataDir, 'scoped-org', 'business', 'projects:read')).key);
    for (const [method, urlPath, scope] of endpoints) {
      expect((await client(server.url)(method, urlPath)).status, `${method} ${urlPath} without key`).toBe(401);
      const denied = await readOnly(method, urlPath);
      expect(denied.status, `${method} ${urlPath}`).toBe(403);
      expect(denied.body).toMatchObject({ error: 'insufficient_scope' });
      expect(denied.body.message).toContain(scope);
      const foreign = await other(method, urlPath);
      expect(foreign.status, `${method} ${urlPath} as another org`).toBe(404);
      expect(foreign.body.error).toBe('not_found');
    }
    // A deployment id of another project is not found under this one.
    const mine = await api('POST', '/v1/projects', { body: { name: 'Mine', slug: uniqueSlug('mine') } });
    expect((await api('GET', `/v1/projects/${mine.body.id}/deployments/${deployment.id}`)).status).toBe(404);
    expect((await api('GET', `/v1/projects/${mine.body.id}/deployments/${deployment.id}/log`)).status).toBe(404);
    expect((await api('GET', `${base}/not-a-uuid`)).status).toBe(404);
  });
});

describe('deleting a project', () => {
  it('its hosts answer 404 at once and its files are gone', async () => {
    const repo = host.repo('acme', 'doomed');
    repo.commit({ 'content/index.mdx': page('Doomed', 'Soon gone.') });
    const domain = `${uniqueSlug('doomed')}.example.net`;
    const created = await api('POST', '/v1/projects', { body: { name: 'Doomed', slug: uniqueSlug('doomed'), source_repo: repo.slug, custom_domain: domain } });
    await waitForDeployment(api, created.body.id, (await latestDeployment(api, created.body.id)).id);
    expect((await site(created.body.slug)).status).toBe(200);
    // A deployment in progress is stopped too.
    await api('POST', `/v1/projects/${created.body.id}/deployments`);
    expect((await api('DELETE', `/v1/projects/${created.body.id}`)).status).toBe(204);
    expect((await site(created.body.slug)).status).toBe(404);
    expect((await getWithHost(server.url, '/', domain)).status).toBe(404);
    expect(existsSync(path.join(server.dataDir, 'projects', created.body.id))).toBe(false);
    expect((await api('GET', `/v1/projects/${created.body.id}/deployments`)).status).toBe(404);
  });
});
