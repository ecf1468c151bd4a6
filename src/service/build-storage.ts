// Where deployments' builds are kept and which one is live (docs/decisions.md#object-storage): in
// the data dir (the default: builds are folders, the live one a symlink switched by rename), or in
// object storage with the live pointers in PostgreSQL when FOLIO_STORAGE_URL is set
// (object-storage/builds.ts), so that every node serves what any node built.
//
// A build is always made in the data dir first (project-files.ts buildDir); `keep` then puts it
// where every serving node reads it, before `publish` makes it live.
import { lstat, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { createDiskSiteSource, type SiteSource } from '../hosting/site-source.ts';
import { buildDir, previewLiveLink, previewsDir } from './project-files.ts';
import { createDiskLogs, type DeploymentLogs } from './deployments/log.ts';
import { linkedBuilds, publishBuild, publishPreview, pruneBuilds } from './deployments/publish.ts';

/** What is live for one project: its site's build and each preview's, by branch label. */
export interface LiveBuilds {
  live?: string;
  previews: Map<string, string>;
}

export interface BuildStorage {
  /** Where builds are kept: `disk` (the data dir) or `object` (object storage). */
  readonly kind: 'disk' | 'object';
  /** Puts the finished build in the data dir where every node reads it (object storage: uploads it). */
  keep(projectId: string, buildId: string): Promise<void>;
  /**
   * Keeps the content root a deployment builds (its snapshot folder) beside its build (object
   * storage: uploaded, and pruned with the build); the data dir's snapshot is temporary.
   */
  keepSnapshot(projectId: string, deploymentId: string, dir: string): Promise<void>;
  /** Makes a kept build the project's live site (or the preview of `label`): promote, too. */
  publish(projectId: string, buildId: string, label?: string): Promise<void>;
  /** Whether a build is still kept (promote can go back to it). */
  hasBuild(projectId: string, buildId: string): Promise<boolean>;
  liveBuilds(projectId: string): Promise<LiveBuilds>;
  /** Removes every build of the project but those in `keep`. */
  prune(projectId: string, keep: Set<string>): Promise<void>;
  /** Stops serving a preview (its build goes with the next prune). */
  removePreview(projectId: string, label: string): Promise<void>;
  /** Previews last published before `before` (epoch ms). */
  stalePreviews(before: number): Promise<{ projectId: string; label: string }[]>;
  /** Removes every build and live pointer of a deleted project. */
  removeProject(projectId: string): Promise<void>;
  /**
   * Calls `listener` when another node changed a project's live build (this node's own changes are
   * told by the deployments service too), or with no project when every live build must be read
   * again (changes may have been missed).
   */
  onLiveChange(listener: (projectId?: string) => void): void;
  /** What the site handler reads live builds from. */
  readonly sites: SiteSource;
  /** Deployments' logs, kept beside the builds (every node reads them where builds are kept). */
  readonly logs: DeploymentLogs;
  close(): Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Builds as folders of the data dir, the live one a symlink (publish.ts): one node. */
export function createDiskBuildStorage(dataDir: string): BuildStorage {
  let sites: SiteSource | undefined;
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
    get sites() {
      // Made when first asked: the data dir exists by then (the server creates it).
      return (sites ??= createDiskSiteSource(dataDir));
    },
    logs: createDiskLogs(dataDir),
    async close() {},
  };
}
