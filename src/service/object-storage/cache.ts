// The local copies of object storage's files a serving node keeps (FOLIO_CACHE_MB): files named by
// their content's SHA-256 (so builds that share a file share its copy), fetched once on first use,
// the least recently used removed once the copies pass the byte bound. A copy being opened is
// pinned so that it cannot go between being found and being opened; an open copy that is removed
// stays readable through its open file.
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const SHA256 = /^[0-9a-f]{64}$/;

export interface FileCache {
  /** The file's bytes, fetched with `fetch` when no copy is kept; undefined when there is no such object. */
  read(hash: string, fetch: () => Promise<Readable | undefined>): Promise<Buffer | undefined>;
  /** A stream of the file's bytes (see read). */
  open(hash: string, fetch: () => Promise<Readable | undefined>): Promise<Readable | undefined>;
  /** Bytes of the copies kept now. */
  readonly bytes: number;
}

interface Entry {
  size: number;
  pins: number;
}

/** Starts empty: what an earlier run left in `dir` is removed (its sizes are not known). */
export async function createFileCache(dir: string, maxBytes: number): Promise<FileCache> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  // Least recently used first (a Map keeps insertion order; a use moves an entry to the end).
  const entries = new Map<string, Entry>();
  const fetching = new Map<string, Promise<boolean>>();
  let bytes = 0;
  let temp = 0;
  const fileOf = (hash: string) => path.join(dir, hash);

  const evict = () => {
    for (const [hash, entry] of entries) {
      if (bytes <= maxBytes) break;
      if (entry.pins > 0) continue;
      entries.delete(hash);
      bytes -= entry.size;
      void rm(fileOf(hash), { force: true });
    }
  };

  /** Keeps a copy of the file and pins it; false when the object does not exist. */
  const pin = async (hash: string, fetch: () => Promise<Readable | undefined>): Promise<boolean> => {
    if (!SHA256.test(hash)) throw new Error(`not a content hash: ${JSON.stringify(hash)}`);
    for (;;) {
      const entry = entries.get(hash);
      if (entry) {
        entry.pins++;
        entries.delete(hash);
        entries.set(hash, entry);
        return true;
      }
      let pending = fetching.get(hash);
      if (!pending) {
        pending = (async () => {
          const body = await fetch();
          if (!body) return false;
          const part = path.join(dir, `.part-${process.pid}-${temp++}`);
          try {
            await pipeline(body, createWriteStream(part));
            const { size } = await stat(part);
            await rename(part, fileOf(hash));
            entries.set(hash, { size, pins: 0 });
            bytes += size;
            return true;
          } catch (error) {
            await rm(part, { force: true });
            throw error;
          }
        })().finally(() => fetching.delete(hash));
        fetching.set(hash, pending);
      }
      if (!(await pending)) return false;
      // Fetched (here or by a concurrent request): pin it on the next turn, then make room.
      const fetched = entries.get(hash);
      if (fetched) {
        fetched.pins++;
        evict();
        return true;
      }
      // Evicted between the fetch and this turn (another insert): fetch again.
    }
  };
  const unpin = (hash: string) => {
    const entry = entries.get(hash);
    if (entry && entry.pins > 0) entry.pins--;
    evict();
  };

  return {
    async read(hash, fetch) {
      if (!(await pin(hash, fetch))) return undefined;
      try {
        const handle = await open(fileOf(hash), 'r');
        try {
          return await handle.readFile();
        } finally {
          await handle.close();
        }
      } finally {
        unpin(hash);
      }
    },
    async open(hash, fetch) {
      if (!(await pin(hash, fetch))) return undefined;
      try {
        const handle = await open(fileOf(hash), 'r');
        return handle.createReadStream(); // closes the file when read to the end or destroyed
      } finally {
        unpin(hash);
      }
    },
    get bytes() {
      return bytes;
    },
  };
}
