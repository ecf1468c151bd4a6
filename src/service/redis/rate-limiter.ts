// Fixed windows counted in Redis or Valkey (FOLIO_REDIS_URL; docs/decisions.md#rate-limits-in-redis):
// the same windows, counts and answers as the in-memory and PostgreSQL limiters, for nodes that
// would rather not send a write per request to PostgreSQL. One Lua script reads, compares and
// increments, so it is atomic on the Redis server: two nodes counting at once can never both take
// the last request of a window, and a request over the limit changes nothing.
import { Redis } from 'ioredis';
import { WINDOW_MS, windowDecision, type Clock, type RateLimiter } from '../rate-limiter.ts';
import { HISTORY_MINUTES, keepsHistory, lastHourOf, minutesOfHour, orgBucket } from '../usage-history.ts';

/** KEYS[1] the window's counter; ARGV[1] the limit, ARGV[2] its lifetime in ms. Answers {counted, count}. */
const HIT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count >= tonumber(ARGV[1]) then return {0, count} end
count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return {1, count}
`;

/** Keys of one Folio installation; another application may share the Redis database. */
const PREFIX = 'folio:rate:';

type Counter = Redis & { folioHit(key: string, limit: number, ttlMs: number): Promise<[number, number]> };

/**
 * Connects to `url` (redis:// or rediss://) and answers once Redis does, so a wrong URL stops the start.
 * Windows are the server's minutes (`now`); only a counter's expiry runs on Redis's own clock.
 */
export async function openRedisRateLimiter(url: string, now: Clock = Date.now): Promise<RateLimiter> {
  const redis = new Redis(url, {
    lazyConnect: true,
    // A request waits for Redis at most through one reconnect, then fails (500) instead of hanging.
    maxRetriesPerRequest: 1,
    connectTimeout: 5_000,
  }) as Counter;
  // Connection problems are answered per request (and by /healthz); an idle drop must not crash the process.
  redis.on('error', () => {});
  redis.defineCommand('folioHit', { numberOfKeys: 1, lua: HIT });
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    redis.disconnect();
    throw new Error(`FOLIO_REDIS_URL: Redis does not answer (${(err as Error).message})`, { cause: err });
  }
  const keyOf = (bucket: string, start: number) => `${PREFIX}${bucket}:${start}`;

  return {
    async hit(bucket, limit, nowMs = now()) {
      const start = Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
      // Kept a second past the window's end (by the caller's clock), then Redis forgets it; an
      // organization's for an hour more, for its usage chart.
      const ttl = start + WINDOW_MS - nowMs + 1_000 + (keepsHistory(bucket) ? HISTORY_MINUTES * WINDOW_MS : 0);
      const [counted, count] = await redis.folioHit(keyOf(bucket, start), limit, ttl);
      return windowDecision(start, counted === 1, count, limit, nowMs);
    },
    async peek(bucket, limit, nowMs = now()) {
      const start = Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;
      const count = Number((await redis.get(keyOf(bucket, start))) ?? 0);
      return windowDecision(start, count < limit, count, limit, nowMs);
    },
    async history(orgId, nowMs = now()) {
      // One MGET of the hour's 60 keys: one round trip, whichever nodes counted them.
      const starts = minutesOfHour(nowMs);
      const values = await redis.mget(starts.map((start) => keyOf(orgBucket(orgId), start)));
      const counts = new Map(starts.map((start, i) => [start, Number(values[i] ?? 0)]));
      return lastHourOf(nowMs, (start) => counts.get(start) ?? 0);
    },
    async isHealthy() {
      return (await redis.ping().catch(() => undefined)) === 'PONG';
    },
    close() {
      redis.disconnect();
    },
  };
}
