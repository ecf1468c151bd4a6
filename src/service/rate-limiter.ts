// Fixed-window rate limiting (docs/decisions.md#rate-limits). One small interface, three limiters:
// in memory (here), in PostgreSQL (postgres/rate-limiter.ts) and in Redis (redis/rate-limiter.ts).

import type { Plan, RateLimits } from './config.ts';
import type { ApiKeyRecord } from './store/records.ts';
import { createUsageHistory, keepsHistory, orgBucket, type UsageMinute } from './usage-history.ts';

export const WINDOW_MS = 60_000;

/**
 * What time it is for a limiter, in Unix epoch ms: `Date.now` in production. Tests that start a
 * server pin it (FOLIO_TEST_CLOCK, src/service/config.ts) so that a burst never straddles two windows.
 */
export type Clock = () => number;

export interface RateLimitDecision {
  allowed: boolean;
  /** The per-window limit that applied. */
  limit: number;
  /** Requests left in this window, never negative. */
  remaining: number;
  /** Unix epoch seconds at which the current window ends. */
  reset: number;
  /** Whole seconds until the window ends (at least 1). */
  retryAfter: number;
}

export interface RateLimiter {
  /** Counts one request against `bucket` unless it is already at `limit`. */
  hit(bucket: string, limit: number, nowMs?: number): Promise<RateLimitDecision>;
  /** What `hit` would answer about the current window, without counting. */
  peek(bucket: string, limit: number, nowMs?: number): Promise<RateLimitDecision>;
  /**
   * The requests counted in each minute of the last hour in an organization's bucket (`org:<id>`,
   * src/service/usage-history.ts), by every node sharing the limiter. Only those buckets are kept.
   */
  history(orgId: string, nowMs?: number): Promise<UsageMinute[]>;
  /**
   * Optional fast path of a limiter that lives beside the keys (PostgreSQL): finds the key with
   * this hash and its org's plan and, when the key is not revoked, counts the request against
   * `org:<org id>` at that plan's limit — all in one step. Undefined when no key has the hash.
   */
  hitByKey?(hash: string, limits: RateLimits, nowMs?: number): Promise<KeyHit | undefined>;
  /** Whether a limiter that is a server of its own (Redis) answers; absent for the others. */
  isHealthy?(): Promise<boolean>;
  close(): void;
}

export interface KeyHit {
  key: ApiKeyRecord;
  plan: Plan;
  /** Absent when the key is revoked: nothing was counted. */
  decision?: RateLimitDecision;
}

/** The answer about a window starting at `start` that holds `count` requests (the counted one included). */
export function windowDecision(start: number, allowed: boolean, count: number, limit: number, nowMs: number): RateLimitDecision {
  const end = start + WINDOW_MS;
  return {
    allowed,
    limit,
    remaining: Math.max(0, limit - count),
    reset: end / 1000,
    retryAfter: Math.max(1, Math.ceil((end - nowMs) / 1000)),
  };
}

interface Window {
  start: number;
  count: number;
}

/** In-memory fixed windows. Counting is synchronous, so concurrent requests are counted exactly. */
export function createMemoryRateLimiter(now: Clock = Date.now): RateLimiter {
  const windows = new Map<string, Window>();
  const past = createUsageHistory(now);
  const sweep = setInterval(() => {
    const current = Math.floor(now() / WINDOW_MS) * WINDOW_MS;
    for (const [bucket, w] of windows) if (w.start < current) windows.delete(bucket);
  }, WINDOW_MS);
  sweep.unref();

  const decide = (bucket: string, limit: number, nowMs: number, count: boolean): RateLimitDecision => {
    const start = Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
    let w = windows.get(bucket);
    if (!w || w.start !== start) {
      w = { start, count: 0 };
      if (count) windows.set(bucket, w);
    }
    const allowed = w.count < limit;
    if (allowed && count) {
      w.count++;
      if (keepsHistory(bucket)) past.record(bucket, nowMs);
    }
    return windowDecision(start, allowed, w.count, limit, nowMs);
  };

  return {
    async hit(bucket, limit, nowMs = now()) {
      return decide(bucket, limit, nowMs, true);
    },
    async peek(bucket, limit, nowMs = now()) {
      return decide(bucket, limit, nowMs, false);
    },
    async history(orgId, nowMs = now()) {
      return past.lastHour(orgBucket(orgId), nowMs);
    },
    close() {
      clearInterval(sweep);
    },
  };
}
