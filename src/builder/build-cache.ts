// Astro's cache (the content store and each page's rendered file) carried from one sandboxed build
// of a site to the next (docs/decisions.md, "A one-page change of a 25,000-page site"), so that a
// fast redeploy's content sync reads only the pages that changed: the loaders keep an entry whose
// file has the stored digest (listed-files-loader.ts, Astro's glob loader).
//
// The cache is a tenant build's output: the server never reads a file of it. It only renames the
// folder (a rename moves a link itself, never what it points to) out of the finished build root into
// a slot no sandbox can write, and into the next build root of the same site, whose sandbox alone
// reads it; before that last rename, where no sandbox reaches, it gives its folders to that
// sandbox's uid by a walk that follows nothing and refuses any link or special file in it
// (giveCacheToSandbox).
import { createHash, randomUUID } from 'node:crypto';
import { closeSync, constants, existsSync, fchmodSync, fstatSync, lchownSync, lstatSync, openSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { takeFromSandbox } from './sandbox.ts';
import { outputProblem } from './output.ts';
import { removeBuildDir } from './build-roots.ts';
import { ASTRO_CACHE_DIR } from '../site/settings.ts';

/** A slot left untouched this long belongs to a site no longer built here (deleted, or moved away). */
const STALE_MS = 24 * 3600_000;

/** A caller's name as a file name: never a path, whatever it holds. */
const fileName = (name: string) => createHash('sha256').update(name).digest('hex').slice(0, 32);

/** The top folder of ASTRO_CACHE_DIR in a build root (`.cache`). */
const CACHE_TOP = ASTRO_CACHE_DIR.split('/')[0]!;

/**
 * A kept cache taken out of its slot and made ready for a build's sandbox (takeCache), in a folder
 * no sandbox reaches: placed in the build root once the build is to start, or put back in its slot
 * when the build stops before (a failed content check), for the site's next build. Whichever comes
 * first counts; the other then does nothing.
 */
export interface TakenCache {
  /** Moves the cache into `buildRoot` (its sandbox's from then on): whether it is there. */
  placeIn(buildRoot: string): Promise<boolean>;
  /** Puts the cache back where takeCache found it. */
  putBack(): Promise<void>;
}

/**
 * Takes the cache kept as `name` for `site` out of its slot and makes it the sandbox uid's, while
 * no build root is involved yet: buildSite runs this beside the content check, and only placing
 * the cache waits for the build. Undefined when there is none (removed as stale, never kept, or
 * refused by giveCacheToSandbox), which is no error: the build then reads every page.
 */
export async function takeCache(cachesDir: string, site: string, name: string, uid: number): Promise<TakenCache | undefined> {
  const kept = path.join(cachesDir, fileName(site), fileName(name));
  const stat = await fs.lstat(kept).catch(() => undefined);
  const madeIn = await fs.readFile(`${kept}${MADE_IN}`, 'utf8').catch(() => undefined);
  if (!stat?.isDirectory() || madeIn === undefined) return undefined;
  // Made the sandbox's where no sandbox reaches, then moved into the build root by one rename: a
  // process of the sandbox still running there (a warm worker's) may put a link at any name of it.
  const giving = path.join(cachesDir, `${randomUUID()}.giving`);
  const cache = path.join(giving, path.basename(ASTRO_CACHE_DIR));
  const rename = (from: string, to: string) => fs.rename(from, to).then(() => true, () => false);
  let settled = false;
  const settle = async (work: () => Promise<boolean>): Promise<boolean> => {
    if (settled) return false;
    settled = true;
    try {
      return await work();
    } catch {
      return false;
    } finally {
      void removeBuildDir(giving).catch(() => undefined);
    }
  };
  const taken: TakenCache = {
    placeIn: (buildRoot) => settle(async () => {
      const from = path.join(buildRoot, CARRIED_FROM_FILE);
      // `wx`: a link at that name is refused, never followed.
      await fs.writeFile(from, madeIn, { mode: 0o644, flag: 'wx' });
      // A rename replaces no link: a name the build root already holds (a link, a folder) keeps the cache out.
      if (await rename(giving, path.join(buildRoot, CACHE_TOP))) return true;
      await fs.rm(from, { force: true });
      return false;
    }),
    // Its `.made-in` never left the slot. Its folders stay the sandbox uid's, which reaches no
    // slot; the next take walks them again as any cache.
    putBack: async () => void (await settle(() => rename(cache, kept))),
  };
  try {
    await fs.mkdir(giving);
    if (await rename(kept, cache) && (await giveCacheToSandbox(giving, uid))) return taken;
  } catch {
    // Not carried: the build reads every page.
  }
  settled = true;
  void removeBuildDir(giving).catch(() => undefined);
  return undefined;
}

/**
 * Makes a carried cache (in `dir`, where no sandbox reaches) usable by the uid's sandbox, when it
 * has a uid of its own (the server runs as root). The cache is a tenant build's output, so it is
 * checked and taken from its sandbox as any output, in one walk that follows nothing (outputProblem:
 * each folder made the server's before it is read, only files and folders, bounded), and each
 * folder is then given to the uid, last and each after everything in it: until then no process of
 * that uid (a warm worker's, holding a descriptor of one) can change a name the walk goes through.
 * Files keep the owner the build that wrote them gave them: the next build reads them (they are
 * world-readable, as files a build writes are under the server's umask; one that is not is given
 * too) and never writes into one, it replaces a file by a rename in its folder (Astro's store,
 * rendered-files.ts, llms-full-sections.ts, adoptCarriedStore), so the uid needs its folders only.
 * A file with another name elsewhere (a hard link) is refused as before (false: the cache is not
 * carried): its other name may be another build's file.
 */
async function giveCacheToSandbox(dir: string, uid: number): Promise<boolean> {
  // Without a uid of its own the sandbox has the server's: nothing to give, the same cache carried.
  const give = process.getuid?.() === 0 ? (p: string) => lchownSync(p, uid, uid) : () => undefined;
  const folders = [''];
  const problem = await outputProblem(dir, (rel, entry) => {
    if (entry.isDirectory()) return void folders.push(rel);
    const stat = lstatSync(path.join(dir, rel));
    if (stat.nlink !== 1) return 'a file with another name';
    // Set-id and others' write bits go: a chown (which would clear set-id bits) no longer happens
    // to every file, and no file of a cache need be more than 0755.
    if (stat.mode & 0o6022) narrowMode(path.join(dir, rel), stat.mode & 0o755);
    if (!(stat.mode & 0o004)) give(path.join(dir, rel));
    return undefined;
  });
  if (problem) return false;
  for (const folder of folders.reverse()) give(path.join(dir, folder));
  return true;
}

/**
 * Sets a cache file's mode through a descriptor of the file itself: Linux has no lchmod, and without
 * a uid of its own the sandbox may still rename in the folder, so the name alone could be a link by then.
 */
function narrowMode(file: string, mode: number): void {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    if (fstatSync(fd).isFile()) fchmodSync(fd, mode);
  } finally {
    closeSync(fd);
  }
}

/** Beside a kept cache (`<name>.made-in`): the build root it was made in, written by the server. */
const MADE_IN = '.made-in';

/** In a build root given a carried cache: the build root that cache was made in (adoptCarriedStore looks only for the file). */
export const CARRIED_FROM_FILE = 'carried-cache-from.txt';

/** Astro's content store in its cache folder (astro's `DATA_STORE_FILE`). */
const DATA_STORE_FILE = 'data-store.json';

/**
 * In the build (the sandbox: the store is the tenant build's output), before Astro starts: answers
 * whether the build root holds a content store carried from the previous build (Astro must then not
 * clear it). The store is independent of the build root's path: entries name their files relative
 * to the root, the rendered files likewise (rendered-files.ts), and the config Astro records to
 * tell a changed config ("Astro config changed", content-layer.js) holds `root`, `outDir` and
 * `cacheDir` as URLs, which it records as `{}`. So the store is used as it is: no pass over its
 * text (it was one, rewriting a path the file never held, 50 ms at 25,000 pages; docs/decisions.md,
 * "Astro's start and sync in a one-page build at 25k"). Should a later config record a path, Astro
 * clears the store and every page is read, as without a cache.
 */
export function adoptCarriedStore(buildRoot: string): boolean {
  return existsSync(path.join(buildRoot, CARRIED_FROM_FILE)) && existsSync(path.join(buildRoot, ASTRO_CACHE_DIR, DATA_STORE_FILE));
}

/**
 * Keeps the cache of the finished build in `buildRoot` as `name` in `site`'s slot, replacing what
 * the slot held (removed in the background), and removes stale slots of other sites.
 */
export async function keepCache(cachesDir: string, site: string, name: string, buildRoot: string, removeDir: (dir: string) => Promise<void>): Promise<void> {
  await fs.mkdir(cachesDir, { recursive: true });
  // The build could write its root: `.cache` may be a link. Taken out first, by a rename of the
  // name itself, and checked where no sandbox can write (as build.ts takes the site's output).
  const taken = path.join(cachesDir, `${randomUUID()}.taking`);
  const moved = await fs.rename(path.join(buildRoot, CACHE_TOP), taken).then(() => true, () => false);
  if (!moved) return;
  const slot = path.join(cachesDir, fileName(site));
  const others: string[] = [taken];
  try {
    if (!(await fs.lstat(taken)).isDirectory()) return;
    await takeFromSandbox(taken);
    await fs.mkdir(slot, { recursive: true });
    const dest = path.join(slot, fileName(name));
    others.push(...(await fs.readdir(slot)).map((entry) => path.join(slot, entry)));
    if (!(await fs.rename(path.join(taken, path.basename(ASTRO_CACHE_DIR)), dest).then(() => true, () => false))) return;
    if (!(await fs.lstat(dest)).isDirectory()) others.push(dest);
    else await fs.writeFile(`${dest}${MADE_IN}`, buildRoot);
  } finally {
    const now = Date.now();
    for (const entry of await fs.readdir(cachesDir).catch(() => [] as string[])) {
      const dir = path.join(cachesDir, entry);
      if (dir === slot || dir === taken) continue;
      const stat = await fs.lstat(dir).catch(() => undefined);
      if (stat && now - stat.mtimeMs > STALE_MS) others.push(dir);
    }
    // Nobody waits for the removals (a file per page).
    void Promise.all(others.map((dir) => removeDir(dir).catch(() => undefined)));
  }
}
