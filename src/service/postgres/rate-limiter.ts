// Fixed windows counted in PostgreSQL (docs/decisions.md#rate-limits), so that the limit holds
// exactly across every node sharing the database: the count is incremented and compared in one
// statement, and a request over the limit changes nothing.
import type pg from 'pg';
import type { Plan } from '../config.ts';
import { WINDOW_MS, type RateLimitDecision, type RateLimiter } from '../rate-limiter.ts';
import type { ApiKeyRecord } from '../store.ts';

function decisionOf(start: number, counted: boolean, count: number, limit: number, nowMs: number): RateLimitDecision {
  const end = start + WINDOW_MS;
  return {
    allowed: counted,
    limit,
    remaining: Math.max(0, limit - count),
    reset: end / 1000,
    retryAfter: Math.max(1, Math.ceil((end - nowMs) / 1000)),
  };
}

export function createPostgresRateLimiter(pool: pg.Pool): RateLimiter {
  const sweep = setInterval(() => {
    const current = Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS;
    pool.query('DELETE FROM rate_limit_windows WHERE window_start < $1', [current]).catch(() => {});
  }, WINDOW_MS);
  sweep.unref();

  return {
    async hit(bucket, limit, nowMs = Date.now()) {
      const start = Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
      const { rows } = await pool.query<{ count: number }>({
        name: 'rate_limit_hit',
        text: `INSERT INTO rate_limit_windows AS w (bucket, window_start, count) VALUES ($1, $2, 1)
               ON CONFLICT (bucket, window_start) DO UPDATE SET count = w.count + 1 WHERE w.count < $3
               RETURNING count`,
        values: [bucket, start, limit],
      });
      // No row: the window was already full, and nothing was counted.
      return decisionOf(start, rows.length > 0, rows[0]?.count ?? limit, limit, nowMs);
    },
    async hitByKey(hash, limits, nowMs = Date.now()) {
      const start = Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
      // One statement, one round trip (docs/decisions.md#rate-limits-in-postgresql): the key, its
      // org's plan read now (a plan change applies at once), and the same count in the same bucket
      // as hit(). A revoked key counts nothing here; the caller then counts by client IP.
      const { rows } = await pool.query({
        name: 'rate_limit_hit_by_key',
        text: `WITH k AS (
                 SELECT k.*, COALESCE(o.plan, 'free') AS org_plan,
                        CASE o.plan WHEN 'pro' THEN $4::int WHEN 'business' THEN $5::int ELSE $3::int END AS org_limit
                 FROM api_keys k LEFT JOIN orgs o ON o.id = k.org_id WHERE k.hash = $1
               ), hit AS (
                 INSERT INTO rate_limit_windows AS w (bucket, window_start, count)
                 SELECT 'org:' || k.org_id, $2, 1 FROM k WHERE k.revoked_at IS NULL
                 ON CONFLICT (bucket, window_start) DO UPDATE SET count = w.count + 1
                   WHERE w.count < (SELECT org_limit FROM k)
                 RETURNING count
               )
               SELECT k.*, (SELECT count FROM hit) AS hit_count FROM k`,
        values: [hash, start, limits.free, limits.pro, limits.business],
      });
      if (!rows[0]) return undefined;
      const { org_plan, org_limit, hit_count, ...key } = rows[0] as Record<string, unknown>;
      const plan = org_plan as Plan;
      const limit = org_limit as number;
      const count = hit_count as number | null;
      return {
        key: key as unknown as ApiKeyRecord,
        plan,
        decision: key.revoked_at ? undefined : decisionOf(start, count !== null, count ?? limit, limit, nowMs),
      };
    },
    async peek(bucket, limit, nowMs = Date.now()) {
      const start = Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
      const { rows } = await pool.query<{ count: number }>({
        name: 'rate_limit_peek',
        text: 'SELECT count FROM rate_limit_windows WHERE bucket = $1 AND window_start = $2',
        values: [bucket, start],
      });
      const count = rows[0]?.count ?? 0;
      return decisionOf(start, count < limit, count, limit, nowMs);
    },
    close() {
      clearInterval(sweep);
    },
  };
}
