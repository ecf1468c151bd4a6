// Sync: brings a project's content root to the head of its repository branch. The clone in
// `projects/{id}/git/` is a bare repository reused between deployments (a shallow fetch of the
// last HISTORY_DEPTH commits, not a fresh clone). The commit's tree is listed and checked before
// one byte is written: symlinks,
// submodules, too many or too large files fail the sync, so nothing outside the checkout can be
// reached through it. Only the files that changed since the last sync are then written, into a
// tree kept beside the clone (keptTree), which is hard-linked into a fresh directory that replaces
// the content root by rename, so the pages API never sees a half-written root. A deployment has
// the kept tree linked into its snapshot instead, and the content root replaced once it is over
// (SyncResult.replaceContentRoot): one pass over the files before its build, not two.
import { createHash } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { linkTree, removeTree } from '../../lib/link-tree.ts';
import { git, gitCapped, GitError, type GitOptions } from '../git.ts';

export interface SyncLimits {
  maxFiles: number;
  maxFileBytes: number;
  maxTotalBytes: number;
}

export const SYNC_LIMITS: SyncLimits = {
  // A site of 25,000 pages with its snippets, images and OpenAPI files (docs/decisions.md, "Sites of
  // 25,000 pages"); the byte limits below bound what the files hold.
  maxFiles: 50_000,
  maxFileBytes: 25 * 1024 * 1024,
  maxTotalBytes: 500 * 1024 * 1024,
};

/** A repository's URL: FOLIO_GIT_URL with `{owner}` and `{name}` filled in from `owner/name`. */
export function repositoryUrl(gitUrl: string, repository: string): string {
  const [owner, name] = repository.split('/');
  return gitUrl.replaceAll('{owner}', owner).replaceAll('{name}', name);
}

export interface SyncInput {
  /** The repository URL (FOLIO_GIT_URL with owner and name filled in). */
  url: string;
  /** `owner/name`: how messages name the repository (never by its URL, which may tell server paths). */
  repository: string;
  /** The branch to sync; undefined: the repository's default branch. */
  branch?: string;
  /** The bare clone, reused between syncs. */
  gitDir: string;
  /** The content root to replace. */
  contentRoot: string;
  protocols: string[];
  timeoutMs: number;
  signal?: AbortSignal;
  log(line: string): void;
  limits?: SyncLimits;
  /**
   * A deployment's snapshot (a folder that does not exist yet): the synced files are linked there,
   * and the content root is left as it was until `replaceContentRoot` is called.
   */
  snapshot?: string;
}

export interface SyncResult {
  branch: string;
  commitSha: string;
  fileCount: number;
  /**
   * With `snapshot`: replaces the content root by the synced files (the kept tree as it is then),
   * by rename as a sync does. Called once the deployment is over, whatever its outcome: until then
   * the content root is the previous sync's. Does nothing when the kept tree is no longer whole
   * (a sync of it cut short since) or was removed (the preview or the repository went meanwhile).
   * Once only: a second call, or one after replacePendingContentRoot, does nothing; with `apply`
   * false it only says the root is to stay as it is.
   */
  replaceContentRoot?: (apply?: boolean) => Promise<void>;
}

export class SyncError extends Error {
  override name = 'SyncError';
}

export const SYNC_REF = 'refs/folio/sync';

/**
 * Commits fetched per sync: enough history for pages' last-updated dates (page-history.ts) at a
 * bounded cost; a page unchanged within them shows no date.
 */
export const HISTORY_DEPTH = 50;

/** Fetches the branch head and makes it the content root. Throws SyncError with a clear message. */
export async function syncRepository(input: SyncInput): Promise<SyncResult> {
  const options: GitOptions = { protocols: input.protocols, timeoutMs: input.timeoutMs, signal: input.signal };
  const limits = input.limits ?? SYNC_LIMITS;
  try {
    await ensureBareRepository(input.gitDir, options);
    const branch = input.branch ?? (await defaultBranch(input.gitDir, input.url, options));
    input.log(`sync: fetching branch ${branch}`);
    await gitCapped(
      input.gitDir,
      ['fetch', `--depth=${HISTORY_DEPTH}`, '--no-tags', '--no-write-fetch-head', '--recurse-submodules=no', '--force', '--end-of-options', input.url, `+refs/heads/${branch}:${SYNC_REF}`],
      options,
      limits.maxTotalBytes,
    );
    const commitSha = (await git(input.gitDir, ['rev-parse', '--verify', '--end-of-options', `${SYNC_REF}^{commit}`], options)).trim();
    input.log(`sync: ${branch} is at commit ${commitSha}`);
    const files = await listTree(input.gitDir, commitSha, options, limits);
    const replaceContentRoot = await checkOut(input, commitSha, options);
    input.log(`sync: checked out ${files} file(s)`);
    return { branch, commitSha, fileCount: files, ...(replaceContentRoot ? { replaceContentRoot } : {}) };
  } catch (error) {
    if (error instanceof GitError) throw new SyncError(cleanGitMessage(error.message, input.url, input.repository));
    throw error;
  }
}

/** Git quotes the URL (or a file:// URL's path) in its messages: the repository is named instead. */
function cleanGitMessage(message: string, url: string, repository: string): string {
  let clean = message.replaceAll(url, repository);
  if (url.startsWith('file://')) clean = clean.replaceAll(decodeURIComponent(new URL(url).pathname), repository);
  return clean.replace(/^fatal: /gm, '').trim();
}

async function ensureBareRepository(gitDir: string, options: GitOptions): Promise<void> {
  if (await stat(path.join(gitDir, 'HEAD')).catch(() => undefined)) return;
  await rm(gitDir, { recursive: true, force: true });
  await mkdir(gitDir, { recursive: true });
  await git(gitDir, ['init', '--quiet', '--bare', '.'], options);
}

/** The branch the remote's HEAD points at (`git ls-remote --symref URL HEAD`). */
async function defaultBranch(gitDir: string, url: string, options: GitOptions): Promise<string> {
  const out = await git(gitDir, ['ls-remote', '--symref', '--end-of-options', url, 'HEAD'], options);
  const match = /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(out);
  if (!match) throw new SyncError('the repository has no default branch (it may be empty): set source_branch');
  return match[1];
}

/**
 * Lists the commit's tree (`git ls-tree -r -l -z`) and refuses anything but regular files within
 * the limits. Returns the number of files.
 */
async function listTree(gitDir: string, commit: string, options: GitOptions, limits: SyncLimits): Promise<number> {
  const out = await git(gitDir, ['ls-tree', '-r', '-l', '-z', '--full-tree', '--end-of-options', commit], options);
  let files = 0;
  let total = 0;
  for (const entry of out.split('\0')) {
    if (!entry) continue;
    // "<mode> SP <type> SP <object> SP+ <size> TAB <path>"
    const tab = entry.indexOf('\t');
    const [mode, type, , size] = entry.slice(0, tab).split(/ +/);
    const file = entry.slice(tab + 1);
    if (mode === '120000') throw new SyncError(`${file} is a symbolic link: Folio refuses links in a repository (copy the file instead)`);
    if (type === 'commit') throw new SyncError(`${file} is a submodule: Folio does not fetch submodules (copy the files instead)`);
    if (mode !== '100644' && mode !== '100755') throw new SyncError(`${file} is not a regular file (mode ${mode})`);
    if (Number(size) > limits.maxFileBytes) {
      throw new SyncError(`${file} is ${formatBytes(Number(size))}, over the limit of ${formatBytes(limits.maxFileBytes)} per file`);
    }
    files += 1;
    total += Number(size);
    if (files > limits.maxFiles) throw new SyncError(`the repository has more than ${limits.maxFiles} files, Folio's limit`);
    if (total > limits.maxTotalBytes) throw new SyncError(`the repository's files add up to more than ${formatBytes(limits.maxTotalBytes)}, Folio's limit`);
  }
  return files;
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(n / 1024)} KB`;
}

/**
 * Removes what an interrupted checkout left: fresh and old roots, private index files (one sync
 * per project runs at a time, so any of them belongs to a process that died). A crash between
 * the two renames of a checkout leaves no content root but the old one: it is put back.
 * Returns the paths removed. An old root this process is still removing (a replaced root's
 * removal runs in the background) is waited for, or with `waitForRemovals` false left to that
 * removal: a sync does not wait for the previous deployment's (which now starts as that
 * deployment ends, just before the next push's sync).
 */
export async function cleanSyncLeftovers(contentRoot: string, gitDir: string, waitForRemovals = true): Promise<string[]> {
  if (waitForRemovals) await Promise.all(removals.values());
  const parent = path.dirname(contentRoot);
  const names = (await readdir(parent).catch(() => [] as string[])).filter((n) => !removals.has(path.join(parent, n)));
  const olds = names.filter((n) => n.startsWith('.root-old-')).sort();
  if (olds.length > 0 && !names.includes(path.basename(contentRoot))) {
    await rename(path.join(parent, olds.pop()!), contentRoot);
  }
  const removed: string[] = [];
  for (const name of names) {
    if (name.startsWith('.root-new-') || olds.includes(name)) {
      await rm(path.join(parent, name), { recursive: true, force: true });
      removed.push(path.join(parent, name));
    }
  }
  for (const name of await readdir(gitDir).catch(() => [] as string[])) {
    if (name.startsWith('folio-index-')) {
      await rm(path.join(gitDir, name), { force: true });
      removed.push(path.join(gitDir, name));
    }
  }
  return removed;
}

/**
 * The files of a content root as of its last sync, kept beside the clone with their own index:
 * one per content root (the project's, each preview's), named after its path in the project folder.
 */
export function keptTree(gitDir: string, contentRoot: string): { tree: string; index: string } {
  const id = createHash('sha256').update(path.relative(path.dirname(gitDir), contentRoot)).digest('hex').slice(0, 16);
  return { tree: path.join(gitDir, `folio-root-${id}`), index: path.join(gitDir, `folio-root-${id}.index`) };
}

/**
 * Removes the kept tree of a content root and its index files, once no checkout into it runs. A
 * preview's goes with the preview (deployments/service.ts), so the clone's folder does not grow
 * with every branch ever pushed.
 */
export async function removeKeptTree(gitDir: string, contentRoot: string): Promise<void> {
  const kept = keptTree(gitDir, contentRoot);
  await withKeptTrees(gitDir, () => removeKept(kept.tree));
}

/**
 * Removes the kept trees in the clone's folder but those of `contentRoots` (all of them when it is
 * empty: the project's repository was disconnected), once no checkout runs. Returns their paths.
 */
export async function removeKeptTrees(gitDir: string, contentRoots: string[] = []): Promise<string[]> {
  const keep = new Set(contentRoots.map((root) => path.basename(keptTree(gitDir, root).tree)));
  return withKeptTrees(gitDir, async () => {
    const removed: string[] = [];
    for (const name of await readdir(gitDir).catch(() => [] as string[])) {
      const tree = /^(folio-root-[0-9a-f]{16})(?:\.index(?:\.busy)?)?$/.exec(name)?.[1];
      if (!tree || keep.has(tree) || name !== tree) continue;
      await removeKept(path.join(gitDir, tree));
      removed.push(path.join(gitDir, tree));
    }
    // An index whose tree is already gone (a removal cut short between the two).
    for (const name of await readdir(gitDir).catch(() => [] as string[])) {
      const tree = /^(folio-root-[0-9a-f]{16})\.index(?:\.busy)?$/.exec(name)?.[1];
      if (!tree || keep.has(tree)) continue;
      await rm(path.join(gitDir, name), { force: true });
      removed.push(path.join(gitDir, name));
    }
    return removed;
  });
}

/** The index first: a tree without its index is written afresh by the next checkout. */
async function removeKept(tree: string): Promise<void> {
  await rm(`${tree}.index`, { force: true });
  await rm(`${tree}.index.busy`, { force: true });
  await removeTree(tree);
}

/**
 * The checkouts into a clone's kept trees and their removals, one at a time per clone in this
 * process (one deployment per project runs at a time, but a preview's removal comes from a push
 * delivery or the expiry sweep, beside it).
 */
const keptTreeTurns = new Map<string, Promise<unknown>>();

async function withKeptTrees<T>(gitDir: string, fn: () => Promise<T>): Promise<T> {
  const before = keptTreeTurns.get(gitDir) ?? Promise.resolve();
  const turn = before.catch(() => undefined).then(fn);
  const settled = turn.catch(() => undefined);
  keptTreeTurns.set(gitDir, settled);
  void settled.then(() => {
    if (keptTreeTurns.get(gitDir) === settled) keptTreeTurns.delete(gitDir);
  });
  return turn;
}

/**
 * Replaced content roots still being removed, by path. A sync does not wait for the removal (a file
 * per page, ~50 ms of every push on a 1,000-page site, ~2 s at 25,000), nor does the next sync, which
 * leaves it to run; cleanSyncLeftovers' other callers wait for it, and a removal cut short by a
 * crash is a `.root-old-` leftover that cleanup removes.
 */
const removals = new Map<string, Promise<void>>();

/**
 * Brings the kept tree to the commit, writing only the files that changed since the last sync
 * (`read-tree -m -u` against its kept index: unchanged files keep their inodes and dates, and a
 * changed one is replaced by a new file, never written into, so links to the old one keep its
 * text); then hard-links it into a new directory that replaces the content root by rename, or
 * into the deployment's snapshot (returning how to replace the content root later).
 */
async function checkOut(input: SyncInput, commit: string, options: GitOptions): Promise<SyncResult['replaceContentRoot']> {
  const kept = keptTree(input.gitDir, input.contentRoot);
  await cleanSyncLeftovers(input.contentRoot, input.gitDir, false);
  const snapshot = input.snapshot;
  if (!snapshot) {
    await replaceRoot(input, (fresh) => updateKeptTree(input, commit, options, kept, fresh));
    return undefined;
  }
  await withKeptTrees(input.gitDir, () => updateKeptTree(input, commit, options, kept, snapshot));
  // Runs while it is the root's pending replacement (one deployment per project at a time, so no
  // later sync registers another before it ran), and once.
  const replace = async (apply = true) => {
    if (pendingRoots.get(input.contentRoot) !== replace) return;
    pendingRoots.delete(input.contentRoot);
    if (!apply) return;
    // A content root whose folder went (a preview removed) is not made again.
    if (!(await stat(path.dirname(input.contentRoot)).catch(() => undefined))) return;
    await replaceRoot(input, async (fresh) => {
      // The index is put back only once the tree is whole (updateKeptTree).
      if (!(await stat(kept.index).catch(() => undefined))) return false;
      await linkTree(kept.tree, fresh);
    });
  };
  pendingRoots.set(input.contentRoot, replace);
  return replace;
}

/**
 * Content roots whose replacement by their last checkout waits for the end of the deployment that
 * synced it (checkOut with a snapshot), in this process.
 */
const pendingRoots = new Map<string, (apply?: boolean) => Promise<void>>();

/**
 * Brings a content root to its last checkout now, if a running deployment's replacement of it is
 * still to come: before its repository is disconnected (the kept tree is removed then, and the
 * deployment leaves the root alone afterwards: runner.ts), so the root the pages API takes over is
 * the commit synced last, as when each sync replaced it at once.
 */
export async function replacePendingContentRoot(contentRoot: string): Promise<void> {
  await pendingRoots.get(contentRoot)?.();
}

/**
 * Fills a new directory under the clone's turn (withKeptTrees) and puts it in place of the content
 * root by rename; `fill` returning false leaves the content root as it is.
 */
async function replaceRoot(input: SyncInput, fill: (fresh: string) => Promise<void | false>): Promise<void> {
  const parent = path.dirname(input.contentRoot);
  const stamp = `${process.pid}-${Date.now()}`;
  const fresh = path.join(parent, `.root-new-${stamp}`);
  const old = path.join(parent, `.root-old-${stamp}`);
  try {
    if ((await withKeptTrees(input.gitDir, () => fill(fresh))) === false) return;
    const hadRoot = await rename(input.contentRoot, old).then(() => true, (e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return false;
      throw e;
    });
    await rename(fresh, input.contentRoot);
    if (hadRoot) {
      removals.set(old, removeTree(old).catch(() => undefined).finally(() => removals.delete(old)));
    }
  } finally {
    await rm(fresh, { recursive: true, force: true });
  }
}

/** The kept tree at the commit, linked into `into`: under the clone's turn (withKeptTrees). */
async function updateKeptTree(input: SyncInput, commit: string, options: GitOptions, kept: { tree: string; index: string }, into: string): Promise<void> {
  // The index records what the tree holds. It is renamed aside while the tree changes: a sync
  // interrupted half-way leaves a tree without its index, which is then written afresh.
  const busy = `${kept.index}.busy`;
  const afresh = async () => {
    await rm(kept.tree, { recursive: true, force: true });
    await rm(busy, { force: true });
  };
  const hadIndex = await rename(kept.index, busy).then(() => true, () => false);
  if (!hadIndex) await afresh();
  // read-tree runs no hooks or filters and writes regular files only. ctime is not compared:
  // links made to the tree's files change it.
  const update = async () => {
    await mkdir(kept.tree, { recursive: true });
    await git(input.gitDir, ['-c', 'core.trustctime=false', `--work-tree=${kept.tree}`, 'read-tree', '-m', '-u', '--end-of-options', commit], { ...options, env: { GIT_INDEX_FILE: busy } });
  };
  await update().catch(async (error: unknown) => {
    if (!hadIndex) throw error;
    // A file of the tree is not what its index says (git refuses to write over it): afresh.
    await afresh();
    await update();
  });
  await rename(busy, kept.index);
  await linkTree(kept.tree, into);
}
