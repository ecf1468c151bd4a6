// Builds in the data dir, the default: each build a folder, the live one a symlink switched
// atomically (a new link renamed over the old one), so a request sees either the old site or the
// new one, never a mix. A preview has a live link of its own (previews/{label}/live); promote points
// `live` back at an earlier build (docs/decisions.md#continuous-deployment).
import { lstat, readdir, readlink, rename, rm, stat, symlink } from 'node:fs/promises';
import path from 'node:path';
import { removeTree } from '../../lib/link-tree.ts';
import { createDiskLogs } from '../deployments/log.ts';
import { buildDir, buildIdOfEntry, buildsDir, liveLink, previewLiveLink, previewsDir } from '../project-files.ts';
import type { BuildStorage, LiveBuilds } from './storage.ts';


const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Builds as folders of the data dir, the live one a symlink: one node. */
export function createDiskBuildStorage(dataDir: string): BuildStorage {
  return {
    kind: 'disk',
    async keep() {},
    async keepSnapshot() {},
    publish: (projectId, buildId, label) => (label ? publishPreview(dataDir, projectId, label, buildId) : publishBuild(dataDir, projectId, buildId)),
    hasBuild: async (projectId, buildId) => !!(await stat(buildDir(dataDir, projectId, buildId)).catch(() => undefined)),
    liveBuilds: (projectId) => linkedBuilds(dataDir, projectId),
    prune: (projectId, keep) => pruneBuilds(dataDir, projectId, keep),
    async removePreview(projectId, label) {
      await rm(previewLiveLink(dataDir, projectId, label), { force: true });
    },
    async stalePreviews(before) {
      const stale: { projectId: string; label: string }[] = [];
      for (const projectId of await readdir(path.join(dataDir, 'projects')).catch(() => [] as string[])) {
        if (!UUID.test(projectId)) continue;
        for (const label of await readdir(previewsDir(dataDir, projectId)).catch(() => [] as string[])) {
          // The live link's time is the preview's last publish.
          const link = await lstat(previewLiveLink(dataDir, projectId, label)).catch(() => undefined);
          if (link && link.mtimeMs < before) stale.push({ projectId, label });
        }
      }
      return stale;
    },
    async removeProject() {}, // its builds are in its project folder, removed with it
    onLiveChange() {}, // one node: every change is its own
    serving: { kind: 'disk', dataDir },
    logs: createDiskLogs(dataDir),
    async close() {},
  };
}


/** Points `link` at the build of `buildId` by renaming a fresh link over it. */
async function switchLink(link: string, buildId: string, dataDir: string, projectId: string): Promise<void> {
  const temp = `${link}.${buildId}.tmp`;
  await rm(temp, { force: true });
  // Relative target: the project directory can move with the data dir.
  await symlink(path.relative(path.dirname(link), buildDir(dataDir, projectId, buildId)), temp);
  await rename(temp, link);
}

/** Makes the build of `buildId` the project's live site (a deployment's own build, or an earlier one: promote). */
export async function publishBuild(dataDir: string, projectId: string, buildId: string): Promise<void> {
  await switchLink(liveLink(dataDir, projectId), buildId, dataDir, projectId);
}

/** Makes the build of `buildId` the preview of `label`. */
export async function publishPreview(dataDir: string, projectId: string, label: string, buildId: string): Promise<void> {
  await switchLink(previewLiveLink(dataDir, projectId, label), buildId, dataDir, projectId);
}

/** The build id a live link points at, if any. */
async function linkedBuild(link: string): Promise<string | undefined> {
  const target = await readlink(link).catch(() => undefined);
  return target === undefined ? undefined : path.basename(target);
}

/** The builds the project's live link and its previews' links point at. */
export async function linkedBuilds(dataDir: string, projectId: string): Promise<LiveBuilds> {
  const live = await linkedBuild(liveLink(dataDir, projectId));
  const previews = new Map<string, string>();
  for (const label of await readdir(previewsDir(dataDir, projectId)).catch(() => [] as string[])) {
    const build = await linkedBuild(path.join(previewsDir(dataDir, projectId), label, 'live'));
    if (build) previews.set(label, build);
  }
  return { live, previews };
}

/** Removes every build directory of the project but `keep`. */
export async function pruneBuilds(dataDir: string, projectId: string, keep: Set<string>): Promise<void> {
  const dir = buildsDir(dataDir, projectId);
  const names = await readdir(dir).catch(() => [] as string[]);
  // A build's inputs file (fast-redeploy.ts) goes with its build.
  await Promise.all(names.filter((n) => !keep.has(buildIdOfEntry(n))).map((n) => removeTree(path.join(dir, n))));
}
