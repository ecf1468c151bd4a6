// HTTP conventions, authentication and scopes over HTTP against the real server (docs/decisions.md#http-conventions).
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDocumented } from '../helpers/api-contract.ts';
import { admin, client, orgWithKey, removeDir, request, startServer, toHeaders, uniqueSlug, type ApiResponse, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let api: ReturnType<typeof client>;
let projectId: string;

beforeAll(async () => {
  server = await startServer();
  api = client(server.url, server.defaultKey);
  projectId = (await api('POST', '/v1/projects', { body: { name: 'Fixture', slug: uniqueSlug('fx') } })).body.id;
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

function expectRateHeaders(res: ApiResponse): void {
  const limit = Number(res.headers.get('x-ratelimit-limit'));
  const remaining = Number(res.headers.get('x-ratelimit-remaining'));
  const reset = Number(res.headers.get('x-ratelimit-reset'));
  expect(limit).toBeGreaterThan(0);
  expect(remaining).toBeGreaterThanOrEqual(0);
  expect(remaining).toBeLessThan(limit);
  expect(reset % 60).toBe(0);
  expect(reset).toBeGreaterThan(Date.now() / 1000 - 1);
  expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 61);
}

function expectError(res: ApiResponse, status: number, code: string, mention?: string): void {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(Object.keys(res.body).sort()).toEqual(['error', 'message']);
  expect(res.body.error).toBe(code);
  if (mention) expect(res.body.message).toContain(mention);
  expect(res.text).not.toMatch(/\bat .*\.(ts|js|mjs):\d+/); // never a stack trace
  expectRateHeaders(res);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
}

const endpoints: { method: string; path: () => string; scope: string; body?: () => unknown }[] = [
  { method: 'GET', path: () => '/v1/projects', scope: 'projects:read' },
  { method: 'GET', path: () => `/v1/projects/${projectId}`, scope: 'projects:read' },
  { method: 'POST', path: () => '/v1/projects', scope: 'projects:write', body: () => ({ name: 'Scoped', slug: uniqueSlug('sc') }) },
  { method: 'PATCH', path: () => `/v1/projects/${projectId}`, scope: 'projects:write', body: () => ({ name: 'Renamed' }) },
  { method: 'DELETE', path: () => `/v1/projects/${projectId}`, scope: 'projects:write' },
];

describe('authentication (401)', () => {
  it('refuses every /v1 path without a valid key, before revealing whether the route exists', async () => {
    const cases: [string, string, Record<string, string>, string][] = [
      ['GET', '/v1/projects', {}, 'Authorization header is missing'],
      ['GET', '/v1/does-not-exist', {}, 'Authorization'],
      ['PUT', '/v1/projects', {}, 'Authorization'],
      ['GET', '/v1', {}, 'Authorization'],
      ['GET', '/v1/projects', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }, 'Bearer scheme'],
      ['GET', '/v1/projects', { authorization: 'Bearer' }, 'Bearer'],
      ['GET', '/v1/projects', { authorization: `Bearer folio_${'A'.repeat(43)}` }, 'unknown or revoked'],
      ['GET', '/v1/projects', { authorization: 'Bearer not-a-key' }, 'unknown or revoked'],
    ];
    for (const [method, path, headers, mention] of cases) {
      const res = await request(server.url, method, path, { headers });
      expectError(res, 401, 'unauthorized', mention);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  it('refuses a revoked key at once', async () => {
    const { key } = await orgWithKey(server.dataDir, 'revokers');
    expect((await request(server.url, 'GET', '/v1/projects', { key })).status).toBe(200);
    const listed = JSON.parse((await admin(server.dataDir, 'key', 'list', '--org', 'revokers', '--json')).stdout);
    const revoked = await admin(server.dataDir, 'key', 'revoke', listed.keys[0].id);
    expect(revoked.code).toBe(0);
    expectError(await request(server.url, 'GET', '/v1/projects', { key }), 401, 'unauthorized', 'revoked');
  });
});

describe('scopes (403)', () => {
  it('refuses every endpoint to a key without its scope, naming the scope, and allows it with the scope', async () => {
    const keysWithout: Record<string, string> = {};
    const keysWith: Record<string, string> = {};
    const all = ['projects:read', 'projects:write', 'pages:read', 'pages:write', 'deployments:read', 'deployments:trigger'];
    for (const scope of ['projects:read', 'projects:write']) {
      const org = `scopes-${scope.replace(':', '-')}`;
      keysWithout[scope] = (await orgWithKey(server.dataDir, org, 'business', all.filter((s) => s !== scope).join(','))).key;
      const made = await admin(server.dataDir, 'key', 'create', '--org', org, '--scopes', scope);
      keysWith[scope] = made.stdout.trim().split('\n').at(-1)!;
    }
    for (const e of endpoints) {
      const res = await request(server.url, e.method, e.path(), { key: keysWithout[e.scope], body: e.body?.() });
      expectError(res, 403, 'insufficient_scope', e.scope);
    }
    // With the scope, the request reaches the handler (404 here: the fixture belongs to another org).
    for (const e of endpoints) {
      const res = await request(server.url, e.method, e.path(), { key: keysWith[e.scope], body: e.body?.() });
      expect([200, 201, 404], `${e.method} ${e.path()}`).toContain(res.status);
      expect(res.status).not.toBe(403);
    }
  });
});

describe('routes (404, 405)', () => {
  it('answers unknown /v1 routes with 404 and wrong methods with 405 and Allow', async () => {
    expectError(await api('GET', '/v1/nothing-here'), 404, 'not_found');
    expectError(await api('GET', `/v1/projects/${projectId}/unknown`), 404, 'not_found');
    const wrong = await api('PUT', '/v1/projects');
    expectError(wrong, 405, 'method_not_allowed', 'PUT');
    expect(wrong.headers.get('allow')).toBe('GET, POST');
    const wrongItem = await api('POST', `/v1/projects/${projectId}`, { body: {} });
    expectError(wrongItem, 405, 'method_not_allowed');
    expect(wrongItem.headers.get('allow')).toBe('GET, PATCH, DELETE');
  });
});

describe('request bodies (400, 413, 415)', () => {
  const post = (body: string | Uint8Array | undefined, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    api('POST', '/v1/projects', { body, headers });

  it('requires Content-Type application/json (415 naming the header)', async () => {
    const body = JSON.stringify({ name: 'x', slug: uniqueSlug() });
    expectError(await post(body, { 'content-type': 'text/plain' }), 415, 'unsupported_media_type', 'Content-Type');
    expectError(await post(body, { 'content-type': 'application/json; charset=latin1' }), 415, 'unsupported_media_type');
    // Raw bytes: no Content-Type at all.
    expectError(await api('POST', '/v1/projects', { body: new Uint8Array(Buffer.from(body)) }), 415, 'unsupported_media_type', 'Content-Type');
    const ok = await post(JSON.stringify({ name: 'x', slug: uniqueSlug() }), { 'content-type': 'Application/JSON; charset=UTF-8' });
    expect(ok.status).toBe(201);
  });

  it('answers 415 on every route that reads a body, and changes nothing', async () => {
    const pages = `/v1/projects/${projectId}/pages`;
    expect((await api('POST', pages, { body: { path: 'typed', title: 'Typed', content: 'Kept.\n' } })).status).toBe(201);
    const routes: [string, string, unknown][] = [
      ['PATCH', `/v1/projects/${projectId}`, { name: 'Untyped' }],
      ['POST', pages, { path: 'untyped', title: 'Untyped', content: 'No.\n' }],
      ['PATCH', `${pages}/typed`, { title: 'Untyped' }],
    ];
    for (const [method, route, body] of routes) {
      expectError(await api(method, route, { body: JSON.stringify(body), headers: { 'content-type': 'text/plain' } }), 415, 'unsupported_media_type', 'Content-Type');
      expectError(await api(method, route, { body: new Uint8Array(Buffer.from(JSON.stringify(body))) }), 415, 'unsupported_media_type', 'Content-Type');
    }
    expect((await api('GET', `/v1/projects/${projectId}`)).body.name).not.toBe('Untyped');
    expect((await api('GET', `${pages}/untyped`)).status).toBe(404);
    expect((await api('GET', `${pages}/typed`)).body.title).toBe('Typed');
  });

  it('refuses bad JSON, non-objects, empty and non-UTF-8 bodies with 400', async () => {
    expectError(await post('{"name": "x",'), 400, 'invalid_request', 'not valid JSON');
    for (const body of ['[]', '"text"', '42', 'null', 'true']) {
      expectError(await post(body), 400, 'invalid_request', 'must be a JSON object');
    }
    expectError(await post(''), 400, 'invalid_request', 'empty');
    const latin1 = await post(new Uint8Array([0x7b, 0x22, 0x6e, 0xe9, 0x22, 0x3a, 0x31, 0x7d]));
    expect(latin1.status).toBe(400);
  });

  it('keeps __proto__, constructor and prototype keys out of the store', async () => {
    const slug = uniqueSlug('proto');
    for (const body of [
      `{"name":"x","slug":"${slug}","__proto__":{"status":"active"}}`,
      `{"name":"x","slug":"${slug}","constructor":{"prototype":{"polluted":true}}}`,
      `{"name":"x","slug":"${slug}","source_repo":{"prototype":1}}`,
    ]) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/__proto__|constructor|prototype/);
    }
    const patch = await api('PATCH', `/v1/projects/${projectId}`, { body: '{"__proto__":{"slug":"hijack"}}' });
    expect(patch.status).toBe(400);
    const list = await api('GET', '/v1/projects?limit=100');
    expect(list.body.data.map((p: { slug: string }) => p.slug)).not.toContain(slug);
    expect((await api('GET', `/v1/projects/${projectId}`)).body.slug).not.toBe('hijack');
  });

  it('refuses bodies over 1 MiB with 413, declared or streamed, before parsing', async () => {
    const big = JSON.stringify({ name: 'x', slug: uniqueSlug(), pad: 'a'.repeat(1024 * 1024) });
    expectError(await post(big), 413, 'payload_too_large', 'bytes');
    // Streamed without Content-Length: the limit is enforced while reading, and the answer
    // comes while the client is still sending.
    const streamed = await new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const req = http.request(`${server.url}/v1/projects`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.defaultKey}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      });
      let answered = false;
      req.on('response', (res) => {
        answered = true;
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      });
      req.on('error', (err) => (answered ? undefined : reject(err)));
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (!answered && sent < 4 * 1024 * 1024) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body).error).toBe('payload_too_large');
    expectDocumented({ method: 'POST', path: '/v1/projects', status: streamed.status, headers: toHeaders(streamed.headers), text: streamed.body });
    // Just under the limit is parsed normally (and refused for its unknown field, not its size).
    const under = JSON.stringify({ name: 'x', slug: uniqueSlug(), pad: '' });
    const padded = under.replace('"pad":""', `"pad":"${'a'.repeat(1024 * 1024 - under.length)}"`);
    expect(Buffer.byteLength(padded)).toBe(1024 * 1024);
    expectError(await post(padded), 400, 'invalid_request', 'unknown field "pad"');
  });
});

describe('server errors (500)', () => {
  it('answers internal_error without a stack trace when the store cannot be written, and recovers', async () => {
    // A non-empty directory in the store file's place makes the next file write (its rename) fail.
    const file = path.join(server.dataDir, 'folio.json');
    await rename(file, `${file}.away`);
    await mkdir(file);
    await writeFile(path.join(file, 'blocker'), '');
    try {
      const res = await api('POST', '/v1/projects', { body: { name: 'Unlucky', slug: uniqueSlug('err') } });
      expectError(res, 500, 'internal_error');
      expect(res.text).not.toContain('EISDIR');
    } finally {
      await rm(file, { recursive: true });
      await rename(`${file}.away`, file);
    }
    // The refused change was undone: it does not go out with the next write.
    expect((await api('GET', '/v1/projects?limit=100')).body.data.map((p: { name: string }) => p.name)).not.toContain('Unlucky');
    expect((await api('POST', '/v1/projects', { body: { name: 'Lucky', slug: uniqueSlug('ok') } })).status).toBe(201);
  });
});

describe('public endpoints', () => {
  it('GET /healthz answers {"status":"ok"} without a key', async () => {
    const res = await request(server.url, 'GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('answers as usual when the Host header cannot stand in a URL (a port out of range, a bad address)', async () => {
    const get = (pathname: string, host: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        http.get(`${server.url}${pathname}`, { headers: { host } }, (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        }).on('error', reject);
      });
    for (const host of ['localhost:99999', '[:::::]']) {
      const health = await get('/healthz', host);
      expect(health.status, host).toBe(200);
      const refused = await get('/v1/projects', host);
      expect(refused.status, host).toBe(401);
      expect(JSON.parse(refused.body).error).toBe('unauthorized');
    }
  });

  it('GET /healthz answers 503 while the store file cannot be read', async () => {
    const file = path.join(server.dataDir, 'folio.json');
    await rename(file, `${file}.away`);
    try {
      const res = await request(server.url, 'GET', '/healthz');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: 'unavailable', reason: 'the store file is not readable' });
    } finally {
      await rename(`${file}.away`, file);
    }
    expect((await request(server.url, 'GET', '/healthz')).status).toBe(200);
  });

  it('GET /v1/openapi.json serves the OpenAPI 3.1 description without a key, with rate-limit headers', async () => {
    const res = await request(server.url, 'GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(String(res.body.openapi)).toMatch(/^3\.1/);
    expectRateHeaders(res);
  });

  it('puts rate-limit headers on successful responses too', async () => {
    const res = await api('GET', '/v1/projects');
    expect(res.status).toBe(200);
    expectRateHeaders(res);
    expect(res.headers.get('x-ratelimit-limit')).toBe('1000000');
  });
});

describe('X-Content-Type-Options: nosniff', () => {
  it('is on every API answer: successes, errors, routes outside /v1 and the health check', async () => {
    const created = await api('POST', '/v1/projects', { body: { name: 'Sniff', slug: uniqueSlug('sniff') } });
    const answers: [string, ApiResponse][] = [
      ['201', created],
      ['200', await api('GET', `/v1/projects/${created.body.id}`)],
      ['200 openapi', await request(server.url, 'GET', '/v1/openapi.json')],
      ['400', await api('PATCH', `/v1/projects/${created.body.id}`, { body: { slug: 'no' } })],
      ['401', await request(server.url, 'GET', '/v1/projects')],
      ['404', await api('GET', '/v1/nothing-here')],
      ['404 outside /v1', await request(server.url, 'GET', '/nothing-here')],
      ['405', await api('PUT', '/v1/projects')],
      ['413', await api('POST', '/v1/projects', { body: 'x'.repeat(1024 * 1024 + 1) })],
      ['415', await api('POST', '/v1/projects', { body: '{}', headers: { 'content-type': 'text/plain' } })],
      ['healthz 200', await request(server.url, 'GET', '/healthz')],
      ['healthz 405', await request(server.url, 'POST', '/healthz')],
      ['204', await api('DELETE', `/v1/projects/${created.body.id}`)],
    ];
    for (const [what, res] of answers) expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
    expect(answers.map(([, res]) => res.status)).toEqual([201, 200, 200, 400, 401, 404, 404, 405, 413, 415, 200, 405, 204]);
  });

  it('is on a 429', async () => {
    const limited = await startServer({ env: { FOLIO_RATE_LIMITS: 'free=1' } });
    try {
      await request(limited.url, 'GET', '/v1/projects');
      const res = await request(limited.url, 'GET', '/v1/projects');
      expect(res.status).toBe(429);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    } finally {
      await limited.stop();
      await removeDir(limited.dataDir);
    }
  });
});
