// The projects API over HTTP against the real server (docs/decisions.md#projects).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, getWithHost, orgWithKey, removeDir, request, startServer, uniqueSlug, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let api: ReturnType<typeof client>;
let other: ReturnType<typeof client>;

beforeAll(async () => {
  server = await startServer();
  api = client(server.url, server.defaultKey);
  other = client(server.url, (await orgWithKey(server.dataDir, 'other-org')).key);
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

const create = (body: Record<string, unknown>, as = api) => as('POST', '/v1/projects', { body });

describe('create', () => {
  it('returns 201 with exactly the docs/decisions.md#projects fields plus allow_code, previews and url, status pending, optional fields absent', async () => {
    const slug = uniqueSlug('acme');
    const res = await create({ name: 'Acme Docs', slug });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['allow_code', 'created_at', 'id', 'name', 'previews', 'slug', 'status', 'url']);
    expect(res.body.previews).toBe(false);
    expect(res.body).toMatchObject({ name: 'Acme Docs', slug, status: 'pending', url: `http://${slug}.localhost:${server.port}/` });
    expect(res.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(res.body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('accepts source_repo at creation and returns it', async () => {
    const res = await create({ name: 'Repo', slug: uniqueSlug(), source_repo: 'acme/docs' });
    expect(res.status).toBe(201);
    expect(res.body.source_repo).toBe('acme/docs');
  });

  it('validates with boundary values on both sides (400 naming the field)', async () => {
    const cases: [Record<string, unknown>, number, string?][] = [
      [{ name: 'a'.repeat(80) }, 201],
      [{ name: 'a'.repeat(81) }, 400, 'name'],
      [{ name: '🚀'.repeat(80) }, 201],
      [{ name: '🚀'.repeat(81) }, 400, 'name'],
      [{ name: '   ' }, 400, 'name'],
      [{ name: 'a\u0000b' }, 400, 'name'],
      [{ slug: 'a'.repeat(63) }, 201],
      [{ slug: 'b'.repeat(64) }, 400, 'slug'],
      [{ slug: '-lead' }, 400, 'slug'],
      [{ slug: 'Upper' }, 400, 'slug'],
      [{ slug: 'xn--abc' }, 400, 'xn--'],
      // `--` separates a preview's branch label from the slug in preview hosts.
      [{ slug: 'feature--docs' }, 400, '"--"'],
      [{ previews: 'yes' }, 400, 'previews'],
      [{ preview_branches: 'feature/[x]' }, 400, 'preview_branches'],
      [{ source_repo: 'https://github.com/acme/docs' }, 400, 'owner/name'],
      [{ source_repo: 'acme/docs.git' }, 400, 'owner/name'],
      [{ name: 7 }, 400, 'name must be a string'],
      [{ extra: true }, 400, 'unknown field "extra"'],
    ];
    for (const [patch, status, message] of cases) {
      const body = { name: 'Boundary', slug: uniqueSlug('b'), ...patch };
      const res = await create(body);
      expect(res.status, JSON.stringify(patch)).toBe(status);
      if (message) {
        expect(res.body.error).toBe('invalid_request');
        expect(res.body.message).toContain(message);
      }
    }
  });

  it('answers 409 slug_taken for a taken slug and for every reserved slug', async () => {
    const slug = uniqueSlug();
    expect((await create({ name: 'One', slug })).status).toBe(201);
    const dup = await create({ name: 'Two', slug }, other);
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ error: 'slug_taken', message: expect.stringContaining(slug) });
    for (const reserved of ['api', 'www', 'app', 'console', 'admin', 'static', 'assets', 'status', 'docs']) {
      const res = await create({ name: 'Reserved', slug: reserved });
      expect(res.status, reserved).toBe(409);
      expect(res.body.error).toBe('slug_taken');
    }
  });

  it('gives exactly one 201 for concurrent creates of the same slug', async () => {
    const slug = uniqueSlug('race');
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => create({ name: `Race ${i}`, slug }, i % 2 ? api : other)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(19);
  });
});

describe('list', () => {
  it('pages newest first with a cursor, covering every project exactly once', async () => {
    const { key } = await orgWithKey(server.dataDir, 'lister');
    const mine = client(server.url, key);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const created = (await create({ name: `L${i}`, slug: uniqueSlug('l') }, mine)).body;
      ids.push(created.id);
      // The next one is created in a later millisecond, so "newest" is well defined.
      await expect.poll(() => Date.now() > Date.parse(created.created_at)).toBe(true);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await mine('GET', `/v1/projects?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.data.map((p: { id: string }) => p.id));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
  });

  it('stays stable when projects are created between pages', async () => {
    const { key } = await orgWithKey(server.dataDir, 'stable');
    const mine = client(server.url, key);
    for (let i = 0; i < 4; i++) await create({ name: `S${i}`, slug: uniqueSlug('s') }, mine);
    const first = await mine('GET', '/v1/projects?limit=2');
    await create({ name: 'Newcomer', slug: uniqueSlug('s') }, mine);
    const second = await mine('GET', `/v1/projects?limit=2&cursor=${first.body.next_cursor}`);
    const all = (await mine('GET', '/v1/projects?limit=100')).body.data.map((p: { id: string }) => p.id);
    expect([...first.body.data, ...second.body.data].map((p: { id: string }) => p.id)).toEqual(all.slice(1, 5));
    expect(second.body.next_cursor).toBeNull();
  });

  it('defaults to 20 and refuses bad limit or cursor with 400', async () => {
    const { key } = await orgWithKey(server.dataDir, 'many');
    const mine = client(server.url, key);
    await Promise.all(Array.from({ length: 21 }, (_, i) => create({ name: `M${i}`, slug: uniqueSlug('m') }, mine)));
    const res = await mine('GET', '/v1/projects');
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBe(20);
    expect(typeof res.body.next_cursor).toBe('string');
    expect((await api('GET', '/v1/projects?limit=100')).status).toBe(200);
    for (const q of ['limit=0', 'limit=101', 'limit=abc', 'limit=1.5', 'cursor=nonsense', 'cursor=']) {
      const bad = await api('GET', `/v1/projects?${q}`);
      expect(bad.status, q).toBe(400);
      expect(bad.body.error).toBe('invalid_request');
      expect(bad.body.message).toContain(q.split('=')[0]);
    }
  });
});

describe('get, update, delete', () => {
  it('gets a project, and another org gets 404 for it on every endpoint', async () => {
    const { body: project } = await create({ name: 'Mine', slug: uniqueSlug() });
    expect((await api('GET', `/v1/projects/${project.id}`)).body).toEqual(project);
    for (const [method, body] of [['GET'], ['PATCH', { name: 'Stolen' }], ['DELETE']] as const) {
      const res = await other(method, `/v1/projects/${project.id}`, { body });
      expect(res.status, method).toBe(404);
      expect(res.body.error).toBe('not_found');
    }
    expect((await other('GET', '/v1/projects?limit=100')).body.data.map((p: { id: string }) => p.id)).not.toContain(project.id);
    expect((await api('GET', `/v1/projects/${project.id}`)).body.name).toBe('Mine');
    expect((await api('GET', '/v1/projects/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('PATCH changes only the given fields and sets, changes and removes optional ones', async () => {
    const { body: p } = await create({ name: 'Patch me', slug: uniqueSlug() });
    const path = `/v1/projects/${p.id}`;
    let res = await api('PATCH', path, { body: { custom_domain: 'Docs.Patch-Test.example' , source_branch: 'release/1.0' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...p, custom_domain: 'docs.patch-test.example', source_branch: 'release/1.0',
      custom_domain_status: 'pending',
      custom_domain_verification: { type: 'TXT', name: '_folio-verify.docs.patch-test.example', value: expect.stringMatching(/^folio-verify=/) },
    });
    res = await api('PATCH', path, { body: { name: 'Renamed', source_repo: 'acme/guide' } });
    expect(res.body).toMatchObject({ name: 'Renamed', custom_domain: 'docs.patch-test.example', source_repo: 'acme/guide' });
    res = await api('PATCH', path, { body: { custom_domain: null, source_repo: null, source_branch: null } });
    // Connecting acme/guide queued a deployment (docs/decisions.md#projects), which moves the status on its own.
    const withoutStatus = ({ status: _status, ...rest }: Record<string, unknown>) => rest;
    expect(withoutStatus(res.body)).toEqual(withoutStatus({ ...p, name: 'Renamed' }));
    expect('custom_domain' in res.body).toBe(false);
    expect('custom_domain_status' in res.body || 'custom_domain_verification' in res.body).toBe(false);
    expect(withoutStatus((await api('GET', path)).body)).toEqual(withoutStatus(res.body));
  });

  it('PATCH refuses slug, id, status, unknown fields and broken rules with 400, changing nothing', async () => {
    const { body: p } = await create({ name: 'Strict', slug: uniqueSlug() });
    const path = `/v1/projects/${p.id}`;
    const cases: [Record<string, unknown>, string][] = [
      [{ slug: 'new-slug' }, 'slug'], [{ id: 'x' }, 'id'], [{ status: 'active' }, 'status'], [{ owner: 'x' }, 'owner'],
      [{ source_branch: '-main' }, 'source_branch'], [{ source_branch: 'a..b' }, 'source_branch'],
      [{ custom_domain: 'docs.example.com:8080' }, 'custom_domain'], [{ custom_domain: 'http://docs.example.com' }, 'custom_domain'],
      [{ custom_domain: 'localhost' }, 'custom_domain'], [{ custom_domain: `x.${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(60)}` }, 'custom_domain'],
      [{ name: '' }, 'name'], [{ name: 'Ok', custom_domain: 'under.localhost' }, 'custom_domain'],
      [{ source_repo: 'not a repo' }, 'source_repo'],
    ];
    for (const [body, field] of cases) {
      const res = await api('PATCH', path, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toContain(field);
    }
    expect((await api('GET', path)).body).toEqual(p);
  });

  it('a custom domain is not a site host until verified: its Host answers the API like any unknown host', async () => {
    // Verification, serving once verified and domain_taken: test/service/custom-domains.test.ts.
    const a = (await create({ name: 'A', slug: uniqueSlug() })).body;
    const claimed = await api('PATCH', `/v1/projects/${a.id}`, { body: { custom_domain: 'help.unique-test.example' } });
    expect(claimed.body.custom_domain_status).toBe('pending');
    const res = await getWithHost(server.url, '/v1/projects?limit=1', 'help.unique-test.example', { authorization: `Bearer ${server.defaultKey}` });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('DELETE answers 204 with no body; the slug and domain are free at once and the host answers 404', async () => {
    const slug = uniqueSlug('gone');
    const p = (await create({ name: 'Doomed', slug })).body;
    await api('PATCH', `/v1/projects/${p.id}`, { body: { custom_domain: 'doomed.delete-test.example' } });
    const res = await api('DELETE', `/v1/projects/${p.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await api('GET', `/v1/projects/${p.id}`)).status).toBe(404);
    expect((await api('DELETE', `/v1/projects/${p.id}`)).status).toBe(404);
    const again = await create({ name: 'Reborn', slug, custom_domain: 'doomed.delete-test.example' }, other);
    expect(again.status).toBe(201);
    await other('DELETE', `/v1/projects/${again.body.id}`);
    const site = await getWithHost(server.url, '/', `${slug}.localhost:${server.port}`);
    expect(site.status).toBe(404);
    expect(site.text).toContain('no site here');
  });
});

describe('Host routing (docs/decisions.md#hosts-and-configuration)', () => {
  it('sends a project host to its site, case-insensitively and ignoring the port, and never trusts X-Forwarded-Host', async () => {
    const slug = uniqueSlug('host');
    await create({ name: 'Hosted', slug });
    for (const host of [`${slug}.localhost`, `${slug.toUpperCase()}.LOCALHOST:${server.port}`]) {
      const res = await getWithHost(server.url, '/v1/projects', host, { authorization: `Bearer ${server.defaultKey}` }, 'a project host: /v1 there is the site, not the API');
      expect(res.status, host).toBe(404);
      expect(res.text).toContain('nothing deployed');
    }
    // Any other host is the API, whatever X-Forwarded-Host claims.
    const api127 = await request(server.url, 'GET', '/v1/projects?limit=1', {
      key: server.defaultKey, headers: { 'x-forwarded-host': `${slug}.localhost` },
    });
    expect(api127.status).toBe(200);
    for (const host of ['api.localhost', 'localhost', `127.0.0.1:${server.port}`, 'example.org']) {
      const res = await getWithHost(server.url, '/v1/projects?limit=1', host, { authorization: `Bearer ${server.defaultKey}` });
      expect(res.status, host).toBe(200);
      expect(JSON.parse(res.text).data).toHaveLength(1);
    }
  });
});
