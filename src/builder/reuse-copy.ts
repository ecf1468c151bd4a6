// A build's reuse copy (docs/decisions.md, "Search index in shards, and no per-file work before a
// one-page change is live"): once a build is published, the server links its files into a copy
// beside it (`{build}.reuse`), and the next fast redeploy that reuses that build takes the copy
// whole, by one rename, as its output, instead of linking the previous build's files one by one
// while the reader waits. The copy is made by the server from a published build (checked when it
// was taken from its sandbox): like linkTree it takes only directories and regular files, never a
// link or a special file, and the builds folder is never in a sandbox's reach.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { removeTree } from '../lib/link-tree.ts';

/** The copy's name beside its build (removed with it: project-files.ts, buildIdOfEntry). */
const reuseCopyOf = (build: string) => `${build}.reuse`;

/** Links a published build's files into its reuse copy (in a worker thread: reuse-copy-thread.ts); a copy half made is removed, never used. */
export async function makeReuseCopy(build: string): Promise<void> {
  const making = `${reuseCopyOf(build)}.${randomUUID()}.partial`;
  try {
    await new Promise<void>((resolve, reject) => {
      new Worker(path.join(import.meta.dirname, 'reuse-copy-thread.ts'), { workerData: { from: build, to: making } })
        .once('error', reject)
        .once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the reuse copy stopped (exit ${code})`))));
    });
    await fs.rename(making, reuseCopyOf(build));
  } catch (error) {
    await removeTree(making);
    throw error;
  }
}

/**
 * Makes `build`'s reuse copy the output `to` (an empty directory): true when it did. False, and
 * `to` as it was, when there is no copy (not made yet, or another build took it) or `to` is not
 * empty: the caller links the build's files itself.
 */
export async function takeReuseCopy(build: string, to: string): Promise<boolean> {
  const copy = reuseCopyOf(build);
  if (!(await fs.lstat(copy).catch(() => undefined))?.isDirectory()) return false;
  if (!(await fs.rmdir(to).then(() => true, () => false))) return false;
  return fs.rename(copy, to).then(
    () => true,
    async () => {
      await fs.mkdir(to, { recursive: true });
      return false;
    },
  );
}
