// Unit tests of the fixed-window rate limiters (docs/decisions.md#rate-limits): in memory (one
// node), in PostgreSQL, where two limiters on separate connection pools stand for two nodes, and in
// Redis (FOLIO_REDIS_URL), where two limiters on separate connections stand for two nodes.
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { openPostgresStore, type PostgresStore } from '../../src/service/store/postgres/index.ts';
import { createPostgresRateLimiter, sweepRateLimitWindows } from '../../src/service/postgres/rate-limiter.ts';
import { createMemoryRateLimiter, WINDOW_MS, type Clock, type RateLimiter } from '../../src/service/rate-limiter.ts';
import { HISTORY_MINUTES } from '../../src/service/usage-history.ts';
import { openRedisRateLimiter } from '../../src/service/redis/rate-limiter.ts';
import { createTestDatabase } from '../helpers/postgres.ts';
import { startRedis, type TestRedis } from '../helpers/redis.ts';

let limiter: RateLimiter;
afterEach(() => limiter.close());

const stores: PostgresStore[] = [];
let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  for (const store of stores) await store.close();
  await redis.stop();
});

/** Two limiters taking turns: two nodes sharing one count. */
function inTurn(limiters: RateLimiter[]): RateLimiter {
  let turn = 0;
  return {
    hit: (bucket, limit, nowMs) => limiters[turn++ % 2].hit(bucket, limit, nowMs),
    peek: (bucket, limit, nowMs) => limiters[turn++ % 2].peek(bucket, limit, nowMs),
    history: (bucket, nowMs) => limiters[turn++ % 2].history(bucket, nowMs),
    close: () => limiters.forEach((l) => l.close()),
  };
}

/** Two PostgreSQL limiters sharing one new database, used in turn: two nodes. */
async function twoNodeLimiter(now?: Clock): Promise<RateLimiter> {
  const url = await createTestDatabase(inject('postgresUrl'));
  const nodes = [await openPostgresStore(url), await openPostgresStore(url)];
  stores.push(...nodes);
  return inTurn(nodes.map((node) => createPostgresRateLimiter(node.pool, now)));
}

/** Two Redis limiters on their own connections, with a key prefix of their own in the shared server. */
async function twoNodeRedisLimiter(now?: Clock): Promise<RateLimiter> {
  const db = `${redis.url}/${++redisDatabases}`;
  return inTurn([await openRedisRateLimiter(db, now), await openRedisRateLimiter(db, now)]);
}
let redisDatabases = 0;

const kinds = [
  { name: 'memory rate limiter', create: async (now?: Clock) => createMemoryRateLimiter(now) },
  { name: 'PostgreSQL rate limiter on two nodes', create: twoNodeLimiter },
  { name: 'Redis rate limiter on two nodes', create: twoNodeRedisLimiter },
];

describe.each(kinds)('$name', ({ create }) => {
  it('counts by the clock it was given when a request brings no time (a test pins the server\'s, FOLIO_TEST_CLOCK)', async () => {
    let clock = 30 * WINDOW_MS + 59_000;
    limiter = await create(() => clock);
    expect(await limiter.hit('org:c', 1)).toMatchObject({ allowed: true, reset: (31 * WINDOW_MS) / 1000, retryAfter: 1 });
    expect(await limiter.peek('org:c', 1)).toMatchObject({ allowed: false, remaining: 0 });
    expect((await limiter.hit('org:c', 1)).allowed).toBe(false);
    clock += 1_000; // the next window, by that clock alone
    expect(await limiter.hit('org:c', 1)).toMatchObject({ allowed: true, retryAfter: 60 });
    expect((await limiter.history('c')).slice(-2)).toEqual([
      { at: new Date(30 * WINDOW_MS).toISOString(), requests: 1 },
      { at: new Date(31 * WINDOW_MS).toISOString(), requests: 1 },
    ]);
  });

  it('peeks at the use of a window without counting (the console\'s Organization page, sign-in limits)', async () => {
    limiter = await create();
    const now = 20 * WINDOW_MS + 1_000;
    expect(await limiter.peek('org:p', 3, now)).toMatchObject({ allowed: true, remaining: 3 });
    await limiter.hit('org:p', 3, now);
    await limiter.hit('org:p', 3, now);
    for (let i = 0; i < 3; i++) expect(await limiter.peek('org:p', 3, now)).toMatchObject({ allowed: true, remaining: 1, retryAfter: 59 });
    await limiter.hit('org:p', 3, now);
    expect(await limiter.peek('org:p', 3, now)).toMatchObject({ allowed: false, remaining: 0 });
    expect(await limiter.peek('org:p', 3, now + WINDOW_MS)).toMatchObject({ allowed: true, remaining: 3 });
  });

  it('allows exactly the limit within one window under concurrent calls', async () => {
    limiter = await create();
    const now = 10 * WINDOW_MS + 5_000;
    const decisions = await Promise.all(Array.from({ length: 100 }, () => limiter.hit('org:a', 60, now)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(60);
    expect(Math.min(...decisions.map((d) => d.remaining))).toBe(0);
    expect(decisions.every((d) => d.remaining >= 0)).toBe(true);
  });

  it('reports the window end in epoch seconds and the seconds left', async () => {
    limiter = await create();
    const start = 10 * WINDOW_MS;
    const d = await limiter.hit('org:a', 2, start + 15_500);
    expect(d).toMatchObject({ allowed: true, limit: 2, remaining: 1, reset: (start + WINDOW_MS) / 1000, retryAfter: 45 });
  });

  it('starts a fresh count in the next window', async () => {
    limiter = await create();
    const start = 20 * WINDOW_MS;
    await limiter.hit('org:a', 1, start);
    expect((await limiter.hit('org:a', 1, start + 1)).allowed).toBe(false);
    expect((await limiter.hit('org:a', 1, start + WINDOW_MS)).allowed).toBe(true);
  });

  it("keeps an organization's counts per minute for an hour, whichever node counted them (the console's usage chart)", async () => {
    limiter = await create();
    const t0 = 100 * WINDOW_MS;
    // Three counted and one refused in the first minute, two in the next.
    for (let i = 0; i < 4; i++) await limiter.hit('org:u', 3, t0 + i);
    for (let i = 0; i < 2; i++) await limiter.hit('org:u', 3, t0 + WINDOW_MS + i);
    const counts = async (org: string, at: number) => (await limiter.history(org, at)).map((m) => m.requests);
    for (let read = 0; read < 2; read++) {
      // Read on either node: both see every count.
      const hour = await limiter.history('u', t0 + WINDOW_MS + 5);
      expect(hour).toHaveLength(HISTORY_MINUTES);
      expect(hour.at(-1)!.at).toBe(new Date(t0 + WINDOW_MS).toISOString());
      expect(hour.map((m) => m.requests).slice(-3)).toEqual([0, 3, 2]);
    }
    expect((await counts('u', t0 + WINDOW_MS)).reduce((a, b) => a + b)).toBe(5);
    expect((await counts('other', t0)).every((c) => c === 0)).toBe(true);
    // 59 minutes on the first minute is the chart's oldest; a minute later it is out of the hour.
    expect((await counts('u', t0 + 59 * WINDOW_MS))[0]).toBe(3);
    expect((await counts('u', t0 + 60 * WINDOW_MS))[0]).toBe(2);
    expect((await counts('u', t0 + 61 * WINDOW_MS)).every((c) => c === 0)).toBe(true);
  });

  it('keeps buckets apart and applies a changed limit to the running window', async () => {
    limiter = await create();
    const now = 30 * WINDOW_MS;
    for (let i = 0; i < 3; i++) await limiter.hit('org:a', 3, now);
    expect((await limiter.hit('org:a', 3, now)).allowed).toBe(false);
    expect((await limiter.hit('org:b', 3, now)).allowed).toBe(true);
    // A plan upgrade mid-window: the same count, a higher limit.
    expect(await limiter.hit('org:a', 10, now)).toMatchObject({ allowed: true, remaining: 6 });
  });
});

describe('PostgreSQL: the sweep of past windows', () => {
  it("keeps an organization's windows for an hour and a client IP's only for their minute", async () => {
    const url = await createTestDatabase(inject('postgresUrl'));
    const store = await openPostgresStore(url);
    stores.push(store);
    limiter = createPostgresRateLimiter(store.pool);
    const t0 = 200 * WINDOW_MS;
    for (const minute of [0, 30, 59]) {
      await limiter.hit('org:s', 10, t0 + minute * WINDOW_MS);
      await limiter.hit('ip:192.0.2.7', 10, t0 + minute * WINDOW_MS);
    }
    await sweepRateLimitWindows(store.pool, t0 + 60 * WINDOW_MS);
    const { rows } = await store.pool.query<{ bucket: string; window_start: string }>('SELECT bucket, window_start FROM rate_limit_windows ORDER BY bucket, window_start');
    expect(rows.map((r) => `${r.bucket} ${(Number(r.window_start) - t0) / WINDOW_MS}`)).toEqual(['org:s 30', 'org:s 59']);
    expect((await limiter.history('s', t0 + 60 * WINDOW_MS)).map((m) => m.requests).filter((n) => n > 0)).toEqual([1, 1]);
  });
});

describe('PostgreSQL: key, plan and count in one statement (hitByKey)', () => {
  it('numbers every counted request exactly once across two nodes, and a revocation holds on the next request', async () => {
    const url = await createTestDatabase(inject('postgresUrl'));
    const nodes = [await openPostgresStore(url), await openPostgresStore(url)];
    stores.push(...nodes);
    const [a, b] = nodes.map((node) => createPostgresRateLimiter(node.pool));
    limiter = inTurn([a!, b!]);
    const now = new Date().toISOString();
    await nodes[0]!.createOrg({ id: 'org-hit', name: 'hit', plan: 'pro', created_at: now });
    await nodes[0]!.createKey({ id: 'key-hit', org_id: 'org-hit', name: 'k', prefix: 'folio_hit', hash: 'hash-hit', scopes: ['projects:read'], created_at: now, last_used_at: null, revoked_at: null });
    const limits = { free: 5, pro: 40, business: 1000 };
    const at = 40 * WINDOW_MS + 1_000;
    // Concurrent requests on one node wait for its statement in flight and are counted together.
    const hits = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? a! : b!).hitByKey!('hash-hit', limits, at)));
    expect(hits.every((h) => h?.plan === 'pro' && h.key.id === 'key-hit')).toBe(true);
    const allowed = hits.filter((h) => h!.decision!.allowed);
    expect(allowed).toHaveLength(40);
    expect(allowed.map((h) => h!.decision!.remaining).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(hits.filter((h) => !h!.decision!.allowed).every((h) => h!.decision!.remaining === 0)).toBe(true);
    expect(await a!.hitByKey!('no-such-hash', limits, at)).toBeUndefined();

    await nodes[1]!.revokeKey('key-hit', new Date().toISOString());
    const after = await Promise.all([a!.hitByKey!('hash-hit', limits, at + WINDOW_MS), b!.hitByKey!('hash-hit', limits, at + WINDOW_MS)]);
    expect(after.every((h) => h?.key.revoked_at && h.decision === undefined)).toBe(true);
    expect(await a!.peek('org:org-hit', 40, at + WINDOW_MS)).toMatchObject({ remaining: 40 });
  });
});
