// What a crash (kill -9, power loss, OOM) leaves in the data dir, removed at start before anything
// runs, so nothing accumulates from one crash to the next:
//
//   temporary files of interrupted atomic writes (atomic-write.ts): store, backups, page files
//   the projects/{id} folder of a project whose delete was interrupted (it is gone from the store)
//   snapshots of interrupted deployments (no deployment runs yet at this point)
//   build dirs that are neither live nor among the kept builds (publish.ts), half-made live links
//   fresh or old content roots and index files of an interrupted sync (sync.ts), previews' too
//   kept trees of the sync whose content root is gone (a removed preview, a disconnected repository)
//   empty folders under content/ left by deleted pages
//
// Nothing a finished operation still needs is touched: the store and its backups, the live build
// and the kept builds, logs, repository clones, page files. Content roots of projects connected
// to a repository are a checkout of their repository, where a file is never Folio's temporary one:
// only the sync's own leftovers are removed there.
import { readdir, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { isTempFileName } from './atomic-write.ts';
import { createDiskBuildStorage } from './builds/disk.ts';
import type { BuildStorage } from './builds/storage.ts';
import { KEPT_BUILDS, keptBuilds } from './deployments/publish.ts';
import { cleanSyncLeftovers, removeKeptTrees } from './deployments/sync.ts';
import { buildIdOfEntry, buildsDir, contentRootDir, gitDir, previewsDir, projectDataDir } from './project-files.ts';
import { BACKUP_DIR } from './store-backups.ts';
import type { Store } from './store/store.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const names = (dir: string) => readdir(dir).catch(() => [] as string[]);

/** Removes the temporary files directly in `dir`; returns their paths. */
async function removeTempFiles(dir: string): Promise<string[]> {
  const found = (await names(dir)).filter(isTempFileName).map((n) => path.join(dir, n));
  await Promise.all(found.map((f) => rm(f, { force: true })));
  return found;
}

/** Temporary files anywhere under `dir`, and folders left empty (not `dir` itself). */
async function cleanContent(dir: string, removed: string[]): Promise<boolean> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  let left = entries.length;
  for (const entry of entries) {
    const abs = path.join(dir, entry.name);
    if (entry.isFile() && isTempFileName(entry.name)) {
      await rm(abs, { force: true });
      removed.push(abs);
      left--;
    } else if (entry.isDirectory() && (await cleanContent(abs, removed))) {
      await rmdir(abs).then(() => {
        removed.push(abs);
        left--;
      }, () => {});
    }
  }
  return left === 0;
}

/** One project's leftovers. */
async function cleanProject(dataDir: string, store: Store, projectId: string, removed: string[], keep: number, storage: BuildStorage): Promise<void> {
  const dir = projectDataDir(dataDir, projectId);
  const project = await store.getProject(projectId);
  if (!project) {
    await rm(dir, { recursive: true, force: true, maxRetries: 3 });
    removed.push(dir);
    return;
  }
  for (const name of await names(dir)) {
    // builds/disk.ts makes `live.{deployment}.tmp` and renames it over `live`.
    if (name.startsWith('live.') && name.endsWith('.tmp')) {
      await rm(path.join(dir, name), { force: true });
      removed.push(path.join(dir, name));
    }
  }
  const snapshots = path.join(dir, 'snapshots');
  for (const name of await names(snapshots)) {
    await rm(path.join(snapshots, name), { recursive: true, force: true });
    removed.push(path.join(snapshots, name));
  }
  const builds = buildsDir(dataDir, projectId);
  // With object storage, builds in the data dir are only ones not uploaded yet: none is kept.
  const kept = storage.kind === 'disk' ? await keptBuilds(storage, store, projectId, keep) : new Set<string>();
  for (const name of await names(builds)) {
    if (kept.has(buildIdOfEntry(name))) continue;
    await rm(path.join(builds, name), { recursive: true, force: true });
    removed.push(path.join(builds, name));
  }
  const root = contentRootDir(dataDir, projectId);
  removed.push(...(await cleanSyncLeftovers(root, gitDir(dataDir, projectId))));
  // Previews (continuous deployment): half-made live links and unfinished syncs of their roots.
  for (const label of await names(previewsDir(dataDir, projectId))) {
    const dir = path.join(previewsDir(dataDir, projectId), label);
    for (const name of await names(dir)) {
      if (name.startsWith('live.') && name.endsWith('.tmp')) {
        await rm(path.join(dir, name), { force: true });
        removed.push(path.join(dir, name));
      }
    }
    removed.push(...(await cleanSyncLeftovers(path.join(dir, 'root'), gitDir(dataDir, projectId))));
  }
  // Kept trees of the sync (sync.ts keptTree) whose content root is gone: a preview removed while a
  // sync of it still ran elsewhere, or a repository disconnected then.
  const roots = project.source_repo ? [root, ...(await names(previewsDir(dataDir, projectId))).map((label) => path.join(previewsDir(dataDir, projectId), label, 'root'))] : [];
  removed.push(...(await removeKeptTrees(gitDir(dataDir, projectId), roots)));
  if (!project.source_repo) await cleanContent(path.join(root, 'content'), removed);
}

/** Removes every crash leftover in the data dir (see above); returns the paths removed. */
export async function cleanCrashLeftovers(dataDir: string, store: Store, keep = KEPT_BUILDS, builds: BuildStorage = createDiskBuildStorage(dataDir)): Promise<string[]> {
  const removed = [...(await removeTempFiles(dataDir)), ...(await removeTempFiles(path.join(dataDir, BACKUP_DIR)))];
  for (const name of await names(path.join(dataDir, 'projects'))) {
    if (UUID.test(name)) await cleanProject(dataDir, store, name, removed, keep, builds);
  }
  return removed;
}
