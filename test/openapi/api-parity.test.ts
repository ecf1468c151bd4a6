// src/api/openapi.json matches the server (issue 6 point 4): the document's operations are exactly
// the server's routes (the /v1 route table plus the other injected endpoints), and the answer check
// every integration test runs (test/helpers/api-contract.ts) refuses what the document does not say.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folioApi } from '../../src/api/integration.ts';
import { handleApiRequest } from '../../src/api/pipeline.ts';
import { createApiRouter, listApiRoutes } from '../../src/api/routes.ts';
import { loadConfig } from '../../src/service/config.ts';
import { createFolio } from '../../src/service/folio.ts';
import { openStore } from '../../src/service/store/json/index.ts';
import { apiDocument, contractProblems, matchingTemplates, operationKeys, takeViolations } from '../helpers/api-contract.ts';
import { client, getWithHost, removeDir, startServer, tempDataDir, uniqueSlug, type ApiResponse, type TestServer } from '../helpers/server.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface ServerRoute {
  key: string;
  /** Whether the last parameter takes the rest of the path (`*name` in the route table). */
  restOfPath: boolean;
  /** The scope a key needs (null: public); the JSON body's size limit, for routes that read one. */
  scope?: string | null;
  maxBodyBytes?: number;
}

/** `/v1/projects/:id/pages/*path` → `/v1/projects/{id}/pages/{path}`; an injected `/hooks/git/[project_id]` → `/hooks/git/{project_id}`. */
const template = (path: string) => path.replace(/[:*]([A-Za-z_]+)/g, '{$1}').replace(/\[([A-Za-z_]+)\]/g, '{$1}');

/** Every route the server exposes: the endpoints the service integration injects, the /v1 catch-all expanded by its route table. */
async function serverRoutes(): Promise<ServerRoute[]> {
  const injected: { pattern: string; entrypoint: URL }[] = [];
  const setup = folioApi().hooks['astro:config:setup'] as unknown as (options: { injectRoute(route: { pattern: string; entrypoint: URL }): void }) => void;
  setup({ injectRoute: (route) => injected.push(route) });
  const routes: ServerRoute[] = [];
  for (const { pattern, entrypoint } of injected) {
    if (pattern === '/v1/[...path]') {
      for (const { method, path, scope, maxBodyBytes } of listApiRoutes()) {
        routes.push({ key: `${method} ${template(path)}`, restOfPath: path.includes('*'), scope, maxBodyBytes });
      }
      continue;
    }
    const endpoint = (await import(entrypoint.href)) as Record<string, unknown>;
    // `ALL` answers the other methods (405); the named methods are the operations.
    const methods = Object.keys(endpoint).filter((name) => operationKeys.includes(name.toLowerCase()));
    expect(methods, `${pattern} exports handlers`).not.toEqual([]);
    // An endpoint that reads a body of its own says its limit (`MAX_BODY_BYTES`), as the route table does.
    const maxBodyBytes = typeof endpoint.MAX_BODY_BYTES === 'number' ? endpoint.MAX_BODY_BYTES : undefined;
    for (const method of methods) routes.push({ key: `${method} ${template(pattern)}`, restOfPath: false, scope: null, maxBodyBytes: method === 'POST' ? maxBodyBytes : undefined });
  }
  return routes;
}

function documentOperations(): ServerRoute[] {
  return Object.entries(apiDocument().paths as Json).flatMap(([path, item]) =>
    operationKeys.filter((method) => item[method]).map((method) => ({
      key: `${method.toUpperCase()} ${path}`,
      restOfPath: matchingTemplates(path.replace(/\{[^}]+\}/g, 'x')).some((t) => t.template === path && t.restOfPath),
    })),
  );
}

describe('route parity between the server and src/api/openapi.json', () => {
  let routes: ServerRoute[];
  let operations: ServerRoute[];
  beforeAll(async () => {
    routes = await serverRoutes();
    operations = documentOperations();
  });

  it('the route table is read, with /healthz and /v1/openapi.json', () => {
    const keys = routes.map((r) => r.key);
    expect(keys).toContain('GET /healthz');
    expect(keys).toContain('GET /v1/openapi.json');
    expect(keys).toContain('GET /v1/projects/{id}/deployments/{deployment_id}/log');
    expect(keys.length).toBeGreaterThanOrEqual(16);
  });

  it('every route the server exposes is an operation of the document', () => {
    const documented = new Set(operations.map((o) => o.key));
    const missing = routes.filter((r) => !documented.has(r.key)).map((r) => `route ${r.key} is not in src/api/openapi.json`);
    expect(missing).toEqual([]);
  });

  it('every operation of the document is a route of the server', () => {
    const served = new Set(routes.map((r) => r.key));
    const extra = operations.filter((o) => !served.has(o.key)).map((o) => `operation ${o.key} of src/api/openapi.json is not a server route`);
    expect(extra).toEqual([]);
  });

  it('a path parameter takes the rest of the path (x-multi-segment) exactly where the route table has *name', () => {
    const byKey = new Map(operations.map((o) => [o.key, o.restOfPath]));
    const differing = routes
      .filter((r) => byKey.has(r.key) && byKey.get(r.key) !== r.restOfPath)
      .map((r) => `${r.key}: route ${r.restOfPath ? 'takes' : 'does not take'} the rest of the path, the document says otherwise`);
    expect(differing).toEqual([]);
    expect(routes.filter((r) => r.restOfPath).length).toBe(6);
  });

  it('each operation asks for the scope the route enforces, and documents a JSON body with its 413 limit exactly where the route reads one', () => {
    const differing: string[] = [];
    for (const route of routes) {
      const [method, path] = route.key.split(' ');
      const op = apiDocument().paths[path]?.[method.toLowerCase()] as Json | undefined;
      if (!op) continue; // reported by the parity tests above
      const scope = op.security?.[0]?.bearerAuth?.[0] ?? null;
      if (scope !== route.scope) differing.push(`${route.key}: the route needs ${route.scope ?? 'no key'}, the document says ${scope ?? 'no key'}`);
      const body = op.requestBody?.content?.['application/json'];
      if (Boolean(body) !== (route.maxBodyBytes !== undefined)) {
        differing.push(`${route.key}: the route ${route.maxBodyBytes ? 'reads' : 'reads no'} JSON body, the document ${body ? 'gives' : 'gives no'} request body`);
      }
      if (route.maxBodyBytes) {
        const tooLarge = op.responses['413']?.$ref ? apiDocument().components.responses[op.responses['413'].$ref.split('/').pop()] : op.responses['413'];
        const limit = `over ${route.maxBodyBytes / 2 ** 20} MiB`;
        if (!tooLarge?.description?.includes(limit)) differing.push(`${route.key}: the route refuses bodies ${limit}, its 413 says "${tooLarge?.description}"`);
      }
    }
    expect(differing).toEqual([]);
    expect(routes.filter((r) => r.maxBodyBytes).length).toBe(9);
  });
});

describe('the answer check refuses answers the document does not describe', () => {
  let server: TestServer;
  let api: ReturnType<typeof client>;
  let project: ApiResponse;
  beforeAll(async () => {
    server = await startServer();
    api = client(server.url, server.defaultKey);
    project = await api('POST', '/v1/projects', { body: { name: 'Checked', slug: uniqueSlug('contract') } });
  });
  afterAll(async () => {
    await server.stop();
    await removeDir(server.dataDir);
  });

  /** A real answer, as the check sees it, with one thing changed. */
  const answer = (method: string, path: string, res: ApiResponse, change: Partial<{ status: number; text: string; drop: string; set: [string, string] }> = {}) => {
    const headers = new Headers(res.headers);
    if (change.drop) headers.delete(change.drop);
    if (change.set) headers.set(...change.set);
    return { method, path, status: change.status ?? res.status, headers, text: change.text ?? res.text };
  };

  it('accepts the real answers it is given', async () => {
    const path = `/v1/projects/${project.body.id}`;
    expect(contractProblems(answer('GET', path, await api('GET', path)))).toEqual([]);
    expect(contractProblems(answer('PUT', '/v1/projects', await api('PUT', '/v1/projects')))).toEqual([]);
    expect(contractProblems(answer('GET', '/v1/nope', await api('GET', '/v1/nope')))).toEqual([]);
  });

  it('an undocumented status names the operation and the documented statuses', async () => {
    const path = `/v1/projects/${project.body.id}`;
    const [problem] = contractProblems(answer('GET', path, await api('GET', path), { status: 418 }));
    expect(problem).toContain('status 418 is not documented for GET /v1/projects/{id}');
    expect(problem).toContain('documented: 200, 401, 403, 404, 429, 500');
  });

  it('a body off its schema, a missing required header, a wrong Allow and an undocumented media type are each reported', async () => {
    const path = `/v1/projects/${project.body.id}`;
    const got = await api('GET', path);
    const offSchema = contractProblems(answer('GET', path, got, { text: JSON.stringify({ ...got.body, status: 'sleeping' }) }));
    expect(offSchema.join('\n')).toMatch(/does not match the schema[\s\S]*\/status[\s\S]*must be equal to one of the allowed values/);
    expect(contractProblems(answer('GET', path, got, { drop: 'x-ratelimit-reset' }))).toEqual(['required header X-RateLimit-Reset is missing']);
    expect(contractProblems(answer('GET', path, got, { set: ['x-ratelimit-remaining', '-1'] }))[0]).toContain('header X-RateLimit-Remaining: "-1" does not match');
    expect(contractProblems(answer('GET', path, got, { set: ['content-type', 'text/html'] }))[0]).toContain('Content-Type "text/html" is not documented');
    const wrong = await api('PUT', path);
    expect(contractProblems(answer('PUT', path, wrong, { set: ['allow', 'GET, PUT'] }))[0]).toContain('Allow is "GET, PUT" but the document gives the path GET, PATCH, DELETE');
    const unauthenticated = await client(server.url)('GET', path);
    expect(contractProblems(answer('GET', path, unauthenticated, { drop: 'www-authenticate' }))).toEqual(['required header WWW-Authenticate is missing']);
    const gone = `/v1/projects/${(await api('POST', '/v1/projects', { body: { name: 'Gone', slug: uniqueSlug('contract') } })).body.id}`;
    expect(contractProblems(answer('DELETE', gone, await api('DELETE', gone), { text: '{}' }))[0]).toContain('the document gives no body');
  });

  it('a request helper call that receives an undocumented answer fails, naming method, path and status; outsideContract exempts it', async () => {
    // A project's host is a site host: /v1 there is the site's 404 page, not the API.
    const domain = `${project.body.slug}.localhost`;
    const error = await getWithHost(server.url, '/v1/projects', domain).catch((err: Error) => err);
    expect(takeViolations()).toHaveLength(1); // taken, so that this test's deliberate violation does not fail it
    expect(String(error)).toContain('GET /v1/projects answered 404, which src/api/openapi.json does not describe');
    expect(String(error)).toContain('status 404 is not documented for GET /v1/projects (documented: 200, 400, 401, 403, 429, 500)');
    const exempt = await getWithHost(server.url, '/v1/projects', domain, {}, 'a site host');
    expect(exempt.status).toBe(404);
  });
});

describe('mismatches fixed in the implementation', () => {
  it('GET /v1/openapi.json answers 500 internal_error when its file cannot be read (the document lists 200, 429, 500; it was 404)', async () => {
    const dataDir = await tempDataDir();
    const folio = createFolio(loadConfig({ FOLIO_DATA_DIR: dataDir }), await openStore(dataDir));
    try {
      const url = new URL('http://127.0.0.1/v1/openapi.json');
      const deps = { folio, match: createApiRouter(path.join(dataDir, 'no-such-openapi.json')) };
      const res = await handleApiRequest(deps, new Request(url), url, '127.0.0.1');
      const text = await res.text();
      expect(res.status).toBe(500);
      expect(JSON.parse(text)).toMatchObject({ error: 'internal_error' });
      expect(contractProblems({ method: 'GET', path: url.pathname, status: res.status, headers: res.headers, text })).toEqual([]);
    } finally {
      await folio.close();
      await removeDir(dataDir);
    }
  });
});

describe('mismatches fixed in the implementation (over HTTP)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.stop();
    await removeDir(server.dataDir);
  });

  it('another method on /healthz is 405 method_not_allowed with Allow: GET, in the error shape (it was an HTML 404); HEAD is GET', async () => {
    const health = client(server.url);
    const post = await health('POST', '/healthz');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    expect(post.body).toEqual({ error: 'method_not_allowed', message: 'method POST is not allowed on /healthz; allowed: GET' });
    const head = await health('HEAD', '/healthz');
    expect([head.status, head.text]).toEqual([200, '']);
  });
});
