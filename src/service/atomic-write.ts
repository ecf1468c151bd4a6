// Durable, atomic file writes, shared by the store and page files: the text goes to a temporary
// file beside the target (a dot file with a random part, never taken for a page), is fsynced, then
// renamed over the target (or linked, which fails with EEXIST instead of replacing), and the folder
// is fsynced. A reader sees the old file or the new one, never half of one; a failed write (a full
// disk) removes its temporary file, and a crash may leave one behind, which the next start removes
// (crash-leftovers.ts recognises them by isTempFileName).
import { randomBytes } from 'node:crypto';
import { link, open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';

const TEMP_NAME = /^\..+\.[0-9a-f]{12}\.tmp$/;

/** True for the name of a temporary file of writeFileAtomic. */
export function isTempFileName(name: string): boolean {
  return TEMP_NAME.test(name);
}

export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export interface AtomicWriteOptions {
  /** Fail with EEXIST instead of replacing an existing file. */
  exclusive?: boolean;
  /** The new file's mode (default 0644). */
  mode?: number;
}

/** Writes `text` (or UTF-8 bytes) to `abs` durably and atomically; returns once the change is on disk. */
export async function writeFileAtomic(abs: string, text: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const dir = path.dirname(abs);
  const tmp = path.join(dir, `.${path.basename(abs)}.${randomBytes(6).toString('hex')}.tmp`);
  const mode = options.mode ?? 0o644;
  const handle = await open(tmp, 'wx', mode);
  let renamed = false;
  try {
    try {
      await handle.writeFile(text);
      await handle.chmod(mode); // whatever the umask
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (options.exclusive) await link(tmp, abs);
    else {
      await rename(tmp, abs);
      renamed = true;
    }
  } finally {
    // After a link, or after any failure: the temporary name must not stay.
    if (!renamed) await unlink(tmp).catch(() => {});
  }
  await syncDir(dir);
}
