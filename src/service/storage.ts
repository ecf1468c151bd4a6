// Where the service keeps its state: the JSON file in the data dir (the default: `npm start`
// needs nothing else) or PostgreSQL when FOLIO_DATABASE_URL is set, shared by several nodes.
// Rate limits are counted where the records are, so that they hold across those nodes, or in Redis
// when FOLIO_REDIS_URL is set. Builds are kept in the data dir, or in object storage when
// FOLIO_STORAGE_URL is set (builds/).
import { createDiskBuildStorage } from './builds/disk.ts';
import type { BuildStorage } from './builds/storage.ts';
import type { Config } from './config.ts';
import { openObjectBuildStorage } from './builds/object-storage.ts';
import { createObjectStore } from './object-storage/client.ts';
import { createPostgresContent } from './postgres/content.ts';
import { createPostgresRateLimiter } from './postgres/rate-limiter.ts';
import { openPostgresStore } from './store/postgres/index.ts';
import { localContent, type ProjectContent } from './project-content.ts';
import { createMemoryRateLimiter, type Clock, type RateLimiter } from './rate-limiter.ts';
import { openRedisRateLimiter } from './redis/rate-limiter.ts';
import { openStore } from './store/json/index.ts';
import type { Store } from './store/store.ts';

export interface Storage {
  store: Store;
  rateLimiter: RateLimiter;
  builds: BuildStorage;
  /** Pages, docs.json and snippets written through the API: the data dir, or shared through PostgreSQL. */
  content: ProjectContent;
}

type StorageSettings = Pick<Config, 'dataDir' | 'databaseUrl'> & Partial<Pick<Config, 'objectStorage' | 'cacheMb' | 'redisUrl' | 'testClockMs'>>;

/** The rate limiters' clock: the real one, or the instant a test pinned (FOLIO_TEST_CLOCK, src/service/config.ts). */
function clockOf(config: StorageSettings): Clock {
  const pinned = config.testClockMs;
  return pinned === undefined ? Date.now : () => pinned;
}

/** Opens the configured store (applying PostgreSQL migrations) and its rate limiter. */
export async function openStorage(config: StorageSettings): Promise<Storage> {
  const storage = await openRecords(config);
  if (!config.redisUrl) return storage;
  storage.rateLimiter.close();
  try {
    return { ...storage, rateLimiter: await openRedisRateLimiter(config.redisUrl, clockOf(config)) };
  } catch (error) {
    await storage.builds.close();
    await storage.store.close();
    throw error;
  }
}

async function openRecords(config: StorageSettings): Promise<Storage> {
  if (config.databaseUrl) {
    const store = await openPostgresStore(config.databaseUrl);
    try {
      const builds = config.objectStorage
        ? await openObjectBuildStorage({
          dataDir: config.dataDir,
          objects: createObjectStore(config.objectStorage),
          store,
          pool: store.pool,
          databaseUrl: config.databaseUrl,
          cacheBytes: (config.cacheMb ?? 1024) * 1024 * 1024,
        })
        : createDiskBuildStorage(config.dataDir);
      return { store, rateLimiter: createPostgresRateLimiter(store.pool, clockOf(config)), builds, content: createPostgresContent(store.pool, config.dataDir) };
    } catch (error) {
      await store.close();
      throw error;
    }
  }
  return { store: await openStore(config.dataDir), rateLimiter: createMemoryRateLimiter(clockOf(config)), builds: createDiskBuildStorage(config.dataDir), content: localContent };
}
