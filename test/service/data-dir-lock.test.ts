// The data-dir lock in one process: held while its owner lives, refused with the owner's pid and
// role, free again after release; of many simultaneous takers exactly one wins; a copy of a data
// dir is not the same data dir. (Processes and kill -9: recovery.test.ts.)
import { cp, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { acquireLock, LockHeldError } from '../../src/service/data-dir-lock.ts';
import { removeDir, tempDataDir } from '../helpers/server.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await removeDir(dir);
});

it('is held until released, names its owner, and lets exactly one of many simultaneous takers win', async () => {
  const dir = await tempDataDir();
  dirs.push(dir);
  // An old-style lock file naming this very (live) process is no lock at all.
  await writeFile(path.join(dir, 'folio.lock'), JSON.stringify({ pid: process.pid, role: 'server' }));
  const lock = await acquireLock(dir, 'server');
  const refused = await acquireLock(dir, 'admin').catch((err: unknown) => err);
  expect(refused).toBeInstanceOf(LockHeldError);
  expect((refused as LockHeldError).owner).toEqual({ pid: process.pid, role: 'server' });
  expect((refused as Error).message).toBe(`data dir ${dir} is in use by a Folio server (pid ${process.pid})`);

  // A copy of the data dir (same lock id) is a data dir of its own.
  const copy = `${dir}-copy`;
  dirs.push(copy);
  await cp(dir, copy, { recursive: true, filter: (src) => !src.endsWith('folio.lock') });
  const copyLock = await acquireLock(copy, 'server');
  await copyLock.release();

  await lock.release();
  const results = await Promise.allSettled(Array.from({ length: 8 }, () => acquireLock(dir, 'admin')));
  const won = results.filter((r) => r.status === 'fulfilled');
  expect(won).toHaveLength(1);
  for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(LockHeldError);
  await (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof acquireLock>>>).value.release();
});
