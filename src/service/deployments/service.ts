// Deployments (docs/decisions.md#deployments): the domain operations behind /v1/projects/{id}/deployments
// (reads, trigger, promote, cancel), the projects' hooks, restart recovery and the build queue's
// life. Continuous deployment (push webhooks, polling, previews) is continuous.ts, composed here;
// one deployment's steps are runner.ts and steps/.
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { Config } from '../config.ts';
import { removalsSettled } from '../../lib/remove-later.ts';
import { FolioError } from '../errors.ts';
import type { BuildStorage } from '../builds/storage.ts';
import { localContent, type ProjectContent } from '../project-content.ts';
import { buildDir, contentRootDir, gitDir, snapshotDir } from '../project-files.ts';
import { decodeListCursor, encodeListCursor, type ProjectsService } from '../projects.ts';
import type { DeploymentRecord, ProjectRecord, WebhookEvent } from '../store/records.ts';
import type { Store } from '../store/store.ts';
import { buildSandbox, checkSandboxAtStart } from './build-sandbox.ts';
import { createContinuousDeployment, type ContinuousDeployment } from './continuous.ts';
import { createBuildQueue, LEASE_OWNER, type BuildQueue } from './queue.ts';
import { isLive } from './publish.ts';
import { recordCanceled, recordFailure, recordSuccess, runDeployment, type RunContext } from './runner.ts';
import { removeKeptTrees, replacePendingContentRoot } from './sync.ts';

/** A deployment as the API shows it; fields not known yet are absent. A preview has `branch` and `preview_url`. */
export type Deployment = Omit<DeploymentRecord, 'preview_label'> & { url: string; preview_url?: string };

export interface DeploymentList {
  data: Deployment[];
  next_cursor: string | null;
}

export interface DeploymentsService extends Pick<ContinuousDeployment, 'rotateWebhookSecret' | 'receivePush'> {
  /**
   * Queues a deployment (or returns the one already queued: triggers coalesce). `fullBuild`: build
   * every page, never reusing the previous build (a queued deployment it joins is marked so too).
   */
  trigger(orgId: string, projectId: string, options?: { fullBuild?: boolean }): Promise<Deployment>;
  list(orgId: string, projectId: string, limit: number, cursor?: string): Promise<DeploymentList>;
  get(orgId: string, projectId: string, id: string): Promise<Deployment>;
  log(orgId: string, projectId: string, id: string): Promise<string>;
  /** The log as it is written, ending when the deployment ends. */
  followLog(orgId: string, projectId: string, id: string): Promise<ReadableStream<Uint8Array>>;
  /** Makes an earlier succeeded deployment's build live again at once (a new `promote` deployment). */
  promote(orgId: string, projectId: string, id: string): Promise<Deployment>;
  /** Stops a queued or building deployment: it ends `canceled`. */
  cancel(orgId: string, projectId: string, id: string): Promise<Deployment>;
  /** The projects hook: a repository was connected. */
  queueConnect(project: ProjectRecord): Promise<void>;
  /**
   * The projects hook: the project's repository was disconnected. The kept trees of its syncs go
   * (its content root stays, written through the API from now on); the clone stays for a reconnect.
   */
  forgetRepository(projectId: string): Promise<void>;
  /** The projects hook: stops the project's running build (its records went with the project). */
  forgetProject(projectId: string): Promise<void>;
  /** Calls `listener` after a project's live site was switched (a publish) or removed (a delete). */
  onLiveChange(listener: (projectId: string) => void): void;
  /**
   * Starts background work: on a worker node (`runBuilds`) the build queue and polling; on every
   * node preview expiry and the sweep of deployments whose lease ran out (recoverDeployments).
   */
  start(options?: { runBuilds?: boolean }): Promise<void>;
  close(): Promise<void>;
}

/**
 * Ends deployments whose worker stopped (docs/decisions.md#job-queue-and-node-roles): those still
 * `building` whose lease ran out are failed `interrupted` (or succeeded, when their build went live
 * just before the stop), and their snapshots and unfinished builds in this data dir go. Runs at
 * start, before anything else (with the JSON file no lease survives a restart, so this is restart
 * recovery), then every third of the lease on every node, so a dead worker's deployment ends
 * within its lease and the queue goes on.
 */
export async function recoverDeployments(dataDir: string, store: Store, leaseMs: number, builds: BuildStorage): Promise<void> {
  for (const deployment of await store.takeExpiredLeases(LEASE_OWNER, leaseMs)) {
    await rm(snapshotDir(dataDir, deployment.project_id, deployment.id), { recursive: true, force: true });
    const preview = deployment.preview_label !== undefined;
    // Stopped in the moment between its publish and its record: it is live, so it succeeded.
    if (await isLive(builds, deployment)) {
      await recordSuccess(store, deployment.id, deployment.project_id, undefined, preview);
      continue;
    }
    await recordFailure(store, deployment.id, deployment.project_id, 'interrupted', 'the server building it stopped during the deployment; trigger it again', preview);
    await rm(buildDir(dataDir, deployment.project_id, deployment.id), { recursive: true, force: true });
  }
}

export interface DeploymentEvents {
  /** A deployment started, succeeded or failed: deliver the event to the project's webhooks. */
  emit(event: WebhookEvent, deployment: Deployment): void;
}

export function createDeploymentsService(
  config: Config, store: Store, projects: ProjectsService, builds: BuildStorage, events?: DeploymentEvents, content: ProjectContent = localContent,
): DeploymentsService {
  /** The API's view: the preview label becomes the preview's address; progress shows only while building. */
  const view = (d: DeploymentRecord, project: ProjectRecord | { slug: string; url?: string }, url: string): Deployment => {
    const { preview_label: label, progress, ...rest } = d;
    const deployment: Deployment = { ...rest, url };
    if (progress && d.status === 'building') deployment.progress = progress;
    if (label) deployment.preview_url = projects.previewUrlOf(project as ProjectRecord, label);
    return deployment;
  };

  let queue: BuildQueue | undefined;
  const liveListeners: ((projectId: string) => void)[] = [];
  const liveChanged = (projectId: string) => liveListeners.forEach((listener) => listener(projectId));
  const onEvent = (event: WebhookEvent, deployment: DeploymentRecord) => {
    void store.getProject(deployment.project_id).then((project) => {
      if (project) events?.emit(event, view(deployment, project, projects.urlOf(project)));
    });
  };
  const runContext: RunContext = {
    config, store, builds, content, siteUrl: projects.urlOf, previewUrl: projects.previewUrlOf, liveChanged, onEvent,
    holdsClaim: (deploymentId) => queue?.holdsClaim(deploymentId) ?? Promise.resolve(false),
  };
  const timers: NodeJS.Timeout[] = [];
  let closed = false;
  // Another org's project is not found: projects.get checks the owner.
  const owned = projects.get;

  const ownedDeployment = async (orgId: string, projectId: string, id: string) => {
    const project = await owned(orgId, projectId);
    const deployment = await store.getDeployment(id);
    if (!deployment || deployment.project_id !== project.id) throw new FolioError('not_found', `deployment ${id} not found`);
    return { project, deployment };
  };

  const enqueue = async (projectId: string, trigger: DeploymentRecord['trigger'], fields: Partial<DeploymentRecord> = {}) => {
    const { deployment } = await store.queueDeployment({
      ...fields,
      id: randomUUID(),
      project_id: projectId,
      status: 'queued',
      trigger,
      created_at: new Date().toISOString(),
    });
    queue?.kick();
    return deployment;
  };

  /**
   * Stops a queued or building deployment (it ends `canceled`); resolves once a run of this
   * node's queue has ended.
   */
  const stop = async (deployment: DeploymentRecord) => {
    const current = await store.getDeployment(deployment.id);
    if (queue?.isRunning(deployment.id)) {
      await queue.cancel(deployment.id);
    } else if (current?.status === 'queued') {
      // Not started: its log stays empty. A worker that claimed it meanwhile sees it canceled
      // at its next lease check and stops (queue.ts), as does this node's own queue here.
      await store.updateDeployment(deployment.id, { status: 'canceled', finished_at: new Date().toISOString() });
      if (queue?.isRunning(deployment.id)) await queue.cancel(deployment.id);
    } else if (current?.status === 'building') {
      // Building on another node: recorded here; that worker stops it as soon as it hears of the
      // change (LISTEN), at the latest at its next lease renewal.
      await recordCanceled(store, deployment.id, deployment.project_id, deployment.preview_label !== undefined);
    }
  };

  const continuous = createContinuousDeployment({ config, store, projects, builds, enqueue, stop, liveChanged });

  return {
    rotateWebhookSecret: continuous.rotateWebhookSecret,
    receivePush: continuous.receivePush,

    async trigger(orgId, projectId, options = {}) {
      const project = await owned(orgId, projectId);
      let deployment = await enqueue(project.id, 'manual', options.fullBuild ? { full_build: true } : {});
      if (options.fullBuild && !deployment.full_build) deployment = await store.updateDeployment(deployment.id, { full_build: true });
      return view(deployment, project, project.url);
    },

    async list(orgId, projectId, limit, cursor) {
      const project = await owned(orgId, projectId);
      const page = await store.listDeployments(project.id, limit, cursor === undefined ? undefined : decodeListCursor(cursor));
      const last = page.items.at(-1);
      return { data: page.items.map((d) => view(d, project, project.url)), next_cursor: page.hasMore && last ? encodeListCursor(last) : null };
    },

    async get(orgId, projectId, id) {
      const { project, deployment } = await ownedDeployment(orgId, projectId, id);
      return view(deployment, project, project.url);
    },

    async log(orgId, projectId, id) {
      const { deployment } = await ownedDeployment(orgId, projectId, id);
      return builds.logs.read(deployment.project_id, deployment.id);
    },

    async followLog(orgId, projectId, id) {
      const { deployment } = await ownedDeployment(orgId, projectId, id);
      const ended = async () => {
        const current = await store.getDeployment(deployment.id);
        return !current || (current.status !== 'queued' && current.status !== 'building');
      };
      return builds.logs.follow(deployment.project_id, deployment.id, ended);
    },

    async promote(orgId, projectId, id) {
      const { project, deployment } = await ownedDeployment(orgId, projectId, id);
      if (deployment.status !== 'succeeded' || deployment.branch) {
        throw new FolioError('not_promotable', `deployment ${id} cannot be promoted: only a succeeded deployment of the project's branch (not a preview) can be made live`);
      }
      // Promoting a promote makes the same build live again.
      const source = deployment.promoted_from ?? deployment.id;
      if (!(await builds.hasBuild(project.id, source))) {
        throw new FolioError('not_promotable', `deployment ${id} cannot be promoted: its build was removed (the newest FOLIO_KEEP_BUILDS=${config.keepBuilds} successful builds are kept); trigger a new deployment instead`);
      }
      const record = (await store.getProject(project.id))!;
      const newId = randomUUID();
      const now = new Date().toISOString();
      // The log is complete before the record says the promote succeeded (docs/decisions.md#deployments).
      const lines = [`deployment ${newId} (promote) started`, `promote: the build of deployment ${source}${deployment.commit_sha ? ` (commit ${deployment.commit_sha})` : ''} is made live again, without a rebuild`];
      await builds.publish(project.id, source);
      liveChanged(project.id);
      lines.push(`publish: live at ${project.url}`);
      await builds.logs.write(project.id, newId, lines.map((l) => `${now} ${l}\n`).join(''));
      const promoted = await store.addDeployment({
        id: newId,
        project_id: project.id,
        status: 'succeeded',
        trigger: 'promote',
        created_at: now,
        started_at: now,
        finished_at: now,
        promoted_from: source,
        ...(deployment.source_branch ? { source_branch: deployment.source_branch } : {}),
        ...(deployment.commit_sha ? { commit_sha: deployment.commit_sha } : {}),
        ...(deployment.page_count !== undefined ? { page_count: deployment.page_count } : {}),
      });
      await store.updateProject(project.id, { status: record.status === 'building' ? 'building' : 'active', last_deploy_at: now });
      // A promote is a deployment that succeeded: receivers hear of it like of any other.
      onEvent('deployment.succeeded', promoted);
      return view(promoted, project, project.url);
    },

    async cancel(orgId, projectId, id) {
      const { project, deployment } = await ownedDeployment(orgId, projectId, id);
      if (deployment.status !== 'queued' && deployment.status !== 'building') {
        throw new FolioError('not_cancelable', `deployment ${id} has already ended (${deployment.status}): only a queued or building deployment can be canceled`);
      }
      await stop(deployment);
      const after = await store.getDeployment(deployment.id);
      return view(after ?? deployment, project, project.url);
    },

    async queueConnect(project) {
      await enqueue(project.id, 'connect');
    },

    async forgetRepository(projectId) {
      // The commit a running deployment synced becomes the root the pages API takes over.
      await replacePendingContentRoot(contentRootDir(config.dataDir, projectId));
      await removeKeptTrees(gitDir(config.dataDir, projectId));
    },

    async forgetProject(projectId) {
      await queue?.stopProject(projectId, 'deleted');
      liveChanged(projectId);
    },

    onLiveChange(listener) {
      liveListeners.push(listener);
    },

    async start({ runBuilds = true } = {}) {
      const leaseMs = config.buildLeaseS * 1000;
      if (runBuilds) {
        await checkSandboxAtStart(config);
        queue = createBuildQueue(store, { concurrency: config.buildConcurrency, buildsPerOrg: config.buildsPerOrg, sandbox: buildSandbox(config), leaseMs }, (deployment, worker, signal) =>
          runDeployment(runContext, deployment, worker, signal));
        queue.kick();
      }
      let recovering = false;
      const leases = setInterval(() => {
        if (recovering || closed) return;
        recovering = true;
        void recoverDeployments(config.dataDir, store, leaseMs, builds)
          .catch((error) => console.error('ending deployments of stopped workers:', error))
          .finally(() => (recovering = false));
      }, Math.max(1_000, Math.floor(leaseMs / 3)));
      timers.push(leases);
      continuous.start({ poll: runBuilds });
    },

    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      continuous.close();
      await queue?.close();
      // The snapshots and build roots still being removed in the background (src/lib/remove-later.ts).
      await removalsSettled();
    },
  };
}
