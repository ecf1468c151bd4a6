// Where deployments' builds are kept and which one is live (docs/decisions.md#object-storage): in
// the data dir (disk.ts, the default: builds are folders, the live one a symlink switched by
// rename), or in object storage with the live pointers in PostgreSQL when FOLIO_STORAGE_URL is set
// (object-storage.ts), so that every node serves what any node built.
//
// A build is always made in the data dir first (project-files.ts buildDir); `keep` then puts it
// where every serving node reads it, before `publish` makes it live. Serving the live builds is
// hosting's: `serving` says where to read them, and the server makes hosting's site source of it.
import type { DeploymentLogs } from '../deployments/log.ts';
import type { FileCache } from '../object-storage/cache.ts';
import type { ObjectStore } from '../object-storage/client.ts';

/** Where the live builds are read from by the nodes that serve sites. */
export type BuildServing =
  | { kind: 'disk'; dataDir: string }
  | {
    kind: 'object';
    objects: ObjectStore;
    /** This node's copies of object storage's files. */
    cache: FileCache;
    /** The id of the live build of a project (or of its preview of `label`), from the database. */
    liveBuildId(projectId: string, label?: string): Promise<string | undefined>;
  };

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
  /** Where the site handler reads live builds from (the server makes its site source of it). */
  readonly serving: BuildServing;
  /** Deployments' logs, kept beside the builds (every node reads them where builds are kept). */
  readonly logs: DeploymentLogs;
  close(): Promise<void>;
}
