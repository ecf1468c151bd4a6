// API requests per minute of each organization over the last hour, for the console's usage chart
// (docs/decisions.md#build-progress-and-usage-on-every-server-issue-30-item-4-of-issue-28). Every
// rate limiter keeps the per-minute counts of `org:` buckets for an hour and reads them back
// (`RateLimiter.history`): rows of PostgreSQL, keys of Redis, and in memory the rings below.
// Constant work per request, and no extra round trip: the count is the one the limiter makes anyway.

export const HISTORY_MINUTES = 60;
const MINUTE_MS = 60_000;

export interface UsageMinute {
  /** Start of the minute (ISO). */
  at: string;
  requests: number;
}

/** The buckets whose counts are kept for an hour: an organization's (`org:<id>`); a client IP's only for its minute. */
export const ORG_BUCKET = 'org:';
export const keepsHistory = (bucket: string) => bucket.startsWith(ORG_BUCKET);
/** The rate-limit bucket of an organization's API requests. */
export const orgBucket = (orgId: string) => `${ORG_BUCKET}${orgId}`;

/** The start (ms) of the oldest minute of the hour that ends with `nowMs`'s minute. */
export const firstMinuteOf = (nowMs: number) => (Math.floor(nowMs / MINUTE_MS) - HISTORY_MINUTES + 1) * MINUTE_MS;

/** The starts (ms) of the minutes of the hour ending with `nowMs`'s minute, oldest first (HISTORY_MINUTES of them). */
export function minutesOfHour(nowMs: number): number[] {
  const first = firstMinuteOf(nowMs);
  return Array.from({ length: HISTORY_MINUTES }, (_, i) => first + i * MINUTE_MS);
}

/** The hour ending with `nowMs`'s minute, oldest first, each minute's count from `countAt(its start in ms)`. */
export function lastHourOf(nowMs: number, countAt: (startMs: number) => number): UsageMinute[] {
  return minutesOfHour(nowMs).map((start) => ({ at: new Date(start).toISOString(), requests: countAt(start) }));
}

export interface UsageHistory {
  /** Counts one request of a bucket. */
  record(bucket: string, nowMs?: number): void;
  /** The last hour, oldest minute first, the current minute last (always HISTORY_MINUTES entries). */
  lastHour(bucket: string, nowMs?: number): UsageMinute[];
}

interface Ring {
  /** counts[m % HISTORY_MINUTES] holds minute m, for minutes after `last - HISTORY_MINUTES`. */
  counts: number[];
  /** The newest minute counted (minutes since the epoch). */
  last: number;
}

/** The memory rate limiter's hour: 60 counters per bucket counted in the last hour, recycled as minutes pass. */
export function createUsageHistory(now: () => number = Date.now): UsageHistory {
  const rings = new Map<string, Ring>();
  /** Clears the slots of minutes between the ring's newest and `minute`, then makes `minute` the newest. */
  const advance = (ring: Ring, minute: number) => {
    for (let m = Math.max(ring.last + 1, minute - HISTORY_MINUTES + 1); m <= minute; m++) ring.counts[m % HISTORY_MINUTES] = 0;
    ring.last = Math.max(ring.last, minute);
  };
  return {
    record(bucket, nowMs = now()) {
      const minute = Math.floor(nowMs / MINUTE_MS);
      let ring = rings.get(bucket);
      if (!ring || ring.last <= minute - HISTORY_MINUTES) {
        // A bucket idle for an hour starts afresh; drop others idle as long, so the map stays small.
        for (const [id, r] of rings) if (r.last <= minute - HISTORY_MINUTES) rings.delete(id);
        ring = { counts: new Array<number>(HISTORY_MINUTES).fill(0), last: minute };
        rings.set(bucket, ring);
      }
      advance(ring, minute);
      ring.counts[minute % HISTORY_MINUTES]++;
    },
    lastHour(bucket, nowMs = now()) {
      const ring = rings.get(bucket);
      return lastHourOf(nowMs, (start) => {
        const m = start / MINUTE_MS;
        return ring !== undefined && m <= ring.last && m > ring.last - HISTORY_MINUTES ? ring.counts[m % HISTORY_MINUTES]! : 0;
      });
    },
  };
}
