// Continuous deployment (docs/decisions.md#continuous-deployment): push webhooks, polling of
// branches and preview deployments, over the deployments service's queue (service.ts composes this
// module and hands it `enqueue` and `stop`). Signatures and payloads are read by push.ts.
import { git } from '../git.ts';
import type { BuildStorage } from '../builds/storage.ts';
import type { Config } from '../config.ts';
import { FolioError } from '../errors.ts';
import { gitDir, previewDir, previewRootDir } from '../project-files.ts';
import type { ProjectsService } from '../projects.ts';
import { createMemoryRateLimiter } from '../rate-limiter.ts';
import type { DeploymentRecord, ProjectRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';
import { removeTree } from '../../lib/link-tree.ts';
import { branchMatches, deliveryIsAuthentic, newWebhookSecret, previewLabel, readPushEvent, type Headers } from './push.ts';
import { removeKeptTree, repositoryUrl } from './sync.ts';

/** What a push delivery did (the body of its 202), or why it was refused. */
export type PushOutcome =
  | { status: 'queued'; deployment_id: string; branch: string; preview_url?: string }
  | { status: 'ignored'; reason: string }
  | { status: 'duplicate'; reason: string }
  | { status: 'pong' }
  | { status: 'preview_removed'; branch: string }
  | { status: 'unauthorized' }
  | { status: 'rate_limited'; retryAfter: number }
  | { status: 'invalid'; reason: string };

export interface ContinuousDeployment {
  /** Creates or replaces the project's push webhook secret; returns it (once) with the delivery URL. */
  rotateWebhookSecret(orgId: string, projectId: string): Promise<{ secret: string; url: string }>;
  /** A delivery to /hooks/git/{projectId}: checked, then acted upon. */
  receivePush(projectId: string, headers: Headers, body: Uint8Array): Promise<PushOutcome>;
  /** Starts preview expiry (every node) and, with `poll` (a worker node), polling of branches. */
  start(options: { poll: boolean }): void;
  close(): void;
}

/** What continuous deployment uses of the deployments service. */
export interface ContinuousParts {
  config: Config;
  store: Store;
  projects: ProjectsService;
  builds: BuildStorage;
  /** Queues a deployment (or answers the one already queued: triggers coalesce). */
  enqueue(projectId: string, trigger: DeploymentRecord['trigger'], fields?: Partial<DeploymentRecord>): Promise<DeploymentRecord>;
  /** Stops a queued or building deployment (it ends `canceled`). */
  stop(deployment: DeploymentRecord): Promise<void>;
  /** Told after a preview stopped being served. */
  liveChanged(projectId: string): void;
}

/** Push deliveries accepted per project and minute (more answer 429). */
export const PUSH_DELIVERIES_PER_MINUTE = 60;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A delivery id (X-GitHub-Delivery, X-Gitlab-Event-UUID): remembered to ignore replays. */
const DELIVERY_ID = /^[\x21-\x7e]{1,200}$/;
const PREVIEW_SWEEP_MS = 60 * 60 * 1000;
const SECRET_PREFIX = 'whsec_';

export function createContinuousDeployment({ config, store, projects, builds, enqueue, stop, liveChanged }: ContinuousParts): ContinuousDeployment {
  const pushLimiter = createMemoryRateLimiter();
  const timers: NodeJS.Timeout[] = [];
  let closed = false;

  /** The preview's deployments that are queued or building. */
  const unfinished = async (projectId: string, label: string) =>
    [...(await store.deploymentsWithStatus('queued')), ...(await store.deploymentsWithStatus('building'))]
      .filter((d) => d.project_id === projectId && d.preview_label === label);

  /**
   * Removes a preview: its live pointer first (it stops being served at once), then its content
   * root and the kept tree its syncs write (sync.ts keptTree), so the data dir does not grow with
   * every branch ever pushed. Its deployments still queued or building are canceled first (their
   * branch is gone): a build that went on would publish the preview again, and its sync write the
   * kept tree again. Expiry passes `keepIfDeploying`: a preview being deployed now is not stale.
   */
  const removePreview = async (projectId: string, label: string, { keepIfDeploying = false } = {}) => {
    const deploying = await unfinished(projectId, label);
    if (keepIfDeploying && deploying.length > 0) return;
    for (const deployment of deploying) await stop(deployment);
    await builds.removePreview(projectId, label);
    liveChanged(projectId);
    await removeTree(previewDir(config.dataDir, projectId, label));
    // Waits for a checkout into it (a deployment stopped on another node, or started meanwhile).
    await removeKeptTree(gitDir(config.dataDir, projectId), previewRootDir(config.dataDir, projectId, label));
  };

  /** Previews not deployed for FOLIO_PREVIEW_TTL_DAYS go. */
  const expirePreviews = async () => {
    const oldest = Date.now() - config.previewTtlDays * 86_400_000;
    for (const { projectId, label } of await builds.stalePreviews(oldest)) await removePreview(projectId, label, { keepIfDeploying: true });
  };

  /**
   * Polling (FOLIO_SYNC_POLL_S): each connected project's branch head is read with `git ls-remote`
   * once per interval, the projects spread over it; a head unlike the last deployed commit queues
   * a `poll` deployment.
   */
  const pollProject = async (projectId: string) => {
    const project = await store.getProject(projectId);
    if (!project?.source_repo || closed) return;
    const url = repositoryUrl(config.gitUrl, project.source_repo);
    const ref = project.source_branch ? `refs/heads/${project.source_branch}` : 'HEAD';
    const out = await git(config.dataDir, ['ls-remote', '--end-of-options', url, ref], { protocols: config.gitProtocols, timeoutMs: 30_000 }).catch(() => '');
    const head = /^([0-9a-f]{40,64})\t/m.exec(out)?.[1];
    if (!head) return;
    const recent = (await store.listDeployments(project.id, 20)).items.filter((d) => !d.branch);
    if (recent.some((d) => d.status === 'queued' || d.status === 'building')) return;
    const last = recent.find((d) => d.commit_sha);
    if (last?.commit_sha === head) return;
    await enqueue(project.id, 'poll', { commit_sha: head });
  };

  const pollRound = async () => {
    const ids: string[] = [];
    for (const org of await store.listOrgs()) {
      let after: ProjectRecord | undefined;
      for (;;) {
        const page = await store.listProjects(org.id, 100, after);
        ids.push(...page.items.filter((p) => p.source_repo).map((p) => p.id));
        if (!page.hasMore) break;
        after = page.items.at(-1);
      }
    }
    const spacing = (config.syncPollS * 1000) / Math.max(1, ids.length);
    for (const id of ids) {
      if (closed) return;
      await pollProject(id).catch((error) => console.error(`polling project ${id}:`, error));
      await new Promise((resolve) => timers.push(setTimeout(resolve, spacing)));
    }
  };

  const pollForever = async () => {
    while (!closed) {
      const started = Date.now();
      await pollRound().catch((error) => console.error('polling:', error));
      const rest = config.syncPollS * 1000 - (Date.now() - started);
      if (rest > 0 && !closed) await new Promise((resolve) => timers.push(setTimeout(resolve, rest)));
    }
  };

  return {
    async rotateWebhookSecret(orgId, projectId) {
      // Another org's project is not found: projects.get checks the owner.
      const project = await projects.get(orgId, projectId);
      if (!project.source_repo) {
        throw new FolioError('invalid_request', `project ${projectId} has no source_repo: connect a repository (PATCH source_repo) before creating its push webhook`);
      }
      const secret = newWebhookSecret(SECRET_PREFIX);
      await store.updateProject(project.id, { webhook_secret: secret });
      return { secret, url: projects.serviceUrl(`/hooks/git/${project.id}`) };
    },

    async receivePush(projectId, headers, body) {
      // Counted before anything else, per project id, so a flood costs no store or HMAC work.
      const limit = await pushLimiter.hit(`push:${projectId}`, PUSH_DELIVERIES_PER_MINUTE);
      if (!limit.allowed) return { status: 'rate_limited', retryAfter: limit.retryAfter };
      const project = UUID.test(projectId) ? await store.getProject(projectId) : undefined;
      // An unknown project and a wrong signature look the same: a delivery URL reveals nothing.
      if (!project || !deliveryIsAuthentic(project.webhook_secret, headers, body)) return { status: 'unauthorized' };
      let payload: unknown;
      try {
        payload = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
      } catch {
        return { status: 'invalid', reason: 'the delivery body is not JSON: configure the webhook with content type application/json' };
      }
      const deliveryId = headers('x-github-delivery') ?? headers('x-gitlab-event-uuid');
      if (deliveryId !== null) {
        if (!DELIVERY_ID.test(deliveryId)) return { status: 'invalid', reason: 'X-GitHub-Delivery must be 1 to 200 printable ASCII characters' };
        if (!(await store.rememberHookDelivery(project.id, deliveryId))) return { status: 'duplicate', reason: `delivery ${deliveryId} was received before` };
      }
      const event = readPushEvent(headers, payload);
      if (event.kind === 'ping') return { status: 'pong' };
      if (event.kind === 'other') return { status: 'ignored', reason: event.reason };
      if (!project.source_repo) return { status: 'ignored', reason: 'the project is not connected to a repository' };
      const production = project.source_branch;
      if (production === undefined || event.branch === production) {
        if (event.deleted) return { status: 'ignored', reason: `branch ${event.branch} was deleted: the live site stays` };
        const deployment = await enqueue(project.id, 'push', event.sha ? { commit_sha: event.sha } : {});
        return { status: 'queued', deployment_id: deployment.id, branch: event.branch };
      }
      if (!project.previews || !branchMatches(project.preview_branches, event.branch)) {
        return { status: 'ignored', reason: `branch ${event.branch} is not the project's branch ${production}${project.previews ? ' and does not match preview_branches' : ' and previews are off'}` };
      }
      const label = previewLabel(event.branch, project.slug);
      if (event.deleted) {
        await removePreview(project.id, label);
        return { status: 'preview_removed', branch: event.branch };
      }
      const deployment = await enqueue(project.id, 'push', { branch: event.branch, preview_label: label, ...(event.sha ? { commit_sha: event.sha } : {}) });
      return { status: 'queued', deployment_id: deployment.id, branch: event.branch, preview_url: projects.previewUrlOf(project, label) };
    },

    start({ poll }) {
      void expirePreviews().catch((error) => console.error('preview expiry:', error));
      const sweep = setInterval(() => void expirePreviews().catch((error) => console.error('preview expiry:', error)), PREVIEW_SWEEP_MS);
      sweep.unref();
      timers.push(sweep);
      if (poll && config.syncPollS > 0) void pollForever();
    },

    close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      pushLimiter.close();
    },
  };
}
