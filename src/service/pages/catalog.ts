// The list of a project's pages, fast enough for thousands of pages: a snapshot of the content
// folder (fast-glob) reused while none of its folders changed, and a cache of each file's title
// and description keyed by mtime and size, so a changed folder re-reads only changed files.
//
// A snapshot is reused while every folder under `content/` keeps its inode and mtime (adding,
// removing or renaming a file changes its folder; API writes rename; a sync replaces the whole
// root) and it is younger than MAX_AGE_MS, which bounds how stale a list can be after another
// program edits a file in place. Writes through the API update the snapshot in place (and their
// folders' stamps), so a create does not cost a rescan; deletes drop it.
import { lstatSync } from 'node:fs';
import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import fg from 'fast-glob';
import { parsePage, summaryOf, type PageSummary } from './files.ts';
import { pageAddress, pathOfFile } from './paths.ts';

/** One page as listed, with what every list answer shows of it worked out once. */
export interface ListedPage extends PageSummary {
  path: string;
  /** Path relative to `content/`, with its extension. */
  file: string;
  /** Site address relative to the site root (pageAddress). */
  address: string;
  updated_at: string;
}

interface FolderStamp {
  ino: number;
  mtimeMs: number;
}

interface Snapshot {
  takenAt: number;
  /** Every folder under (and including) `content/`, by absolute path. */
  folders: Map<string, FolderStamp>;
  /** Sorted by path; one entry per path (`.mdx` wins over `.md`, as in reads). */
  pages: ListedPage[];
}

interface CachedSummary extends PageSummary {
  mtimeMs: number;
  size: number;
}

const MAX_AGE_MS = 1000;
const MAX_SNAPSHOTS = 64;
const MAX_SUMMARIES = 100_000;
const READ_CONCURRENCY = 64;
const PAGE_FILE = /\.mdx?$/;

/** A file's mtime as the API shows it: rounded as fs.Stats#mtime rounds, ISO UTC with ms. */
export function updatedAt(mtimeMs: number): string {
  return new Date(Math.round(mtimeMs)).toISOString();
}

function listedPage(file: string, mtimeMs: number, summary: PageSummary): ListedPage {
  const pagePath = pathOfFile(file);
  const page: ListedPage = { path: pagePath, file, title: summary.title, address: pageAddress(pagePath), updated_at: updatedAt(mtimeMs) };
  if (summary.description !== undefined) page.description = summary.description;
  return page;
}

/** Index of the first page (in path order) whose path is not before `pagePath`. */
export function positionOf(pages: ListedPage[], pagePath: string): number {
  let lo = 0;
  let hi = pages.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (pages[mid]!.path < pagePath) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface PageCatalog {
  /**
   * Every page under `contentDir`, sorted by path; `isPage` (a file relative to `contentDir`) leaves
   * out files that are not pages (the root of a repository in Mintlify's layout holds snippets,
   * ignored folders …). One filter per `contentDir`: a snapshot is reused with the filter it was taken with.
   */
  list(contentDir: string, isPage?: (file: string) => boolean): Promise<ListedPage[]>;
  /** Records a page file just written through the API (`file` relative to `content/`); returns it as listed. */
  written(contentDir: string, file: string, summary: PageSummary): Promise<ListedPage>;
  /** Drops the snapshot of `contentDir` after a page was removed (cached summaries stay: they carry mtime and size). */
  removed(contentDir: string): void;
  /** Drops everything known of `contentDir` (its project was deleted). */
  forget(contentDir: string): void;
  /** Remembers a summary just parsed from a file's text (so a get warms the list). */
  remember(abs: string, mtimeMs: number, size: number, summary: PageSummary): void;
}

export function createPageCatalog(): PageCatalog {
  const snapshots = new Map<string, Snapshot>();
  const scanning = new Map<string, Promise<Snapshot>>();
  const summaries = new Map<string, CachedSummary>();

  const remember = (abs: string, mtimeMs: number, size: number, summary: PageSummary) => {
    summaries.delete(abs);
    if (summaries.size >= MAX_SUMMARIES) summaries.delete(summaries.keys().next().value!);
    summaries.set(abs, { ...summary, mtimeMs, size });
  };

  // Synchronous on purpose: a folder's lstat from the dentry cache takes microseconds, while an
  // async one costs a thread-pool round trip (measured 5x slower for 51 folders).
  const stillValid = (snapshot: Snapshot): boolean => {
    // No folders: `content/` was missing, and nothing would notice it appear.
    if (snapshot.folders.size === 0 || Date.now() - snapshot.takenAt > MAX_AGE_MS) return false;
    for (const [abs, stamp] of snapshot.folders) {
      const stat = lstatSync(abs, { throwIfNoEntry: false });
      if (!stat?.isDirectory() || stat.ino !== stamp.ino || stat.mtimeMs !== stamp.mtimeMs) return false;
    }
    return true;
  };

  const scan = async (contentDir: string, isPage: (file: string) => boolean = () => true): Promise<Snapshot> => {
    const takenAt = Date.now();
    // Stamps are taken before a folder is read, so a change during the scan shows as a new stamp.
    const root = await lstat(contentDir).catch(() => undefined);
    if (!root?.isDirectory()) return { takenAt, folders: new Map(), pages: [] };
    const folders = new Map<string, FolderStamp>([[contentDir, { ino: root.ino, mtimeMs: root.mtimeMs }]]);
    const found: Array<{ file: string; abs: string; mtimeMs: number; size: number }> = [];
    const entries = await fg('**/*', { cwd: contentDir, onlyFiles: false, stats: true, followSymbolicLinks: false, dot: false });
    for (const entry of entries) {
      const abs = path.join(contentDir, entry.path);
      const stats = entry.stats!;
      // Entries have lstat semantics: a symbolic link is neither a folder nor a file here.
      if (entry.dirent.isDirectory()) folders.set(abs, { ino: stats.ino, mtimeMs: stats.mtimeMs });
      else if (entry.dirent.isFile() && PAGE_FILE.test(entry.path) && isPage(entry.path)) found.push({ file: entry.path, abs, mtimeMs: stats.mtimeMs, size: stats.size });
    }
    const pages: ListedPage[] = new Array(found.length);
    let next = 0;
    const worker = async () => {
      while (next < found.length) {
        const i = next++;
        const f = found[i]!;
        const cached = summaries.get(f.abs);
        let summary: PageSummary | undefined = cached;
        if (!cached || cached.mtimeMs !== f.mtimeMs || cached.size !== f.size) {
          const text = await readFile(f.abs, 'utf8').catch(() => '');
          summary = summaryOf(parsePage(text, pathOfFile(f.file)));
          remember(f.abs, f.mtimeMs, f.size, summary);
        }
        pages[i] = listedPage(f.file, f.mtimeMs, summary!);
      }
    };
    await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, found.length) }, worker));
    pages.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.file.endsWith('.mdx') ? -1 : 1));
    return { takenAt, folders, pages: pages.filter((p, i) => i === 0 || pages[i - 1]!.path !== p.path) };
  };

  const keep = (contentDir: string, snapshot: Snapshot) => {
    snapshots.delete(contentDir);
    if (snapshots.size >= MAX_SNAPSHOTS) snapshots.delete(snapshots.keys().next().value!);
    snapshots.set(contentDir, snapshot);
  };

  return {
    async list(contentDir, isPage) {
      const known = snapshots.get(contentDir);
      if (known && stillValid(known)) return known.pages;
      // Concurrent lists of one project share a scan.
      let pending = scanning.get(contentDir);
      if (!pending) {
        pending = scan(contentDir, isPage).finally(() => scanning.delete(contentDir));
        scanning.set(contentDir, pending);
        keep(contentDir, await pending);
      }
      return (await pending).pages;
    },

    async written(contentDir, file, summary) {
      const abs = path.join(contentDir, file);
      const stat = await lstat(abs);
      remember(abs, stat.mtimeMs, stat.size, summary);
      const page = listedPage(file, stat.mtimeMs, summary);
      const snapshot = snapshots.get(contentDir);
      if (!snapshot) return page;
      // The write changed the stamps of its folders (and may have made some): take them anew. A
      // folder that is no longer the one stamped (a sync swapped the root in meanwhile) means the
      // snapshot describes files that are gone: it is dropped, not re-stamped into looking current.
      const parts = file.split('/').slice(0, -1);
      for (let i = 0; i <= parts.length; i++) {
        const folder = path.join(contentDir, ...parts.slice(0, i));
        const folderStat = await lstat(folder).catch(() => undefined);
        const stamped = snapshot.folders.get(folder);
        if (!folderStat?.isDirectory() || (stamped && stamped.ino !== folderStat.ino)) {
          snapshots.delete(contentDir);
          return page;
        }
        snapshot.folders.set(folder, { ino: folderStat.ino, mtimeMs: folderStat.mtimeMs });
      }
      const at = positionOf(snapshot.pages, page.path);
      const replaces = snapshot.pages[at]?.path === page.path;
      snapshot.pages.splice(at, replaces ? 1 : 0, page);
      return page;
    },

    removed(contentDir) {
      snapshots.delete(contentDir);
    },

    forget(contentDir) {
      snapshots.delete(contentDir);
      const prefix = contentDir + path.sep;
      for (const abs of summaries.keys()) if (abs.startsWith(prefix)) summaries.delete(abs);
    },

    remember,
  };
}
