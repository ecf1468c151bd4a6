// Unit tests of the fixed-window rate limiter (docs/decisions.md#rate-limits).
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryRateLimiter, WINDOW_MS, type RateLimiter } from '../../src/service/rate-limiter.ts';

let limiter: RateLimiter;
afterEach(() => limiter.close());

describe('memory rate limiter', () => {
  it('allows exactly the limit within one window under concurrent calls', async () => {
    limiter = createMemoryRateLimiter();
    const now = 10 * WINDOW_MS + 5_000;
    const decisions = await Promise.all(Array.from({ length: 100 }, () => limiter.hit('org:a', 60, now)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(60);
    expect(Math.min(...decisions.map((d) => d.remaining))).toBe(0);
    expect(decisions.every((d) => d.remaining >= 0)).toBe(true);
  });

  it('reports the window end in epoch seconds and the seconds left', async () => {
    limiter = createMemoryRateLimiter();
    const start = 10 * WINDOW_MS;
    const d = await limiter.hit('org:a', 2, start + 15_500);
    expect(d).toMatchObject({ allowed: true, limit: 2, remaining: 1, reset: (start + WINDOW_MS) / 1000, retryAfter: 45 });
  });

  it('starts a fresh count in the next window', async () => {
    limiter = createMemoryRateLimiter();
    const start = 20 * WINDOW_MS;
    await limiter.hit('org:a', 1, start);
    expect((await limiter.hit('org:a', 1, start + 1)).allowed).toBe(false);
    expect((await limiter.hit('org:a', 1, start + WINDOW_MS)).allowed).toBe(true);
  });

  it('keeps buckets apart and applies a changed limit to the running window', async () => {
    limiter = createMemoryRateLimiter();
    const now = 30 * WINDOW_MS;
    for (let i = 0; i < 3; i++) await limiter.hit('org:a', 3, now);
    expect((await limiter.hit('org:a', 3, now)).allowed).toBe(false);
    expect((await limiter.hit('org:b', 3, now)).allowed).toBe(true);
    // A plan upgrade mid-window: the same count, a higher limit.
    expect(await limiter.hit('org:a', 10, now)).toMatchObject({ allowed: true, remaining: 6 });
  });
});
