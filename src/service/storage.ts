// Where the service keeps its state: the JSON file in the data dir (the default: `npm start`
// needs nothing else) or PostgreSQL when FOLIO_DATABASE_URL is set, shared by several nodes.
// Rate limits are counted where the records are, so that they hold across those nodes.
import type { Config } from './config.ts';
import { createPostgresRateLimiter } from './postgres/rate-limiter.ts';
import { openPostgresStore } from './postgres/store.ts';
import { createMemoryRateLimiter, type RateLimiter } from './rate-limiter.ts';
import { openStore, type Store } from './store.ts';

export interface Storage {
  store: Store;
  rateLimiter: RateLimiter;
}

/** Opens the configured store (applying PostgreSQL migrations) and its rate limiter. */
export async function openStorage(config: Pick<Config, 'dataDir' | 'databaseUrl'>): Promise<Storage> {
  if (config.databaseUrl) {
    const store = await openPostgresStore(config.databaseUrl);
    return { store, rateLimiter: createPostgresRateLimiter(store.pool) };
  }
  return { store: await openStore(config.dataDir), rateLimiter: createMemoryRateLimiter() };
}
