// Output moves: a finished build's site (and a fast redeploy's search index) is taken out of its
// build root and checked before anything reads it (takeOutput), then moved or merged into the output
// directory, with the static files of a Mintlify-layout root and the redirects file. Nothing here
// follows a link the build may have made.
import { randomUUID } from 'node:crypto';
import { constants as fsConstants, createWriteStream, opendirSync, type Dir, type Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { DocsConfig } from '../site/config/docs-config.ts';
import { REDIRECTS_FILE, type RedirectsFile } from '../site/redirects-file.ts';
import { MAX_OUTPUT_ENTRIES, MAX_OUTPUT_PATH } from '../site/tenant-limits.ts';
import { BUILD_FILE_FLAGS } from '../hosting/site-files.ts';
import { takeFromSandbox } from './sandbox.ts';
import { BUILDS_DIR } from './build-roots.ts';

/**
 * Stores the site's redirects with its output (REDIRECTS_FILE), from the docs.json this process
 * validated, replacing whatever the build may have put there; the hosting layer compiles them once.
 */
export async function writeRedirects(outDir: string, config: DocsConfig | undefined): Promise<void> {
  const file: RedirectsFile = { rules: config?.redirects ?? [] };
  if (config?.errors?.['404']?.redirect) file.notFoundToHome = true;
  const abs = path.join(outDir, REDIRECTS_FILE);
  // `_folio/` holds other build files too; only a non-directory in its place, or whatever sits at the file's name, goes.
  const dir = await fs.lstat(path.dirname(abs)).catch(() => undefined);
  if (dir && !dir.isDirectory()) await fs.rm(path.dirname(abs), { force: true });
  await fs.mkdir(path.dirname(abs), { recursive: true });
  await fs.rm(abs, { recursive: true, force: true });
  await fs.writeFile(abs, JSON.stringify(file));
}

/**
 * Takes a finished build's output (or search index) out of its build root (writable inside the
 * sandbox) and checks it. Code in the sandbox may have replaced the directory, or anything at any
 * depth in it, with a link to anything on the host, a FIFO or a socket; a link there would be
 * followed later by whatever the server does with the site (the static files copied into it, the
 * redirects file written, files served or uploaded), a FIFO would block the thread that opens it.
 * So the output is first renamed into BUILDS_DIR, which no sandbox can write (a rename moves a link
 * itself, never its target; a process of the sandbox may still run: a warm worker, or a fast
 * redeploy's indexing process while Astro's output is taken, and outputProblem takes each folder
 * from it before reading it), and then walked: `problem`
 * says why it cannot be a site (outputProblem). The caller removes `dir` (removeBuildDir) when done.
 */
export async function takeOutput(from: string): Promise<{ dir: string; problem?: string }> {
  const dir = path.join(BUILDS_DIR, `${randomUUID()}.out`);
  await fs.rename(from, dir);
  const stat = await fs.lstat(dir);
  if (!stat.isDirectory()) return { dir, problem: `the build replaced its output directory with a link or special file: refused` };
  return { dir, problem: await outputProblem(dir) };
}


/** Entries the walk of an output reads between two turns of the event loop (it runs in the server). */
const OUTPUT_WALK_SLICE = 2000;

/**
 * Why the tree at `dir` cannot be published as a site, or undefined: everything in it must be a
 * regular file or a directory (never a link, FIFO, socket or device), at a path of at most
 * MAX_OUTPUT_PATH characters (a deeper tree would pass the system's path limit on the way), and at
 * most MAX_OUTPUT_ENTRIES of them. Walked with a list, not recursion, each directory read once as
 * a stream (a build may put millions of names in one): linear in the size of the tree. Each
 * directory is taken from the sandbox (takeFromSandbox) before it is read, so what the walk saw is
 * what stays, whatever still runs in the sandbox. The file system is asked synchronously, the event
 * loop getting its turn every OUTPUT_WALK_SLICE entries: a site has a folder per page, and a
 * request to the thread pool for each step of each folder cost more than the steps themselves.
 * `visit` sees each file and folder that passed (its folder already taken), in the same walk; a
 * problem it answers ends the walk.
 */
export async function outputProblem(dir: string, visit?: (rel: string, entry: Dirent) => string | undefined): Promise<string | undefined> {
  const folders = [''];
  let count = 0;
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    let handle: Dir;
    try {
      // Its parents were taken before it (the walk goes down), so its path holds no link.
      takeFromSandbox(path.join(dir, folder));
      handle = opendirSync(path.join(dir, folder));
    } catch {
      return `the build's output has a folder the server cannot read at ${JSON.stringify(folder || '.')}: refused`;
    }
    try {
      for (let entry = handle.readSync(); entry; entry = handle.readSync()) {
        const rel = folder ? `${folder}/${entry.name}` : entry.name;
        if (++count > MAX_OUTPUT_ENTRIES) return `the build's output holds more than ${MAX_OUTPUT_ENTRIES} files and folders: refused`;
        if (rel.length > MAX_OUTPUT_PATH) return `the build's output has a path longer than ${MAX_OUTPUT_PATH} characters (${JSON.stringify(`${rel.slice(0, 80)}…`)}): refused`;
        if (entry.isDirectory()) folders.push(rel);
        else if (!entry.isFile()) return `the build's output holds ${specialKind(entry)} at ${JSON.stringify(rel)}; a site holds only files and folders: refused`;
        const problem = visit?.(rel, entry);
        if (problem) return problem;
        if (count % OUTPUT_WALK_SLICE === 0) await new Promise(setImmediate);
      }
    } finally {
      handle.closeSync();
    }
  }
  return undefined;
}

/** What a directory entry that is neither a file nor a directory is, in words. */
function specialKind(entry: Dirent): string {
  if (entry.isSymbolicLink()) return 'a symbolic link';
  if (entry.isFIFO()) return 'a FIFO';
  if (entry.isSocket()) return 'a socket';
  return 'a device';
}

/**
 * Moves the files and directories of `from` (checked by takeOutput) into `to`: a directory already
 * in `to` is merged into, anything else there is replaced by a rename (which replaces a hard link
 * to a kept build's file, never the file it shares).
 */
export async function mergeInto(from: string, to: string): Promise<void> {
  for (const entry of await fs.readdir(from, { withFileTypes: true })) {
    if (!entry.isFile() && !entry.isDirectory()) continue;
    const source = path.join(from, entry.name);
    const dest = path.join(to, entry.name);
    const existing = await fs.lstat(dest).catch(() => undefined);
    if (existing?.isDirectory() && entry.isDirectory()) {
      await mergeInto(source, dest);
      continue;
    }
    if (existing?.isDirectory()) await fs.rm(dest, { recursive: true, force: true });
    await moveInto(source, dest);
  }
}

/** A rename, or a copy when `from` and `to` are on two filesystems. */
export async function moveInto(from: string, to: string): Promise<void> {
  await fs.rename(from, to).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EXDEV') throw error;
    await fs.cp(from, to, { recursive: true, verbatimSymlinks: true });
  });
}

/**
 * Why a fast redeploy's partial output cannot go over the previous build, or undefined when it
 * can: every asset it emitted must be in the previous build with the same bytes, and each page it
 * rendered must use the same assets as before (a page that starts or stops using a component's
 * script changes what a full build emits).
 */
export async function reuseRefusal(partial: string, previous: string): Promise<string | undefined> {
  const files = await listFiles(partial);
  for (const rel of files) {
    if (!rel.startsWith('_astro/')) continue;
    // The previous build may predate the check of build output (takeOutput): read as the site handler reads.
    const [ours, theirs] = await Promise.all([fs.readFile(path.join(partial, rel)), fs.readFile(path.join(previous, rel), { flag: BUILD_FILE_FLAGS }).catch(() => undefined)]);
    if (!theirs?.equals(ours)) return `the asset /${rel} is new`;
  }
  const assets = (html: string) => [...new Set(html.match(/\/_astro\/[^"'\s)>]+/g) ?? [])].sort().join(' ');
  for (const rel of files) {
    if (!rel.endsWith('.html')) continue;
    const before = await fs.readFile(path.join(previous, rel), { encoding: 'utf8', flag: BUILD_FILE_FLAGS }).catch(() => undefined);
    if (before === undefined) return `/${rel} is new`;
    if (assets(before) !== assets(await fs.readFile(path.join(partial, rel), 'utf8'))) return `/${rel} uses other assets than before`;
  }
  return undefined;
}

/** Every regular file under `dir`, relative to it with "/" separators. */
export async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listFiles(dir, rel)));
    else if (entry.isFile()) out.push(rel);
  }
  return out;
}

/**
 * Copies the static files of a Mintlify-layout root (listed by src/site/layout.ts: regular files only, no
 * dot files, no settings, no ignored files) into the site at their own paths. Never follows a link
 * (O_NOFOLLOW), and never replaces a file the build wrote (a page, the sitemap, the search index):
 * such a file is left out with a warning.
 */
export async function copyStaticFiles(from: string, assets: string[], outDir: string, emit: (line: string) => void) {
  for (const file of assets) {
    const dest = path.join(outDir, ...file.split('/'));
    let source: fs.FileHandle | undefined;
    try {
      source = await fs.open(path.join(from, ...file.split('/')), fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW);
      if (!(await source.stat()).isFile()) continue;
      await fs.mkdir(path.dirname(dest), { recursive: true });
      await pipeline(source.createReadStream({ autoClose: false }), createWriteStream(dest, { flags: 'wx' }));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' || code === 'ENOTDIR') emit(`[folio] warning: ${file}:1:1: not served: the site already has a file at /${file}`);
      else if (code === 'ELOOP' || code === 'ENOENT') continue; // a link, or left out of the sandbox's copy
      else throw error;
    } finally {
      await source?.close();
    }
  }
}

export async function emptyDir(dir: string) {
  const entries = await fs.readdir(dir).catch(() => [] as string[]);
  await Promise.all(entries.map((e) => fs.rm(path.join(dir, e), { recursive: true, force: true })));
}
