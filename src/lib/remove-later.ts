// Removals nobody should wait for (docs/decisions.md, "The build slot freed before the snapshot is
// removed"): a deployment's content snapshot, a build's root and its sandbox input. Each folder is
// moved aside at once (one rename, to a name nothing else uses), so its path is free and its owner
// goes on; then one `rm` process removes it in the background, at a low CPU priority. A child
// process, not per-file calls of this one: thousands of unlinks never reach this process's event
// loop nor libuv's threads, where the first requests of a site just made live would wait behind
// them (src/lib/link-tree.ts, removeTree). GNU rm never follows a symbolic link, walks any depth
// (relative to each directory: no path limit) and, with --one-file-system, enters no other mount.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

const pending = new Set<Promise<void>>();

/**
 * Moves `dir` to a fresh `.trash` name in `trashDir` (same filesystem; default: beside it) and
 * removes it in the background. Resolves once `dir` is gone from its path. A missing `dir` is no
 * error; one that cannot be moved is removed where it is. A removal that fails is told on stderr
 * and its trash left for the next start's cleanup.
 */
export async function removeLater(dir: string, trashDir = path.dirname(dir)): Promise<void> {
  const trash = path.join(trashDir, `${path.basename(dir)}.${randomUUID().slice(0, 8)}.trash`);
  const moved = await fs.rename(dir, trash).then(
    () => true,
    (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : false),
  );
  if (moved === undefined) return;
  const target = moved ? trash : dir;
  const removal = new Promise<void>((resolve) => {
    execFile('nice', ['-n', '10', 'rm', '-rf', '--one-file-system', '--', target], (error, _stdout, stderr) => {
      if (error) console.error(`could not remove ${target} (left for the next start's cleanup): ${stderr.trim() || error.message}`);
      resolve();
    });
  });
  pending.add(removal);
  void removal.finally(() => pending.delete(removal));
}

/** Resolves once every removal removeLater started in this process (by now) has ended. */
export async function removalsSettled(): Promise<void> {
  await Promise.all(pending);
}
