// One process owns a data dir at a time: a server, or the admin CLI editing the store itself.
//
// The lock proves its owner is alive by something that dies with it: listening sockets, which the
// kernel closes the moment a process ends (kill -9 included, before it is even reaped). A pid in a
// file cannot do that: after a crash the pid may belong to another live process (pid 1 again after
// a container restart, a recycled pid), and a zombie still answers kill(pid, 0).
//
// - The guard is a Linux abstract Unix socket (no file; its name comes from a random id kept in
//   the data dir, so only processes that can read the data dir know it, and from the directory's
//   device and inode). Binding it is atomic:
//   while a live process holds it, bind fails with EADDRINUSE, so two processes starting at the
//   same instant can never both pass.
// - `folio.lock` is a Unix socket file in the data dir, listened on by the owner. It serves
//   processes that do not share the owner's network namespace (two containers on one volume):
//   connecting succeeds only while its owner lives (a stale socket file refuses: ECONNREFUSED).
//
// Both answer a connection with the owner's `{pid, role}`, which is how a refused process names it.
import { randomBytes } from 'node:crypto';
import { chmod, link, mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

export type LockRole = 'server' | 'admin';

export interface LockOwner {
  /** null when the owner did not answer in time (it is alive: it accepted the connection). */
  pid: number | null;
  role: LockRole;
}

export interface DataDirLock {
  release(): Promise<void>;
}

export class LockHeldError extends Error {
  override name = 'LockHeldError';
  owner: LockOwner;
  constructor(dataDir: string, owner: LockOwner) {
    super(`data dir ${dataDir} is in use by ${owner.role === 'server' ? 'a Folio server' : 'the admin CLI'} (pid ${owner.pid ?? 'unknown'})`);
    this.owner = owner;
  }
}

export const LOCK_FILE = 'folio.lock';
/** The random id naming the guard socket; created once per data dir. */
export const LOCK_ID_FILE = 'folio.lock-id';

const OWNER_ANSWER_MS = 5_000;

/** The data dir's lock id, created on first use (exclusively: two first starts agree on one). */
async function lockId(dataDir: string): Promise<string> {
  const file = path.join(dataDir, LOCK_ID_FILE);
  for (let attempt = 0; attempt < 20; attempt++) {
    const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    });
    if (text !== undefined && /^[0-9a-f]{32}$/.test(text)) return text;
    if (text === undefined) {
      // Written whole under a unique name, then linked into place: readers never see half an id.
      // (A temporary name of atomic-write.ts's form, so one left by a crash is cleaned at start.)
      const tmp = path.join(dataDir, `.${LOCK_ID_FILE}.${randomBytes(6).toString('hex')}.tmp`);
      await writeFile(tmp, randomBytes(16).toString('hex'), { mode: 0o600 });
      try {
        await link(tmp, file);
      } catch (err) {
        // EEXIST: another process made it first. ENOENT: a starting server's cleanup took our
        // temporary file for a crash leftover. Either way, read again.
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'EEXIST' && code !== 'ENOENT') throw err;
      } finally {
        await unlink(tmp).catch(() => {});
      }
      continue;
    }
    // A damaged id (a disk error): replaced; no live owner can be using a name nobody can read.
    await unlink(file).catch(() => {});
  }
  throw new Error(`cannot read or create ${file}`);
}

/**
 * The guard's abstract name: the data dir's id and its device and inode, so a copy of a data dir
 * (same id, another inode) is a data dir of its own, and another path to the same directory (a
 * bind mount, a symlink) is the same one.
 */
async function guardAddress(dataDir: string): Promise<string> {
  const { dev, ino } = await stat(dataDir);
  return `\0folio-lock-${await lockId(dataDir)}-${dev}-${ino}`;
}

/** Listens on `address`, answering every connection with the owner. Rejects with the listen error. */
function listenAsOwner(address: string, owner: LockOwner): Promise<net.Server> {
  const server = net.createServer((socket) => {
    socket.on('error', () => {});
    socket.end(JSON.stringify(owner) + '\n');
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(address, () => {
      server.off('error', reject);
      server.unref(); // the lock alone must not keep a process running
      resolve(server);
    });
  });
}

/**
 * The live owner listening on `address`, or undefined when nobody listens there (no socket file,
 * a stale socket file, a regular file left by an older version).
 */
function askOwner(address: string): Promise<LockOwner | undefined> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(address);
    let answer = '';
    let connected = false;
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ pid: null, role: 'server' }); // alive (it accepted) but busy: assume the stronger role
    }, OWNER_ANSWER_MS);
    socket.setEncoding('utf8');
    socket.on('connect', () => (connected = true));
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (!connected && (err.code === 'ECONNREFUSED' || err.code === 'ENOENT' || err.code === 'ENOTSOCK')) resolve(undefined);
      else if (connected) resolve({ pid: null, role: 'server' });
      else reject(err);
    });
    socket.on('end', () => {
      clearTimeout(timer);
      try {
        const owner = JSON.parse(answer) as LockOwner;
        resolve({ pid: Number.isInteger(owner.pid) ? owner.pid : null, role: owner.role === 'admin' ? 'admin' : 'server' });
      } catch {
        // Closed without an answer: the owner is exiting right now, so the lock is about to be free.
        resolve(undefined);
      }
    });
  });
}

const closeServer = (server: net.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** Takes the data dir's lock once, or throws LockHeldError naming the live owner. */
export async function acquireLock(dataDir: string, role: LockRole): Promise<DataDirLock> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const owner: LockOwner = { pid: process.pid, role };
  const guard = await guardAddress(dataDir);
  let guardServer: net.Server | undefined;
  for (let attempt = 0; !guardServer; attempt++) {
    try {
      guardServer = await listenAsOwner(guard, owner);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
      const holder = await askOwner(guard);
      if (holder) throw new LockHeldError(dataDir, holder);
      // The holder ended between our bind and our connect: the guard is free now.
      if (attempt >= 20) throw new Error(`cannot take the lock of data dir ${dataDir}`, { cause: err });
    }
  }
  // Holding the guard, no process of this network namespace gets here; one of another namespace
  // still listens on the socket file.
  const file = path.join(dataDir, LOCK_FILE);
  try {
    const other = await askOwner(file);
    if (other) throw new LockHeldError(dataDir, other);
    await unlink(file).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
    const fileServer = await listenAsOwner(file, owner);
    await chmod(file, 0o600);
    const { ino } = await stat(file);
    return {
      async release() {
        // Our socket file only (by inode), never one a later owner made.
        const current = await stat(file).catch(() => undefined);
        if (current?.ino === ino) await unlink(file).catch(() => {});
        await closeServer(fileServer);
        await closeServer(guardServer);
      },
    };
  } catch (err) {
    await closeServer(guardServer);
    throw err;
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
