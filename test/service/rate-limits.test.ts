// Rate limits over HTTP (docs/decisions.md#rate-limits), with the contract's default plan limits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, client, orgWithKey, removeDir, request, startServer, uniqueSlug, type ApiResponse, type TestServer } from '../helpers/server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ env: { FOLIO_RATE_LIMITS: 'free=60,pro=600,business=6000' } });
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

/** Windows are fixed minutes: start a burst well inside one so it cannot straddle two. */
async function awayFromWindowEdge(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 8_000) await new Promise((r) => setTimeout(r, left + 200));
}

const statuses = (responses: ApiResponse[]) => responses.map((r) => r.status);

describe('per-organization limits', () => {
  it('lets exactly 60 of 100 parallel requests of a Free org through; the rest get 429 with Retry-After', async () => {
    const { key } = await orgWithKey(server.dataDir, 'free-burst', 'free', 'projects:read');
    await awayFromWindowEdge();
    const responses = await Promise.all(Array.from({ length: 100 }, () => request(server.url, 'GET', '/v1/projects', { key })));
    expect(statuses(responses).filter((s) => s !== 429)).toHaveLength(60);
    expect(statuses(responses).filter((s) => s === 200)).toHaveLength(60);
    for (const res of responses) {
      expect(res.headers.get('x-ratelimit-limit')).toBe('60');
      expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
      if (res.status !== 429) continue;
      expect(res.body.error).toBe('rate_limited');
      expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
      const retry = Number(res.headers.get('retry-after'));
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(60);
      expect(Number(res.headers.get('x-ratelimit-reset')) - Date.now() / 1000).toBeLessThanOrEqual(retry + 1);
    }
  });

  it('executes nothing for a 429, and a plan change through the admin CLI takes effect at once', async () => {
    const { key } = await orgWithKey(server.dataDir, 'free-writes', 'free');
    const mine = client(server.url, key);
    await awayFromWindowEdge();
    const slugs = Array.from({ length: 100 }, () => uniqueSlug('rl'));
    const responses = await Promise.all(slugs.map((slug) => mine('POST', '/v1/projects', { body: { name: 'Limited', slug } })));
    expect(statuses(responses).filter((s) => s === 201)).toHaveLength(60);
    expect(statuses(responses).filter((s) => s === 429)).toHaveLength(40);
    expect((await mine('GET', '/v1/projects')).status).toBe(429);

    const upgraded = await admin(server.dataDir, 'org', 'set-plan', 'free-writes', 'pro');
    expect(upgraded.code).toBe(0);
    const list = await mine('GET', '/v1/projects?limit=100');
    expect(list.status).toBe(200);
    expect(list.headers.get('x-ratelimit-limit')).toBe('600');
    expect(list.body.data).toHaveLength(60);
    // The refused creates left no trace: their slugs are still free.
    const refused = slugs.filter((_, i) => responses[i].status === 429);
    expect((await mine('POST', '/v1/projects', { body: { name: 'Late', slug: refused[0] } })).status).toBe(201);

    const downgraded = await admin(server.dataDir, 'org', 'set-plan', 'free-writes', 'free');
    expect(downgraded.code).toBe(0);
    const after = await mine('GET', '/v1/projects');
    expect(after.status).toBe(429);
    expect(after.headers.get('x-ratelimit-limit')).toBe('60');
  });

  it('counts all keys of an org against one budget, and other orgs separately', async () => {
    const { key: first } = await orgWithKey(server.dataDir, 'shared-budget', 'pro');
    const second = (await admin(server.dataDir, 'key', 'create', '--org', 'shared-budget')).stdout.trim().split('\n').at(-1)!;
    const { key: stranger } = await orgWithKey(server.dataDir, 'stranger', 'pro');
    await awayFromWindowEdge();
    const a = await request(server.url, 'GET', '/v1/projects', { key: first });
    const b = await request(server.url, 'GET', '/v1/projects', { key: second });
    const c = await request(server.url, 'GET', '/v1/projects', { key: stranger });
    expect(a.headers.get('x-ratelimit-remaining')).toBe('599');
    expect(b.headers.get('x-ratelimit-remaining')).toBe('598');
    expect(c.headers.get('x-ratelimit-remaining')).toBe('599');
  });
});

describe('requests without a valid key', () => {
  it('are counted per client IP at the Free limit, and do not touch an org budget', async () => {
    await awayFromWindowEdge();
    const responses = await Promise.all(Array.from({ length: 100 }, (_, i) =>
      request(server.url, 'GET', i % 2 ? '/v1/projects' : '/v1/unknown', i % 3 ? {} : { key: `folio_${'x'.repeat(43)}` })));
    expect(statuses(responses).filter((s) => s === 401)).toHaveLength(60);
    expect(statuses(responses).filter((s) => s === 429)).toHaveLength(40);
    for (const res of responses) expect(res.headers.get('x-ratelimit-limit')).toBe('60');
    const publicDoc = await request(server.url, 'GET', '/v1/openapi.json');
    expect(publicDoc.status).toBe(429);
    expect(publicDoc.headers.get('retry-after')).toBeTruthy();
    const withKey = await request(server.url, 'GET', '/v1/projects', { key: server.defaultKey });
    expect(withKey.status).toBe(200);
    expect(withKey.headers.get('x-ratelimit-limit')).toBe('6000');
  });
});
