// One process owns a data dir at a time: a server, or the admin CLI editing the store itself.
// The lock is a file created exclusively, holding the owner's pid; a lock whose process is gone
// (crash, kill -9) is stale and is taken over. Node has no flock(), so two processes taking over
// the same stale lock at the same instant could both succeed; that needs a crash followed by two
// simultaneous starts, and is accepted.
import { mkdir, open, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';

export type LockRole = 'server' | 'admin';

export interface LockOwner {
  pid: number;
  role: LockRole;
}

export interface DataDirLock {
  release(): Promise<void>;
}

export class LockHeldError extends Error {
  override name = 'LockHeldError';
  owner: LockOwner;
  constructor(dataDir: string, owner: LockOwner) {
    super(`data dir ${dataDir} is in use by ${owner.role === 'server' ? 'a Folio server' : 'the admin CLI'} (pid ${owner.pid})`);
    this.owner = owner;
  }
}

export const LOCK_FILE = 'folio.lock';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readOwner(file: string): Promise<LockOwner | undefined> {
  try {
    const owner = JSON.parse(await readFile(file, 'utf8')) as LockOwner;
    return Number.isInteger(owner.pid) ? owner : undefined;
  } catch {
    return undefined;
  }
}

/** Takes the data dir's lock once, or throws LockHeldError naming the live owner. */
export async function acquireLock(dataDir: string, role: LockRole): Promise<DataDirLock> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, LOCK_FILE);
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(file, 'wx', 0o600);
      await handle.writeFile(JSON.stringify({ pid: process.pid, role }));
      await handle.close();
      return {
        async release() {
          const owner = await readOwner(file);
          if (owner?.pid === process.pid) await unlink(file).catch(() => {});
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const owner = await readOwner(file);
    // An unreadable lock may be one being written right now: look again before calling it stale.
    if (owner && isAlive(owner.pid)) throw new LockHeldError(dataDir, owner);
    if (!owner && attempt < 3) {
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    if (attempt > 5) throw new Error(`cannot take the lock ${file}`);
    await unlink(file).catch(() => {});
  }
}

/** Like acquireLock, but waits up to `timeoutMs` while another process holds the lock in `waitFor` roles. */
export async function acquireLockPatiently(
  dataDir: string,
  role: LockRole,
  waitFor: LockRole[],
  timeoutMs = 10_000,
): Promise<DataDirLock> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await acquireLock(dataDir, role);
    } catch (err) {
      if (!(err instanceof LockHeldError) || !waitFor.includes(err.owner.role) || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
