// Where a project's objects are in object storage (under FOLIO_STORAGE_URL's prefix), decided once
// like project-files.ts decides the data dir's layout:
//
//   projects/{id}/builds/{deployment}/files/{path}   one build's files
//   projects/{id}/builds/{deployment}/manifest.json  its list of files (path, size, SHA-256),
//                                                    written last: a build without one is unfinished
//   projects/{id}/snapshots/{deployment}/files/{path} the content root a deployment built, with
//   projects/{id}/snapshots/{deployment}/manifest.json its manifest
//   projects/{id}/logs/{deployment}.log              one deployment's log
//   projects/{id}/root/{path}                        an API-managed project's content root
//
// Ids are checked (checkedId); file paths come from Folio's own walk of a folder or from a request
// path that checkRequestPath accepted and a manifest lists, never straight from a request.
import { checkedId } from '../project-files.ts';

export const projectPrefix = (projectId: string) => `projects/${checkedId(projectId)}/`;
export const buildsPrefix = (projectId: string) => `${projectPrefix(projectId)}builds/`;
export const buildPrefix = (projectId: string, buildId: string) => `${buildsPrefix(projectId)}${checkedId(buildId)}/`;
export const buildFileKey = (projectId: string, buildId: string, rel: string) => `${buildPrefix(projectId, buildId)}files/${rel}`;
export const manifestKey = (projectId: string, buildId: string) => `${buildPrefix(projectId, buildId)}manifest.json`;
export const snapshotsPrefix = (projectId: string) => `${projectPrefix(projectId)}snapshots/`;
export const snapshotPrefix = (projectId: string, deploymentId: string) => `${snapshotsPrefix(projectId)}${checkedId(deploymentId)}/`;
export const logKey = (projectId: string, deploymentId: string) => `${projectPrefix(projectId)}logs/${checkedId(deploymentId)}.log`;
export const contentRootPrefix = (projectId: string) => `${projectPrefix(projectId)}root/`;
