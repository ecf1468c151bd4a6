// Folio on PostgreSQL (FOLIO_DATABASE_URL), over HTTP with real servers: two nodes (each its own
// data dir) sharing one database see each other's writes, race for a slug with exactly one
// winner, count one rate limit exactly, and keep the pages a disconnected repository synced; the
// admin CLI works on the database with servers running;
// and a JSON store moves into PostgreSQL with `admin db import` (content/operating/postgresql.mdx,
// "Moving an existing install").
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MIGRATIONS } from '../../src/service/postgres/migrations.ts';
import { createTestDatabase } from '../helpers/postgres.ts';
import { ADMIN, removeDir, request, runNode, startServer, tempDataDir, uniqueSlug, type TestServer } from '../helpers/server.ts';

const dirs: string[] = [];
const servers: TestServer[] = [];
async function node(databaseUrl: string, env: Record<string, string> = {}, dataDir?: string): Promise<TestServer> {
  const dir = dataDir ?? (await tempDataDir());
  dirs.push(dir);
  const server = await startServer({ dataDir: dir, env: { FOLIO_DATABASE_URL: databaseUrl, ...env } });
  servers.push(server);
  return server;
}
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  for (const dir of dirs) await removeDir(dir);
});

const dbAdmin = (databaseUrl: string, dataDir: string, ...args: string[]) =>
  runNode(ADMIN, args, { FOLIO_DATABASE_URL: databaseUrl, FOLIO_DATA_DIR: dataDir });

describe('two nodes on one database', () => {
  let databaseUrl: string;
  let a: TestServer;
  let b: TestServer;
  let key: string;
  beforeAll(async () => {
    databaseUrl = await createTestDatabase(inject('postgresUrl'));
    // Business plan limited to 30 a minute on both nodes, for the exact-count test.
    const env = { FOLIO_RATE_LIMITS: 'free=1000000,pro=1000000,business=30' };
    [a, b] = await Promise.all([node(databaseUrl, env), node(databaseUrl, env)]);
    // Exactly one of the two created the default org and printed its key.
    const printed = [a.defaultKey, b.defaultKey].filter(Boolean);
    expect(printed).toHaveLength(1);
    key = printed[0]!;
  });

  it('shows a project created on one node on the other, and lets one of 20 racing creates of a slug win', async () => {
    const created = await request(a.url, 'POST', '/v1/projects', { key, body: { name: 'Shared', slug: uniqueSlug('shared') } });
    expect(created.status).toBe(201);
    const seen = await request(b.url, 'GET', `/v1/projects/${created.body.id}`, { key });
    expect(seen.status).toBe(200);
    expect(seen.body.name).toBe('Shared');

    const slug = uniqueSlug('race');
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      request(i % 2 ? a.url : b.url, 'POST', '/v1/projects', { key, body: { name: `Race ${i}`, slug } })));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 409).every((r) => r.body.error === 'slug_taken')).toBe(true);
    expect(answers.filter((r) => r.status === 409)).toHaveLength(19);
  });

  it('lets the admin CLI create and revoke keys in the database while both nodes run', async () => {
    const dir = await tempDataDir();
    dirs.push(dir);
    const org = await dbAdmin(databaseUrl, dir, 'org', 'create', 'cli-org', '--plan', 'pro');
    expect(org.stderr).toBe('');
    expect(org.stdout).toContain('Created organization "cli-org"');
    const created = await dbAdmin(databaseUrl, dir, 'key', 'create', '--org', 'cli-org', '--scopes', 'projects:read', '--json');
    const { key: cliKey, api_key } = JSON.parse(created.stdout);
    expect((await request(b.url, 'GET', '/v1/projects', { key: cliKey })).status).toBe(200);
    const revoked = await dbAdmin(databaseUrl, dir, 'key', 'revoke', api_key.id);
    expect(revoked.code).toBe(0);
    // Refused at once on both nodes: keys are read from the database on every request.
    expect((await request(a.url, 'GET', '/v1/projects', { key: cliKey })).status).toBe(401);
    expect((await request(b.url, 'GET', '/v1/projects', { key: cliKey })).status).toBe(401);
  });

  it('counts one org\'s rate limit exactly across the two nodes under parallel requests', async () => {
    // A fresh org on the limited plan, so the earlier tests' requests do not count.
    const dir = await tempDataDir();
    dirs.push(dir);
    await dbAdmin(databaseUrl, dir, 'org', 'create', 'limited', '--plan', 'business');
    const limitedKey = JSON.parse((await dbAdmin(databaseUrl, dir, 'key', 'create', '--org', 'limited', '--json')).stdout).key;
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) =>
      request(i % 2 ? a.url : b.url, 'GET', '/v1/projects', { key: limitedKey })));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(30);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(20);
    const remaining = answers.filter((r) => r.status === 200).map((r) => Number(r.headers.get('x-ratelimit-remaining')));
    expect(new Set(remaining).size).toBe(30); // every allowed request got its own count
    expect(Math.min(...remaining)).toBe(0);
    // A plan change applies at once on every node: the next request is counted under the pro limit.
    expect((await dbAdmin(databaseUrl, dir, 'org', 'set-plan', 'limited', 'pro')).code).toBe(0);
    const upgraded = await request(b.url, 'GET', '/v1/projects', { key: limitedKey });
    expect(upgraded.status).toBe(200);
    expect(upgraded.headers.get('x-ratelimit-limit')).toBe('1000000');
  });
});

describe('a project disconnected from its repository, on two nodes', () => {
  let a: TestServer;
  let b: TestServer;
  let key: string;
  beforeAll(async () => {
    const databaseUrl = await createTestDatabase(inject('postgresUrl'));
    [a, b] = await Promise.all([node(databaseUrl), node(databaseUrl)]);
    key = (a.defaultKey ?? b.defaultKey)!;
  });

  it('keeps the pages a disconnected repository synced, not those written before it was connected, on every node', async () => {
    const created = await request(a.url, 'POST', '/v1/projects', { key, body: { name: 'Disconnected', slug: uniqueSlug('disconnected') } });
    const pages = `/v1/projects/${created.body.id}/pages`;
    expect((await request(a.url, 'POST', pages, { key, body: { path: 'before', title: 'Before', content: 'Written before the connection.\n' } })).status).toBe(201);
    expect((await request(b.url, 'GET', `${pages}/before`, { key })).status).toBe(200);
    expect((await request(a.url, 'PATCH', `/v1/projects/${created.body.id}`, { key, body: { source_repo: 'acme/docs' } })).status).toBe(200);
    // What a sync on node a does (this one fails at once, without touching the root): the root
    // becomes the repository's files, one of them at a path the database cannot hold.
    // Written beside the root and swapped in by rename, as a sync does (deployments/sync.ts).
    const root = path.join(a.dataDir, 'projects', created.body.id, 'root');
    const synced = `${root}-synced`;
    await mkdir(path.join(synced, 'content/guides'), { recursive: true });
    await writeFile(path.join(synced, 'content/index.mdx'), '# Home\n');
    await writeFile(path.join(synced, 'content/guides/setup.mdx'), '---\ntitle: Setup\n---\nSynced.\n');
    await writeFile(path.join(synced, 'logo\\dark.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>\n');
    await rename(root, `${root}-old`);
    await rename(synced, root);
    await rm(`${root}-old`, { recursive: true, force: true });
    expect((await request(a.url, 'PATCH', `/v1/projects/${created.body.id}`, { key, body: { source_repo: null } })).status).toBe(200);

    const patched = await request(a.url, 'PATCH', `${pages}/guides/setup`, { key, body: { title: 'Set up' } });
    expect(patched.status).toBe(200);
    // A refused write makes node a reread its copy from the disk on the next read.
    expect((await request(a.url, 'POST', pages, { key, body: { path: 'index', title: 'Again', content: 'x' } })).status).toBe(409);
    for (const server of [a, b]) {
      const listed = await request(server.url, 'GET', pages, { key });
      expect(listed.body.data.map((p: { path: string; title: string }) => [p.path, p.title]), server === a ? 'node a' : 'node b').toEqual([['guides/setup', 'Set up'], ['index', 'Home']]);
    }
    // The file the database cannot hold stays where it was synced.
    expect(existsSync(path.join(root, 'logo\\dark.svg'))).toBe(true);
  });
});

describe('moving a JSON store into PostgreSQL', () => {
  it('imports orgs, keys, projects and deployments once, then serves them from the database', async () => {
    const dataDir = await tempDataDir();
    dirs.push(dataDir);
    const before = await startServer({ dataDir });
    const key = before.defaultKey!;
    const project = await request(before.url, 'POST', '/v1/projects', { key, body: { name: 'Moving', slug: uniqueSlug('moving') } });
    expect(project.status).toBe(201);
    const page = await request(before.url, 'POST', `/v1/projects/${project.body.id}/pages`, { key, body: { path: 'guides/moving', title: 'Moving', content: 'Written before PostgreSQL.\n' } });
    expect(page.status).toBe(201);
    const deployment = await request(before.url, 'POST', `/v1/projects/${project.body.id}/deployments`, { key });
    expect(deployment.status).toBe(202);
    // An event webhook moves too (for an event this empty project never has: nothing is sent).
    const webhook = await request(before.url, 'POST', `/v1/projects/${project.body.id}/webhooks`, { key, body: { url: 'https://hooks.example.com/x', events: ['deployment.succeeded'] } });
    expect(webhook.status).toBe(201);
    expect(await before.stop()).toBe(0);

    const databaseUrl = await createTestDatabase(inject('postgresUrl'));
    const migrated = await dbAdmin(databaseUrl, dataDir, 'db', 'migrate');
    const versions = MIGRATIONS.map((m) => m.version);
    expect(migrated.stdout).toContain(`Applied migration(s) ${versions.join(', ')}: the database's schema is at version ${versions.at(-1)}.`);
    expect((await dbAdmin(databaseUrl, dataDir, 'db', 'migrate')).stdout).toContain(`already at version ${versions.at(-1)}`);
    const imported = await dbAdmin(databaseUrl, dataDir, 'db', 'import');
    expect(imported.stdout).toContain('Imported 1 organization(s), 1 API key(s), 1 project(s) and 1 deployment(s)');
    expect(imported.stdout).toContain('and the pages, docs.json and snippets of 1 project(s) without a repository');
    const again = await dbAdmin(databaseUrl, dataDir, 'db', 'import');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already holds 1 organization(s)');

    const after = await node(databaseUrl, {}, dataDir);
    expect(after.defaultKey).toBeUndefined(); // the imported org is there: no new default key
    const got = await request(after.url, 'GET', `/v1/projects/${project.body.id}`, { key });
    expect(got.status).toBe(200);
    expect({ ...got.body, url: '', status: '' }).toEqual({ ...project.body, url: '', status: '' });
    const listed = await request(after.url, 'GET', `/v1/projects/${project.body.id}/deployments`, { key });
    expect(listed.body.data.map((d: { id: string }) => d.id)).toContain(deployment.body.id);
    const hooks = await request(after.url, 'GET', `/v1/projects/${project.body.id}/webhooks`, { key });
    expect(hooks.body.data).toEqual([{ id: webhook.body.id, project_id: project.body.id, url: 'https://hooks.example.com/x', events: ['deployment.succeeded'], created_at: webhook.body.created_at }]);
    // A node with an empty data dir reads the page written before the move.
    const elsewhere = await node(databaseUrl);
    const moved = await request(elsewhere.url, 'GET', `/v1/projects/${project.body.id}/pages/guides/moving`, { key });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ content: 'Written before PostgreSQL.\n', updated_at: page.body.updated_at });
  }, 150_000); // three servers and five admin processes, each loading Folio: past the default minute on a busy 2-core machine

  it('names the setting when the db commands run without a database', async () => {
    const dir = await tempDataDir();
    dirs.push(dir);
    const result = await runNode(ADMIN, ['db', 'migrate'], { FOLIO_DATA_DIR: dir, FOLIO_DATABASE_URL: '' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('FOLIO_DATABASE_URL is not set');
    const bad = await runNode(ADMIN, ['org', 'list'], { FOLIO_DATA_DIR: dir, FOLIO_DATABASE_URL: 'mysql://x' });
    expect(bad.stderr).toContain('Invalid FOLIO_DATABASE_URL');
  });
});
