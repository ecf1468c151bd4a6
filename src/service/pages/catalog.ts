// The list of a project's pages, fast enough for thousands of pages: a snapshot of the content
// folder (fast-glob) reused while none of its folders changed, and a cache of each file's title
// and description keyed by mtime and size, so a changed folder re-reads only changed files.
//
// A snapshot is reused while every folder under `content/` keeps its inode and mtime (adding,
// removing or renaming a file changes its folder; API writes rename; a sync replaces the whole
// root) and it is younger than MAX_AGE_MS, which bounds how stale a list can be after another
// program edits a file in place. Writes through the API drop the snapshot at once.
import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import fg from 'fast-glob';
import { parsePage, type PageSummary } from './files.ts';
import { pathOfFile } from './paths.ts';

/** One page as listed. */
export interface ListedPage extends PageSummary {
  path: string;
  /** Path relative to `content/`, with its extension. */
  file: string;
  mtimeMs: number;
}

interface FolderStamp {
  abs: string;
  ino: number;
  mtimeMs: number;
}

interface Snapshot {
  takenAt: number;
  folders: FolderStamp[];
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

export interface PageCatalog {
  /** Every page under `contentDir`, sorted by path. */
  list(contentDir: string): Promise<ListedPage[]>;
  /** Drops the snapshot of `contentDir` after a write (cached summaries stay: they carry mtime and size). */
  changed(contentDir: string): void;
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

  const stillValid = async (snapshot: Snapshot): Promise<boolean> => {
    if (Date.now() - snapshot.takenAt > MAX_AGE_MS) return false;
    const stamps = await Promise.all(snapshot.folders.map((f) => lstat(f.abs).catch(() => undefined)));
    return stamps.every((stat, i) => stat?.isDirectory() && stat.ino === snapshot.folders[i]!.ino && stat.mtimeMs === snapshot.folders[i]!.mtimeMs);
  };

  const scan = async (contentDir: string): Promise<Snapshot> => {
    const takenAt = Date.now();
    // Stamps are taken before a folder is read, so a change during the scan shows as a new stamp.
    const root = await lstat(contentDir).catch(() => undefined);
    if (!root?.isDirectory()) return { takenAt, folders: [], pages: [] };
    const folders: FolderStamp[] = [{ abs: contentDir, ino: root.ino, mtimeMs: root.mtimeMs }];
    const found: Array<{ file: string; abs: string; mtimeMs: number; size: number }> = [];
    const entries = await fg('**/*', { cwd: contentDir, onlyFiles: false, stats: true, followSymbolicLinks: false, dot: false });
    for (const entry of entries) {
      const abs = path.join(contentDir, entry.path);
      const stats = entry.stats!;
      // Entries have lstat semantics: a symbolic link is neither a folder nor a file here.
      if (entry.dirent.isDirectory()) folders.push({ abs, ino: stats.ino, mtimeMs: stats.mtimeMs });
      else if (entry.dirent.isFile() && PAGE_FILE.test(entry.path)) found.push({ file: entry.path, abs, mtimeMs: stats.mtimeMs, size: stats.size });
    }
    const pages: ListedPage[] = new Array(found.length);
    let next = 0;
    const worker = async () => {
      while (next < found.length) {
        const i = next++;
        const f = found[i]!;
        const pagePath = pathOfFile(f.file);
        const cached = summaries.get(f.abs);
        let summary: PageSummary | undefined = cached;
        if (!cached || cached.mtimeMs !== f.mtimeMs || cached.size !== f.size) {
          const text = await readFile(f.abs, 'utf8').catch(() => '');
          const { title, description } = parsePage(text, pagePath);
          summary = description === undefined ? { title } : { title, description };
          remember(f.abs, f.mtimeMs, f.size, summary);
        }
        const page: ListedPage = { path: pagePath, file: f.file, mtimeMs: f.mtimeMs, title: summary!.title };
        if (summary!.description !== undefined) page.description = summary!.description;
        pages[i] = page;
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
    async list(contentDir) {
      const known = snapshots.get(contentDir);
      if (known && (await stillValid(known))) return known.pages;
      // Concurrent lists of one project share a scan.
      let pending = scanning.get(contentDir);
      if (!pending) {
        pending = scan(contentDir).finally(() => scanning.delete(contentDir));
        scanning.set(contentDir, pending);
        keep(contentDir, await pending);
      }
      return (await pending).pages;
    },

    changed(contentDir) {
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
