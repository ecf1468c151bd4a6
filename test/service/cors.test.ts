// CORS for docs sites' API playgrounds (docs/decisions.md#cors): origins listed in
// FOLIO_CORS_ORIGINS get their preflights answered and may read /v1 answers with the rate-limit
// headers; any other origin gets no CORS header at all. Spoken over HTTP to the real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/service/config.ts';
import { request, startServer, type TestServer } from '../helpers/server.ts';

const DOCS = 'https://docs.example.com';
const LOCAL = 'http://127.0.0.1:4400';
let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startServer({ env: { FOLIO_CORS_ORIGINS: `${DOCS}, ${LOCAL}` } });
  key = server.defaultKey!;
}, 60_000);
afterAll(() => server?.stop());

const preflight = (origin: string, method = 'POST') =>
  request(server.url, 'OPTIONS', '/v1/projects', {
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type' },
    outsideContract: 'a CORS preflight is answered by the pipeline for every /v1 path, before routing',
  });

describe('CORS on /v1', () => {
  it('answers a preflight from a listed origin without a key: methods, Authorization and Content-Type allowed', async () => {
    const res = await preflight(LOCAL);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(LOCAL);
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toBe('authorization, content-type');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('vary')).toContain('Origin');
  });

  it('lets a listed origin read answers and the rate-limit headers, errors included', async () => {
    const ok = await request(server.url, 'GET', '/v1/projects', { key, headers: { origin: DOCS } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(DOCS);
    const exposed = ok.headers.get('access-control-expose-headers') ?? '';
    for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After']) expect(exposed).toContain(name);
    expect(ok.headers.get('vary')).toContain('Origin');
    const unauthorized = await request(server.url, 'GET', '/v1/projects', { headers: { origin: DOCS } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('access-control-allow-origin')).toBe(DOCS);
  });

  it('gives any other origin no CORS header, so browsers keep its pages out', async () => {
    for (const origin of ['https://evil.example.com', 'https://docs.example.com.evil.example.com', 'null', `${DOCS}/`]) {
      const pre = await preflight(origin);
      expect(pre.status, origin).toBe(401);
      expect(pre.headers.get('access-control-allow-origin'), origin).toBeNull();
      const res = await request(server.url, 'GET', '/v1/projects', { key, headers: { origin } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin'), origin).toBeNull();
      expect(res.headers.get('access-control-expose-headers')).toBeNull();
    }
  });
});

describe('FOLIO_CORS_ORIGINS', () => {
  it('is empty by default and takes exact origins only', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ FOLIO_CORS_ORIGINS: 'https://a.example.com,http://localhost:8080' }).corsOrigins).toEqual(['https://a.example.com', 'http://localhost:8080']);
    for (const bad of ['*', 'https://a.example.com/', 'https://a.example.com/docs', 'ftp://a.example.com', 'a.example.com']) {
      expect(() => loadConfig({ FOLIO_CORS_ORIGINS: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ FOLIO_CORS_ORIGINS: bad }), bad).toThrow(/^Invalid FOLIO_CORS_ORIGINS=.*is not an origin/);
    }
  });
});
