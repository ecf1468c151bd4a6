// Fixed windows counted in PostgreSQL (docs/decisions.md#rate-limits-in-postgresql), so that the
// limit holds exactly across every node sharing the database: the count is incremented and
// compared in one statement, and a request over the limit changes nothing.
//
// Every request of a client counts on one row (`org:<id>` in the current minute), so concurrent
// requests queue for its lock. A node therefore sends at most one counting statement per bucket
// (or key) at a time: requests arriving while one is in flight wait for it and are then counted
// together by the next statement (`count + n`, all or nothing). No request ever joins a statement
// that started before it arrived, so a revoked key or a changed plan still holds on the very next
// request, and the counts stay exact: each counted request gets its own number in the window.
import type pg from 'pg';
import type { Plan, RateLimits } from '../config.ts';
import { WINDOW_MS, windowDecision, type Clock, type KeyHit, type RateLimitDecision, type RateLimiter } from '../rate-limiter.ts';
import { createLanes, type Waiter } from './lanes.ts';
import type { ApiKeyRecord } from '../store/records.ts';
import { firstMinuteOf, lastHourOf, ORG_BUCKET, orgBucket } from '../usage-history.ts';

/** Counted numbers of a batch of `n` whose last count is `last`: the first request got `last - n + 1`. */
const countsOf = (n: number, last: number) => Array.from({ length: n }, (_, i) => last - n + 1 + i);

/** Deletes past windows, but keeps an organization's for an hour: they are its usage chart. */
export async function sweepRateLimitWindows(pool: pg.Pool, nowMs = Date.now()): Promise<void> {
  const current = Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
  await pool.query('DELETE FROM rate_limit_windows WHERE window_start < $1 AND (window_start < $2 OR left(bucket, $3) <> $4)', [current, firstMinuteOf(nowMs), ORG_BUCKET.length, ORG_BUCKET]);
}

/**
 * Windows are counted by the server's clock (`now`), not the database's: `window_start` is computed
 * here and sent, so every limiter agrees on what a minute is, and a test can pin the clock.
 */
export function createPostgresRateLimiter(pool: pg.Pool, now: Clock = Date.now): RateLimiter {
  const sweep = setInterval(() => void sweepRateLimitWindows(pool, now()).catch(() => {}), WINDOW_MS);
  sweep.unref();
  const bucketLanes = createLanes<RateLimitDecision>();
  const keyLanes = createLanes<KeyHit | undefined>();

  /** Counts `n` requests in `bucket` if all fit under `limit`; the last count, or undefined when they do not fit. */
  const add = async (bucket: string, start: number, limit: number, n: number): Promise<number | undefined> => {
    const { rows } = await pool.query<{ count: number }>({
      name: 'rate_limit_hit',
      text: `INSERT INTO rate_limit_windows AS w (bucket, window_start, count) SELECT $1, $2, $4::int WHERE $4::int <= $3::int
             ON CONFLICT (bucket, window_start) DO UPDATE SET count = w.count + $4::int WHERE w.count + $4::int <= $3::int
             RETURNING count`,
      values: [bucket, start, limit, n],
    });
    return rows[0]?.count;
  };

  /** Counts the waiters in order; a batch that does not fit whole is counted one by one (only near the limit). */
  const countBucket = async (bucket: string, start: number, limit: number, waiters: Waiter<RateLimitDecision>[]) => {
    const last = await add(bucket, start, limit, waiters.length);
    if (last !== undefined) return countsOf(waiters.length, last).map((c, i) => windowDecision(start, true, c, limit, waiters[i]!.nowMs));
    const decisions: RateLimitDecision[] = [];
    for (const w of waiters) {
      const count = waiters.length === 1 ? undefined : await add(bucket, start, limit, 1);
      decisions.push(windowDecision(start, count !== undefined, count ?? limit, limit, w.nowMs));
    }
    return decisions;
  };

  // One statement, one round trip (docs/decisions.md#rate-limits-in-postgresql): the key, its org's
  // plan read now (a plan change applies at once), and `n` counts in the same bucket as hit(). A
  // revoked key counts nothing here; the caller then counts by client IP.
  const hitKey = async (hash: string, start: number, limits: RateLimits, n: number) => {
    const { rows } = await pool.query({
      name: 'rate_limit_hit_by_key',
      text: `WITH k AS (
               SELECT k.*, COALESCE(o.plan, 'free') AS org_plan,
                      CASE o.plan WHEN 'pro' THEN $4::int WHEN 'business' THEN $5::int ELSE $3::int END AS org_limit
               FROM api_keys k LEFT JOIN orgs o ON o.id = k.org_id WHERE k.hash = $1
             ), hit AS (
               INSERT INTO rate_limit_windows AS w (bucket, window_start, count)
               SELECT 'org:' || k.org_id, $2, $6::int FROM k WHERE k.revoked_at IS NULL AND $6::int <= k.org_limit
               ON CONFLICT (bucket, window_start) DO UPDATE SET count = w.count + $6::int
                 WHERE w.count + $6::int <= (SELECT org_limit FROM k)
               RETURNING count
             )
             SELECT k.*, (SELECT count FROM hit) AS hit_count FROM k`,
      values: [hash, start, limits.free, limits.pro, limits.business, n],
    });
    if (!rows[0]) return undefined;
    const { org_plan, org_limit, hit_count, ...key } = rows[0] as Record<string, unknown>;
    return { key: key as unknown as ApiKeyRecord, plan: org_plan as Plan, limit: org_limit as number, last: hit_count as number | null };
  };

  const countKey = async (hash: string, start: number, limits: RateLimits, waiters: Waiter<KeyHit | undefined>[]) => {
    const found = await hitKey(hash, start, limits, waiters.length);
    if (!found) return waiters.map(() => undefined);
    const { key, plan, limit, last } = found;
    const hit = (decision?: RateLimitDecision): KeyHit => ({ key: { ...key }, plan, decision });
    if (key.revoked_at) return waiters.map(() => hit());
    if (last !== null) return countsOf(waiters.length, last).map((c, i) => hit(windowDecision(start, true, c, limit, waiters[i]!.nowMs)));
    // Not all fit: one by one, in the key's org bucket (re-reading the key each time keeps a revocation exact).
    if (waiters.length === 1) return [hit(windowDecision(start, false, limit, limit, waiters[0]!.nowMs))];
    const hits: (KeyHit | undefined)[] = [];
    for (const w of waiters) {
      const one = await hitKey(hash, start, limits, 1);
      hits.push(one && { key: one.key, plan: one.plan, decision: one.key.revoked_at ? undefined : windowDecision(start, one.last !== null, one.last ?? one.limit, one.limit, w.nowMs) });
    }
    return hits;
  };

  return {
    hit(bucket, limit, nowMs = now()) {
      const start = Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
      return bucketLanes(`${bucket}\n${start}\n${limit}`, nowMs, (waiters) => countBucket(bucket, start, limit, waiters));
    },
    hitByKey(hash, limits, nowMs = now()) {
      const start = Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
      return keyLanes(`${hash}\n${start}`, nowMs, (waiters) => countKey(hash, start, limits, waiters));
    },
    async peek(bucket, limit, nowMs = now()) {
      const start = Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
      const { rows } = await pool.query<{ count: number }>({
        name: 'rate_limit_peek',
        text: 'SELECT count FROM rate_limit_windows WHERE bucket = $1 AND window_start = $2',
        values: [bucket, start],
      });
      const count = rows[0]?.count ?? 0;
      return windowDecision(start, count < limit, count, limit, nowMs);
    },
    async history(orgId, nowMs = now()) {
      // At most 60 rows, by the primary key (bucket, window_start).
      const { rows } = await pool.query<{ window_start: string; count: number }>({
        name: 'rate_limit_history',
        text: 'SELECT window_start, count FROM rate_limit_windows WHERE bucket = $1 AND window_start >= $2 AND window_start <= $3',
        values: [orgBucket(orgId), firstMinuteOf(nowMs), nowMs],
      });
      const counts = new Map(rows.map((r) => [Number(r.window_start), r.count]));
      return lastHourOf(nowMs, (start) => counts.get(start) ?? 0);
    },
    close() {
      clearInterval(sweep);
    },
  };
}
