// Unit tests of the fixed-window rate limiters (docs/decisions.md#rate-limits): in memory (one
// node) and in PostgreSQL, where two limiters on separate connection pools stand for two nodes.
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { openPostgresStore, type PostgresStore } from '../../src/service/postgres/store.ts';
import { createPostgresRateLimiter } from '../../src/service/postgres/rate-limiter.ts';
import { createMemoryRateLimiter, WINDOW_MS, type RateLimiter } from '../../src/service/rate-limiter.ts';
import { createTestDatabase } from '../helpers/postgres.ts';

let limiter: RateLimiter;
afterEach(() => limiter.close());

const stores: PostgresStore[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
});

/** Two PostgreSQL limiters sharing one new database, used in turn: two nodes. */
async function twoNodeLimiter(): Promise<RateLimiter> {
  const url = await createTestDatabase(inject('postgresUrl'));
  const nodes = [await openPostgresStore(url), await openPostgresStore(url)];
  stores.push(...nodes);
  const limiters = nodes.map((node) => createPostgresRateLimiter(node.pool));
  let turn = 0;
  return {
    hit: (bucket, limit, nowMs) => limiters[turn++ % 2].hit(bucket, limit, nowMs),
    close: () => limiters.forEach((l) => l.close()),
  };
}

const kinds = [
  { name: 'memory rate limiter', create: async () => createMemoryRateLimiter() },
  { name: 'PostgreSQL rate limiter on two nodes', create: twoNodeLimiter },
];

describe.each(kinds)('$name', ({ create }) => {
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
