// Where a project's files live under FOLIO_DATA_DIR. Every module that touches a project's files
// asks here, so the layout is decided once:
//
//   projects/{id}/root/         the project's content root (content/, _snippets/, docs.json, public/):
//                               written by the pages API, or replaced by each sync of its repository
//   projects/{id}/git/          the local clone of the repository, reused between syncs
//   projects/{id}/builds/{dep}/ one deployment's output; the live site is one of them
//   projects/{id}/builds/{dep}.inputs.json  what that build was made from (fast redeploys; never served)
//   projects/{id}/live          a symlink to the live build, switched atomically by rename
//   projects/{id}/snapshots/{dep}/ the content root as one deployment builds it (removed after)
//   projects/{id}/logs/{dep}.log   one deployment's sync and build log
//   projects/{id}/previews/{label}/root/  a preview branch's content root (continuous deployment)
//   projects/{id}/previews/{label}/live   a symlink to the preview's build
//
// Project ids are UUIDs chosen by the service, never user input, but they are checked anyway so a
// bad id can never name a path outside the data dir.
import { rm } from 'node:fs/promises';
import path from 'node:path';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function checkedId(id: string): string {
  if (!UUID.test(id)) throw new Error(`not a project or deployment id: ${JSON.stringify(id)}`);
  return id;
}

export function projectDataDir(dataDir: string, projectId: string): string {
  return path.join(dataDir, 'projects', checkedId(projectId));
}

export function contentRootDir(dataDir: string, projectId: string): string {
  return path.join(projectDataDir(dataDir, projectId), 'root');
}

export function gitDir(dataDir: string, projectId: string): string {
  return path.join(projectDataDir(dataDir, projectId), 'git');
}

export function buildsDir(dataDir: string, projectId: string): string {
  return path.join(projectDataDir(dataDir, projectId), 'builds');
}

export function buildDir(dataDir: string, projectId: string, deploymentId: string): string {
  return path.join(buildsDir(dataDir, projectId), checkedId(deploymentId));
}

const INPUTS_SUFFIX = '.inputs.json';
const REUSE_SUFFIX = '.reuse';

/** The file beside a build's directory that records what it was made from (deployments/fast-redeploy.ts). */
export function buildInputsFile(dataDir: string, projectId: string, deploymentId: string): string {
  return `${buildDir(dataDir, projectId, deploymentId)}${INPUTS_SUFFIX}`;
}

/**
 * The build id an entry of a project's builds folder belongs to (a build dir, its inputs file, its
 * reuse copy: src/builder/reuse-copy.ts). A reuse copy still being made is nobody's: a prune removes it.
 */
export function buildIdOfEntry(name: string): string {
  for (const suffix of [INPUTS_SUFFIX, REUSE_SUFFIX]) if (name.endsWith(suffix)) return name.slice(0, -suffix.length);
  return name;
}

export function liveLink(dataDir: string, projectId: string): string {
  return path.join(projectDataDir(dataDir, projectId), 'live');
}

export function snapshotDir(dataDir: string, projectId: string, deploymentId: string): string {
  return path.join(projectDataDir(dataDir, projectId), 'snapshots', checkedId(deploymentId));
}

export function deploymentLogFile(dataDir: string, projectId: string, deploymentId: string): string {
  return path.join(projectDataDir(dataDir, projectId), 'logs', `${checkedId(deploymentId)}.log`);
}

/** A preview's host label (lower-case letters, digits and single hyphens): checked, as it names a folder. */
const PREVIEW_LABEL = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function checkedLabel(label: string): string {
  if (!PREVIEW_LABEL.test(label) || label.length > 63) throw new Error(`not a preview label: ${JSON.stringify(label)}`);
  return label;
}

export function previewsDir(dataDir: string, projectId: string): string {
  return path.join(projectDataDir(dataDir, projectId), 'previews');
}

export function previewDir(dataDir: string, projectId: string, label: string): string {
  return path.join(previewsDir(dataDir, projectId), checkedLabel(label));
}

export function previewRootDir(dataDir: string, projectId: string, label: string): string {
  return path.join(previewDir(dataDir, projectId, label), 'root');
}

export function previewLiveLink(dataDir: string, projectId: string, label: string): string {
  return path.join(previewDir(dataDir, projectId, label), 'live');
}

/** Removes every file of a project (content root, clone, builds, live link). */
export async function removeProjectFiles(dataDir: string, projectId: string): Promise<void> {
  await rm(projectDataDir(dataDir, projectId), { recursive: true, force: true, maxRetries: 3 });
}
