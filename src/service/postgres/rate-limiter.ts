// Fixed windows counted in PostgreSQL (docs/decisions.md#rate-limits), so that the limit holds
// exactly across every node sharing the database: the count is incremented and compared in one
// statement, and a request over the limit changes nothing.
import type pg from 'pg';
import { WINDOW_MS, type RateLimiter } from '../rate-limiter.ts';

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
      const count = rows[0]?.count ?? limit;
      const end = start + WINDOW_MS;
      return {
        allowed: rows.length > 0,
        limit,
        remaining: Math.max(0, limit - count),
        reset: end / 1000,
        retryAfter: Math.max(1, Math.ceil((end - nowMs) / 1000)),
      };
    },
    close() {
      clearInterval(sweep);
    },
  };
}
