// Rate limits over HTTP (docs/decisions.md#rate-limits), with the contract's default plan limits,
// counted by each limiter: in memory (the JSON file), in PostgreSQL, and in Redis
// (FOLIO_REDIS_URL, beside PostgreSQL). The same answers are expected from all three.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase } from '../helpers/postgres.ts';
import { startRedis, type TestRedis } from '../helpers/redis.ts';
import { ADMIN, client, pinnedClock, removeDir, request, runNode, startServer, uniqueSlug, type ApiResponse, type CliResult, type TestServer } from '../helpers/server.ts';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.stop();
});

const limiters: { name: string; env: () => Promise<Record<string, string>> }[] = [
  { name: 'JSON file (in memory)', env: async () => ({}) },
  { name: 'PostgreSQL', env: async () => ({ FOLIO_DATABASE_URL: await createTestDatabase(inject('postgresUrl')) }) },
  { name: 'Redis', env: async () => ({ FOLIO_DATABASE_URL: await createTestDatabase(inject('postgresUrl')), FOLIO_REDIS_URL: redis.url }) },
];

describe.each(limiters)('counted by $name', ({ env }) => {
  let server: TestServer;
  let storeEnv: Record<string, string>;

  beforeAll(async () => {
    storeEnv = await env();
    // The limiter's clock stands still, so each burst below falls in one window.
    server = await startServer({ env: { ...storeEnv, ...pinnedClock(), FOLIO_RATE_LIMITS: 'free=60,pro=600,business=6000' } });
  });
  afterAll(async () => {
    await server.stop();
    await removeDir(server.dataDir);
  });

  /** `npm run admin -- …args` against this server's store. */
  function admin(dataDir: string, ...args: string[]): Promise<CliResult> {
    return runNode(ADMIN, args, { ...storeEnv, FOLIO_DATA_DIR: dataDir });
  }

  async function orgWithKey(dataDir: string, name: string, plan: string, scopes = 'all'): Promise<{ key: string }> {
    const org = await admin(dataDir, 'org', 'create', name, '--plan', plan);
    if (org.code !== 0) throw new Error(`org create failed: ${org.stderr}`);
    const created = await admin(dataDir, 'key', 'create', '--org', name, '--scopes', scopes);
    if (created.code !== 0) throw new Error(`key create failed: ${created.stderr}`);
    return { key: created.stdout.trim().split('\n').at(-1)! };
  }

  const statuses = (responses: ApiResponse[]) => responses.map((r) => r.status);

  describe('per-organization limits', () => {
    it('lets exactly 60 of 100 parallel requests of a Free org through; the rest get 429 with Retry-After', async () => {
      const { key } = await orgWithKey(server.dataDir, 'free-burst', 'free', 'projects:read');
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
});

describe('Redis that does not answer', () => {
  it('stops a node from starting with a message naming FOLIO_REDIS_URL, and makes a running node unhealthy without letting requests through', async () => {
    const databaseUrl = await createTestDatabase(inject('postgresUrl'));
    // Nothing listens on port 9.
    const refused = await startServer({ env: { FOLIO_DATABASE_URL: databaseUrl, FOLIO_REDIS_URL: 'redis://127.0.0.1:9' } }).then(
      (s) => s.stop().then(() => ''),
      (err: Error) => err.message,
    );
    expect(refused).toContain('FOLIO_REDIS_URL');

    const own = await startRedis();
    const server = await startServer({ env: { FOLIO_DATABASE_URL: databaseUrl, FOLIO_REDIS_URL: own.url } });
    try {
      expect((await request(server.url, 'GET', '/healthz')).status).toBe(200);
      await own.stop();
      const health = await request(server.url, 'GET', '/healthz');
      expect(health.status).toBe(503);
      expect(health.body.reason).toContain('Redis');
      // Nothing was counted, so there is no count to report in X-RateLimit-* headers.
      const answer = await request(server.url, 'GET', '/v1/projects', { key: server.defaultKey, outsideContract: 'the rate-limit counter is down: no X-RateLimit-* headers' });
      expect(answer.status).toBe(500);
      expect(answer.body.error).toBe('internal_error');
    } finally {
      await server.stop();
      await removeDir(server.dataDir);
    }
  });
});
