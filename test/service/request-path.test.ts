// The service's own endpoints (/v1, /healthz) answer the same whichever way a request takes through
// the adapter (docs/decisions.md#the-service-endpoints-fast-path): a plain path goes straight to
// the endpoint's handler; a path Astro must decode first (here `%76` for `v`) goes through Astro's
// own route match and render. Spoken over HTTP to the real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENEROUS_LIMITS, request, startServer, type ApiResponse, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startServer({ env: { FOLIO_RATE_LIMITS: GENEROUS_LIMITS } });
  key = server.defaultKey!;
}, 60_000);
afterAll(() => server?.stop());

const ASTRO_WAY = 'the same path percent-encoded, so that Astro decodes it to match its route';
/** The path with its first `v` or `h` percent-encoded: the same route for Astro, which decodes paths before matching. */
const encoded = (path: string) => path.replace(/^\/([vh])/, (_, c: string) => `/%${c.charCodeAt(0).toString(16)}`);

/** The parts of an answer a client sees, but the rate-limit counters that change from one request to the next. */
function seen(res: ApiResponse) {
  const headers = [...res.headers].filter(([name]) => !['date', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'keep-alive', 'connection'].includes(name));
  return { status: res.status, headers, text: res.text };
}

describe('the service endpoints, straight or through Astro', () => {
  it('answer a GET and a HEAD of /v1 the same, with the same headers; HEAD has the GET\'s length and no body', async () => {
    const created = await request(server.url, 'POST', '/v1/projects', { key, body: { name: 'Straight', slug: 'straight' } });
    expect(created.status).toBe(201);
    const path = `/v1/projects/${created.body.id}`;
    const straight = await request(server.url, 'GET', path, { key });
    const astro = await request(server.url, 'GET', encoded(path), { key, outsideContract: ASTRO_WAY });
    expect(straight.status).toBe(200);
    expect(straight.body.slug).toBe('straight');
    expect(straight.headers.get('x-content-type-options')).toBe('nosniff');
    expect(straight.headers.get('x-ratelimit-limit')).not.toBeNull();
    expect(seen(astro)).toEqual(seen(straight));

    const head = await request(server.url, 'HEAD', path, { key, outsideContract: 'HEAD is GET without a body' });
    const astroHead = await request(server.url, 'HEAD', encoded(path), { key, outsideContract: ASTRO_WAY });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('content-length')).toBe(straight.headers.get('content-length'));
    expect(seen(astroHead)).toEqual(seen(head));
  });

  it('read a request body the same way: a created project, a refused JSON, a missing key', async () => {
    const straight = await request(server.url, 'POST', '/v1/projects', { key, body: { name: 'Body', slug: 'body-straight' } });
    const astro = await request(server.url, 'POST', encoded('/v1/projects'), { key, body: { name: 'Body', slug: 'body-astro' }, outsideContract: ASTRO_WAY });
    expect([straight.status, astro.status]).toEqual([201, 201]);
    expect(astro.body.slug).toBe('body-astro');

    const badJson = await request(server.url, 'POST', '/v1/projects', { key, body: '{"name": ' });
    const astroBadJson = await request(server.url, 'POST', encoded('/v1/projects'), { key, body: '{"name": ', outsideContract: ASTRO_WAY });
    expect(badJson.status).toBe(400);
    expect(seen(astroBadJson)).toEqual(seen(badJson));

    const noKey = await request(server.url, 'PATCH', '/v1/projects/nope', { body: { name: 'x' } });
    const astroNoKey = await request(server.url, 'PATCH', encoded('/v1/projects/nope'), { body: { name: 'x' }, outsideContract: ASTRO_WAY });
    expect(noKey.status).toBe(401);
    expect(noKey.headers.get('www-authenticate')).toBe('Bearer');
    expect(seen(astroNoKey)).toEqual(seen(noKey));
  });

  it('answer /healthz the same, with or without a trailing slash, and HEAD with no body', async () => {
    const straight = await request(server.url, 'GET', '/healthz');
    expect(straight.status).toBe(200);
    expect(straight.body).toEqual({ status: 'ok' });
    for (const path of ['/healthz/', encoded('/healthz')]) {
      expect(seen(await request(server.url, 'GET', path, { outsideContract: ASTRO_WAY })), path).toEqual(seen(straight));
    }
    const head = await request(server.url, 'HEAD', '/healthz', { outsideContract: 'HEAD is GET without a body' });
    expect([head.status, head.text, head.headers.get('content-length')]).toEqual([200, '', straight.headers.get('content-length')]);
  });
});
