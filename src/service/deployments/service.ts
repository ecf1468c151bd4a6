// Deployments (docs/decisions.md#deployments): the domain operations behind /v1/projects/{id}/deployments, the
// connect hook, deletion and restart recovery. The pipeline itself is in runner.ts and queue.ts.
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { Config } from '../config.ts';
import { FolioError } from '../errors.ts';
import { buildDir, deploymentLogFile, snapshotDir } from '../project-files.ts';
import { decodeListCursor, encodeListCursor, type ProjectsService } from '../projects.ts';
import type { DeploymentRecord, ProjectRecord, Store } from '../store.ts';
import { readDeploymentLog } from './log.ts';
import { buildSandbox, checkSandboxAtStart } from './build-sandbox.ts';
import { createBuildQueue, type BuildQueue } from './queue.ts';
import { isLive } from './publish.ts';
import { recordFailure, recordSuccess, runDeployment } from './runner.ts';

/** A deployment as the API shows it; fields not known yet are absent. */
export type Deployment = DeploymentRecord & { url: string };

export interface DeploymentList {
  data: Deployment[];
  next_cursor: string | null;
}

export interface DeploymentsService {
  /** Queues a deployment (or returns the one already queued: triggers coalesce). */
  trigger(orgId: string, projectId: string): Promise<Deployment>;
  list(orgId: string, projectId: string, limit: number, cursor?: string): Promise<DeploymentList>;
  get(orgId: string, projectId: string, id: string): Promise<Deployment>;
  log(orgId: string, projectId: string, id: string): Promise<string>;
  /** The projects hook: a repository was connected. */
  queueConnect(project: ProjectRecord): Promise<void>;
  /** The projects hook: stops the project's running build (its records went with the project). */
  forgetProject(projectId: string): Promise<void>;
  /** Calls `listener` after a project's live site was switched (a publish) or removed (a delete). */
  onLiveChange(listener: (projectId: string) => void): void;
  /** Starts the queue: queued deployments run (after recoverDeployments). */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Restart recovery, before anything else runs: deployments left `building` by a stopped server
 * fail with `interrupted` (or succeeded, when their build went live just before the stop), and
 * their snapshots and unfinished builds go.
 */
export async function recoverDeployments(dataDir: string, store: Store): Promise<void> {
  for (const deployment of await store.deploymentsWithStatus('building')) {
    await rm(snapshotDir(dataDir, deployment.project_id, deployment.id), { recursive: true, force: true });
    // Stopped in the moment between its publish and its record: it is live, so it succeeded.
    if (await isLive(dataDir, deployment)) {
      await recordSuccess(store, deployment.id, deployment.project_id);
      continue;
    }
    await recordFailure(store, deployment.id, deployment.project_id, 'interrupted', 'the server restarted during the deployment; trigger it again');
    await rm(buildDir(dataDir, deployment.project_id, deployment.id), { recursive: true, force: true });
  }
}

export function createDeploymentsService(config: Config, store: Store, projects: ProjectsService): DeploymentsService {
  const view = (d: DeploymentRecord, url: string): Deployment => ({ ...d, url });

  let queue: BuildQueue | undefined;
  const liveListeners: ((projectId: string) => void)[] = [];
  const liveChanged = (projectId: string) => liveListeners.forEach((listener) => listener(projectId));
  const runContext = { config, store, siteUrl: projects.urlOf, liveChanged };
  // Another org's project is not found: projects.get checks the owner.
  const owned = projects.get;

  const ownedDeployment = async (orgId: string, projectId: string, id: string) => {
    const project = await owned(orgId, projectId);
    const deployment = await store.getDeployment(id);
    if (!deployment || deployment.project_id !== project.id) throw new FolioError('not_found', `deployment ${id} not found`);
    return { project, deployment };
  };

  const enqueue = async (projectId: string, trigger: DeploymentRecord['trigger']) => {
    const { deployment } = await store.queueDeployment({
      id: randomUUID(),
      project_id: projectId,
      status: 'queued',
      trigger,
      created_at: new Date().toISOString(),
    });
    queue?.kick();
    return deployment;
  };

  return {
    async trigger(orgId, projectId) {
      const project = await owned(orgId, projectId);
      return view(await enqueue(project.id, 'manual'), project.url);
    },

    async list(orgId, projectId, limit, cursor) {
      const project = await owned(orgId, projectId);
      const page = await store.listDeployments(project.id, limit, cursor === undefined ? undefined : decodeListCursor(cursor));
      const last = page.items.at(-1);
      return { data: page.items.map((d) => view(d, project.url)), next_cursor: page.hasMore && last ? encodeListCursor(last) : null };
    },

    async get(orgId, projectId, id) {
      const { project, deployment } = await ownedDeployment(orgId, projectId, id);
      return view(deployment, project.url);
    },

    async log(orgId, projectId, id) {
      const { deployment } = await ownedDeployment(orgId, projectId, id);
      return readDeploymentLog(deploymentLogFile(config.dataDir, deployment.project_id, deployment.id));
    },

    async queueConnect(project) {
      await enqueue(project.id, 'connect');
    },

    async forgetProject(projectId) {
      await queue?.stopProject(projectId, 'deleted');
      liveChanged(projectId);
    },

    onLiveChange(listener) {
      liveListeners.push(listener);
    },

    async start() {
      await checkSandboxAtStart(config);
      queue = createBuildQueue(store, config.buildConcurrency, buildSandbox(config), (deployment, worker, signal) =>
        runDeployment(runContext, deployment, worker, signal));
      queue.kick();
    },

    async close() {
      await queue?.close();
    },
  };
}
