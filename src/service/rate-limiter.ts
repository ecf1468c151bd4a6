// Fixed-window rate limiting (docs/decisions.md#rate-limits). One module with a small interface: a Redis-backed
// limiter (INCR + EXPIRE per window) can replace the in-memory one when there are several servers.

export const WINDOW_MS = 60_000;

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
  close(): void;
}

interface Window {
  start: number;
  count: number;
}

/** In-memory fixed windows. Counting is synchronous, so concurrent requests are counted exactly. */
export function createMemoryRateLimiter(): RateLimiter {
  const windows = new Map<string, Window>();
  const sweep = setInterval(() => {
    const current = Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS;
    for (const [bucket, w] of windows) if (w.start < current) windows.delete(bucket);
  }, WINDOW_MS);
  sweep.unref();

  return {
    async hit(bucket, limit, nowMs = Date.now()) {
      const start = Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
      let w = windows.get(bucket);
      if (!w || w.start !== start) windows.set(bucket, (w = { start, count: 0 }));
      const allowed = w.count < limit;
      if (allowed) w.count++;
      const end = start + WINDOW_MS;
      return {
        allowed,
        limit,
        remaining: Math.max(0, limit - w.count),
        reset: end / 1000,
        retryAfter: Math.max(1, Math.ceil((end - nowMs) / 1000)),
      };
    },
    close() {
      clearInterval(sweep);
    },
  };
}
