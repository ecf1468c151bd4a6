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

/** How the name of a folder moved aside ends: a sweep that finds one (build-roots.ts) removes it at any age. */
export const TRASH_SUFFIX = '.trash';

/** The removals running in this process, by the path each removes. */
const pending = new Map<string, Promise<void>>();

/**
 * Moves `dir` to a fresh `.trash` name in `trashDir` (same filesystem; default: beside it) and
 * removes it in the background. Resolves once `dir` is gone from its path. A missing `dir` is no
 * error; one that cannot be moved is removed where it is, before this resolves (its path is then
 * free only once it is gone). A removal that fails is told on stderr and its trash left for the
 * next sweep: at the next start under snapshots/ (crash-leftovers.ts), at the next build's start
 * under the build roots' folder (build-roots.ts, removeStaleBuildRoots).
 */
export async function removeLater(dir: string, trashDir = path.dirname(dir)): Promise<void> {
  const trash = path.join(trashDir, `${path.basename(dir)}.${randomUUID().slice(0, 8)}${TRASH_SUFFIX}`);
  const moved = await fs.rename(dir, trash).then(
    () => true,
    (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : false),
  );
  if (moved === undefined) return;
  // Not moved: the caller may put something new at that path (a warm worker's next input) as soon
  // as this resolves, which a removal still running there would take away.
  if (!moved) return removeInBackground(dir);
  void removeInBackground(trash);
}

/**
 * Removes `target` (a folder nothing uses any more) in one niced `rm`, unless this process already
 * removes it; resolves when that removal has ended, whether it removed everything or not.
 */
export function removeInBackground(target: string): Promise<void> {
  const running = pending.get(target);
  if (running) return running;
  const removal = new Promise<void>((resolve) => {
    execFile('nice', ['-n', '10', 'rm', '-rf', '--one-file-system', '--', target], (error, _stdout, stderr) => {
      if (error) console.error(`could not remove ${target} (left for the next cleanup): ${stderr.trim() || error.message}`);
      resolve();
    });
  });
  pending.set(target, removal);
  void removal.finally(() => pending.delete(target));
  return removal;
}

/** Resolves once every removal started in this process (by now) has ended. */
export async function removalsSettled(): Promise<void> {
  await Promise.all(pending.values());
}
