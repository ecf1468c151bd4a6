// Hard-linked copies of directory trees: a deployment's snapshot of its content root, the
// content of a sandboxed build, a fast redeploy's reuse of the previous build's output. A link
// costs a directory entry where a copy costs the file's bytes, so 1,000 pages take milliseconds.
// Sound only because nothing ever writes into these files in place: every writer of a content
// root replaces a file by a new one (atomic-write.ts renames; git's checkout unlinks, then
// creates), and builds are never changed once written (docs/decisions.md#fast-redeploys).
import { constants as fsConstants, existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

export interface LinkTreeOptions {
  /** Entries (paths relative to `from`, "/" separators) to take; default all. A directory left out is not entered. */
  keep?: (rel: string) => boolean;
  /** Symbolic links are made again as they are (their target text, never followed); default: left out. */
  symlinks?: boolean;
}

/**
 * Fills `to` (made if missing) with the directories and regular files of `from`: hard links where
 * the filesystem allows, else copies. Special files are left out.
 */
export async function linkTree(from: string, to: string, options: LinkTreeOptions = {}, prefix = ''): Promise<void> {
  await fs.mkdir(path.join(to, prefix), { recursive: true });
  const entries = await fs.readdir(path.join(from, prefix), { withFileTypes: true });
  await Promise.all(
    entries.map(async (entry) => {
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (options.keep && !options.keep(rel)) return;
      const source = path.join(from, rel);
      const dest = path.join(to, rel);
      if (entry.isDirectory()) return linkTree(from, to, options, rel);
      if (entry.isSymbolicLink() && options.symlinks) return fs.symlink(await fs.readlink(source), dest);
      if (entry.isFile()) await linkFile(source, dest);
    }),
  );
}

/** A hard link of `source` at `dest`, or a copy where the filesystem cannot link it there. */
export async function linkFile(source: string, dest: string): Promise<void> {
  await fs.link(source, dest).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EXDEV' && error.code !== 'EPERM' && error.code !== 'EMLINK') throw error;
    await fs.copyFile(source, dest, fsConstants.COPYFILE_FICLONE);
  });
}

/** Whether an open directory can be reached by path (Linux's /proc), for removeTree. */
const OPEN_DIRS = existsSync('/proc/self/fd');

/**
 * Removes a directory tree (or a file) one entry at a time, for removals nobody waits for: a
 * deployment's snapshot, a replaced content root, pruned builds. Node's recursive `rm` starts every
 * unlink at once, which fills libuv's threads for the length of the removal, and every other file
 * operation of the process waits behind thousands of unlinks: serving the first request from a
 * build just made live took 180–360 ms while a 1,000-page snapshot was being removed. Slower in
 * total, this leaves the other threads to everyone else. A missing path is not an error.
 *
 * Like Node's `rm`, it never follows a symbolic link, `target` itself included (a link is removed,
 * not what it points at). Each directory is opened without following a link and its entries are
 * reached through that open directory (/proc/self/fd, where mounted), so a directory replaced by
 * a link while the removal runs is not entered either.
 */
export async function removeTree(target: string): Promise<void> {
  const handle = await fs.open(target, fsConstants.O_RDONLY | fsConstants.O_DIRECTORY | fsConstants.O_NOFOLLOW).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    // A file, or a link (ELOOP; some systems say ENOTDIR for O_NOFOLLOW|O_DIRECTORY on a link).
    if (error.code === 'ENOTDIR' || error.code === 'ELOOP') return undefined;
    throw error;
  });
  if (handle === null) return;
  if (!handle) return fs.rm(target, { force: true });
  try {
    const dir = OPEN_DIRS ? `/proc/self/fd/${handle.fd}` : target;
    for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
      const child = path.join(dir, entry.name);
      if (entry.isDirectory()) await removeTree(child);
      else await fs.rm(child, { force: true });
    }
  } finally {
    await handle.close();
  }
  // Whatever appeared meanwhile goes too (Node's recursive rm follows no link either).
  await fs.rmdir(target).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : fs.rm(target, { recursive: true, force: true })));
}
