// Publishing a build: the `live` link is switched atomically (a new link renamed over the old one),
// so a request sees either the old site or the new one, never a mix; old builds are pruned.
import { readdir, readlink, rename, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { buildDir, buildsDir, liveLink } from '../project-files.ts';

/** Builds kept per project: the live one and the ones before it (for requests still reading them). */
export const KEPT_BUILDS = 3;

export async function publishBuild(dataDir: string, projectId: string, deploymentId: string): Promise<void> {
  const link = liveLink(dataDir, projectId);
  const temp = `${link}.${deploymentId}.tmp`;
  await rm(temp, { force: true });
  // Relative target: the project directory can move with the data dir.
  await symlink(path.relative(path.dirname(link), buildDir(dataDir, projectId, deploymentId)), temp);
  await rename(temp, link);
}

/** True when the project's live link points at this deployment's build. */
export async function isLive(dataDir: string, deployment: { project_id: string; id: string }): Promise<boolean> {
  const link = liveLink(dataDir, deployment.project_id);
  const target = await readlink(link).catch(() => undefined);
  return target !== undefined && path.resolve(path.dirname(link), target) === buildDir(dataDir, deployment.project_id, deployment.id);
}

/** Removes every build directory of the project but `keep` (the newest successful ones). */
export async function pruneBuilds(dataDir: string, projectId: string, keep: string[]): Promise<void> {
  const dir = buildsDir(dataDir, projectId);
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(names.filter((n) => !keep.includes(n)).map((n) => rm(path.join(dir, n), { recursive: true, force: true })));
}
