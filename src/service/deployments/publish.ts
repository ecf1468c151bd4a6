// Publishing a build: the `live` link is switched atomically (a new link renamed over the old one),
// so a request sees either the old site or the new one, never a mix; old builds are pruned. A
// preview has a live link of its own (previews/{label}/live); promote points `live` back at an
// earlier build (docs/decisions.md#continuous-deployment). This is the data dir's way to keep builds
// (build-storage.ts); object storage has its own (object-storage/builds.ts).
import { readdir, readlink, rename, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { removeTree } from '../../site/link-tree.ts';
import { buildDir, buildIdOfEntry, buildsDir, liveLink, previewLiveLink, previewsDir } from '../project-files.ts';
import type { BuildStorage, LiveBuilds } from '../build-storage.ts';
import type { DeploymentRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';

/** Successful builds kept per project by default (FOLIO_KEEP_BUILDS): the live one and the ones before it. */
export const KEPT_BUILDS = 10;

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

/** True when the project's live build (or the deployment's preview's) is this deployment's build. */
export async function isLive(builds: Pick<BuildStorage, 'liveBuilds'>, deployment: Pick<DeploymentRecord, 'project_id' | 'id' | 'preview_label'>): Promise<boolean> {
  const live = await builds.liveBuilds(deployment.project_id);
  return (deployment.preview_label ? live.previews.get(deployment.preview_label) : live.live) === deployment.id;
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

/**
 * The builds a project keeps: the live one, every preview's, and those of the newest `keep`
 * successful production deployments (a promote counts as the build it made live).
 */
export async function keptBuilds(builds: Pick<BuildStorage, 'liveBuilds'>, store: Store, projectId: string, keep: number): Promise<Set<string>> {
  const kept = new Set<string>();
  const { live, previews } = await builds.liveBuilds(projectId);
  if (live) kept.add(live);
  for (const build of previews.values()) kept.add(build);
  const production = new Set<string>();
  let after: DeploymentRecord | undefined;
  for (;;) {
    const page = await store.listDeployments(projectId, 50, after);
    for (const d of page.items) {
      if (d.status === 'succeeded' && !d.branch && production.size < keep) production.add(d.promoted_from ?? d.id);
    }
    if (production.size >= keep || !page.hasMore) break;
    after = page.items.at(-1);
  }
  for (const id of production) kept.add(id);
  return kept;
}

/** Removes every build directory of the project but `keep`. */
export async function pruneBuilds(dataDir: string, projectId: string, keep: Set<string>): Promise<void> {
  const dir = buildsDir(dataDir, projectId);
  const names = await readdir(dir).catch(() => [] as string[]);
  // A build's inputs file (fast-redeploy.ts) goes with its build.
  await Promise.all(names.filter((n) => !keep.has(buildIdOfEntry(n))).map((n) => removeTree(path.join(dir, n))));
}
