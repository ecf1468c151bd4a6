// A lowdb adapter that writes crash-safely: temp file (mode 0600) + fsync + rename + directory fsync.
// lowdb's own JSONFile renames without fsync, so a power loss could leave an empty file.
import { open, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import type { Adapter } from 'lowdb';

export class DurableJsonFile<T> implements Adapter<T> {
  file: string;
  private tmp: string;
  private serialize: (data: T) => string;

  constructor(file: string, serialize: (data: T) => string = (data) => JSON.stringify(data)) {
    this.file = file;
    this.serialize = serialize;
    this.tmp = path.join(path.dirname(file), `.${path.basename(file)}.tmp`);
  }

  async read(): Promise<T | null> {
    try {
      return JSON.parse(await readFile(this.file, 'utf8')) as T;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  /** Serialises synchronously (so the snapshot is taken at call time), then writes durably. */
  async write(data: T): Promise<void> {
    const text = this.serialize(data);
    const handle = await open(this.tmp, 'w', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.chmod(0o600);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(this.tmp, this.file);
    const dir = await open(path.dirname(this.file), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
}
