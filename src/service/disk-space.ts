// Free space in the data dir, for the health check: below FOLIO_MIN_FREE_MB the server reports
// itself degraded (503 on /healthz) so a load balancer or an operator hears of it before writes
// start failing with 507. statfs is cheap but /healthz may be polled hard: the answer is cached
// for a moment, and it is asked again on its own once space returns.
import { statfs } from 'node:fs/promises';

const CACHE_MS = 1_000;

export interface DiskSpace {
  /** Bytes available to Folio in the data dir's file system (undefined when it cannot be asked). */
  freeBytes(): Promise<number | undefined>;
}

export function createDiskSpace(dataDir: string): DiskSpace {
  let cached: { at: number; value: Promise<number | undefined> } | undefined;
  return {
    freeBytes() {
      const now = Date.now();
      if (!cached || now - cached.at >= CACHE_MS) {
        cached = {
          at: now,
          value: statfs(dataDir).then((s) => s.bavail * s.bsize, () => undefined),
        };
      }
      return cached.value;
    },
  };
}

/** Why the server is not healthy, or undefined when it is. */
export async function storageProblem(space: DiskSpace, minFreeMb: number): Promise<string | undefined> {
  const free = await space.freeBytes();
  if (free === undefined || free >= minFreeMb * 1024 * 1024) return undefined;
  return `low disk space: ${(free / 1024 / 1024).toFixed(1)} MB free in the data dir, below FOLIO_MIN_FREE_MB=${minFreeMb}; writes may fail with 507 until space is freed`;
}
