// Build roots: the directories builds run in, inside the install (so Astro resolves node_modules
// from them), each with its own output and tmp; made per build, removed after it, and swept of any
// a dead process left behind.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { SANDBOX_CONTENT_ROOT } from './sandbox.ts';
import { repoRoot } from '../site/settings.ts';
import { removeInBackground, TRASH_SUFFIX } from '../lib/remove-later.ts';

const execFileAsync = promisify(execFile);
/** Where build roots live: inside the install, so Astro resolves node_modules from them. */
export const BUILDS_DIR = path.join(repoRoot, '.folio-builds');

/** Where sites' carried Astro caches wait for their next build (build-cache.ts; beside the build roots, for renames). */
export const CACHES_DIR = path.join(BUILDS_DIR, 'caches');

/** Where a build writes its site: inside its own root, as Astro moves files from one to the other. */
export const buildOutDir = (buildRoot: string) => path.join(buildRoot, 'out');

/** Where the content goes in a host directory mounted at SANDBOX_INPUT_DIR. */
export const sandboxInput = (inputDir: string) => path.join(inputDir, path.basename(SANDBOX_CONTENT_ROOT));

/** A fresh, empty build root under `parent`, with its output and private tmp dirs. */
export async function makeBuildRoot(parent: string): Promise<string> {
  const buildRoot = path.join(parent, randomUUID());
  await fs.mkdir(path.join(buildRoot, 'tmp'), { recursive: true });
  await fs.mkdir(buildOutDir(buildRoot));
  return buildRoot;
}

/** Directories under BUILDS_DIR in use for longer than a build (a warm worker's): never stale. */
export const liveBuildDirs = new Set<string>();

/**
 * Build roots left by a process that died mid-build (a day is far beyond any build's time limit),
 * and folders moved aside for removal (remove-later.ts) whose removal a crash cut short or that
 * could not be removed, at any age: nothing uses them. Runs at the start of every build, of any
 * project: a leftover that cannot be removed (a tenant build's own files it cannot write into, on
 * a server not running as root) is told on stderr and never fails the build.
 */
export async function removeStaleBuildRoots() {
  const dayAgo = Date.now() - 24 * 3600_000;
  for (const name of await fs.readdir(BUILDS_DIR).catch(() => [] as string[])) {
    const dir = path.join(BUILDS_DIR, name);
    if (liveBuildDirs.has(dir) || dir === CACHES_DIR) continue;
    // In the background, once at a time (a removal this process runs already is not started again).
    if (name.endsWith(TRASH_SUFFIX)) {
      void removeInBackground(dir);
      continue;
    }
    const stat = await fs.lstat(dir).catch(() => undefined);
    if (stat && stat.mtimeMs < dayAgo) await removeBuildDir(dir).catch((error: Error) => console.error(`could not remove the stale build dir ${dir}: ${error.message}`));
  }
}

/**
 * Removes a directory a build wrote into, however deep: fs.rm stops at the system's path limit (a
 * build can nest folders far beyond it), and so does src/lib/link-tree.ts's removeTree once it
 * runs out of file descriptors (one per level); GNU rm walks any depth relative to each directory.
 * None of them follows a link.
 */
export async function removeBuildDir(dir: string): Promise<void> {
  await fs.rm(dir, { recursive: true, force: true }).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENAMETOOLONG') throw error;
    await execFileAsync('rm', ['-rf', '--one-file-system', '--', dir]);
  });
}
