// A lowdb adapter that writes crash-safely (atomic-write.ts: temp file, fsync, rename, directory
// fsync); lowdb's own JSONFile renames without fsync, so a power loss could leave an empty file.
// A file that is there but is not JSON (truncated, overwritten) is reported as damaged, never
// taken for an empty store.
import { readFile } from 'node:fs/promises';
import type { Adapter } from 'lowdb';
import { writeFileAtomic } from './atomic-write.ts';

export class DamagedFileError extends Error {
  override name = 'DamagedFileError';
  file: string;
  constructor(file: string, reason: string) {
    super(`${file} is damaged: ${reason}`);
    this.file = file;
  }
}

/** Parses a JSON file's text, or throws DamagedFileError naming the file and the reason. */
export function parseJsonFile<T>(file: string, text: string): T {
  if (text.trim() === '') throw new DamagedFileError(file, 'it is empty');
  try {
    return JSON.parse(text) as T;
  } catch (err) {
    throw new DamagedFileError(file, `it is not valid JSON (${(err as Error).message}); it may have been truncated`);
  }
}

export class DurableJsonFile<T> implements Adapter<T> {
  file: string;
  private serialize: (data: T) => string | Buffer;
  /** Told the text (or its UTF-8 bytes) of every write once it is on disk. */
  onWritten?: (text: string | Buffer) => void;

  constructor(file: string, serialize: (data: T) => string | Buffer = (data) => JSON.stringify(data)) {
    this.file = file;
    this.serialize = serialize;
  }

  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    return parseJsonFile<T>(this.file, text);
  }

  /** Serialises synchronously (so the snapshot is taken at call time), then writes durably. */
  async write(data: T): Promise<void> {
    const text = this.serialize(data);
    await writeFileAtomic(this.file, text, { mode: 0o600 });
    this.onWritten?.(text);
  }
}
