// One deployment, start to finish (docs/decisions.md#deployments): its named steps in order (sync →
// snapshot → plan → build, whose first phase is the content check → publish → prune), each a
// function of steps/ taking the previous step's result (docs/architecture.md#a-deployment); the
// deployment record, the project's status (docs/decisions.md#projects) and the log follow each
// step. Any failure leaves the previous site live.
import { rm } from 'node:fs/promises';
import type { AstroRunner } from '../../builder/build.ts';
import { removeLater } from '../../lib/remove-later.ts';
import { repoRoot } from '../../site/settings.ts';
import { isFolioError, isOutOfSpace, type DeploymentErrorCode } from '../errors.ts';
import { buildDir, contentRootDir, previewRootDir, snapshotDir } from '../project-files.ts';
import type { DeploymentRecord, WebhookEvent } from '../store/records.ts';
import type { Store } from '../store/store.ts';
import { removeBuildInputs } from './fast-redeploy.ts';
import { SyncError } from './sync.ts';
import { build, type Built } from './steps/build.ts';
import { DISK_FULL_MESSAGE, failure, isDeploymentFailure, NO_SPACE, runAfterLive, type DeploymentFailure, type Run, type RunContext } from './steps/context.ts';
import { plan } from './steps/plan.ts';
import { prune, type Deployed } from './steps/prune.ts';
import { publish, type Published } from './steps/publish.ts';
import { snapshot } from './steps/snapshot.ts';
import { sync, type Synced } from './steps/sync.ts';
import { stepTimer } from './steps/timings.ts';

export type { RunContext } from './steps/context.ts';

/**
 * Why a run was stopped from outside: the project was deleted, the server is stopping, a client
 * canceled it, or this process lost its claim (another node ended the deployment after its lease
 * ran out: see queue.ts).
 */
export type StopCause = 'deleted' | 'shutdown' | 'canceled' | 'lease_lost';

const STORE_RETRY_MS = 2_000;

/**
 * Runs a store write until it is stored: a full disk refuses it (insufficient_storage) until
 * space returns, and a deployment's outcome must not be lost meanwhile. Gives up when the server
 * stops (restart recovery then records the deployment).
 */
async function untilStored(write: () => Promise<void>, signal: AbortSignal): Promise<void> {
  for (;;) {
    try {
      return await write();
    } catch (error) {
      if (!isFolioError(error) || error.code !== 'insufficient_storage' || (signal.aborted && signal.reason === 'shutdown')) throw error;
      await new Promise((r) => setTimeout(r, STORE_RETRY_MS));
    }
  }
}

/**
 * Runs a deployment the queue claimed (already `building`, its project too: Store.claimDeployment)
 * to its end. Never throws for a failed deployment: it records it.
 */
export async function runDeployment(ctx: RunContext, queued: DeploymentRecord, astro: AstroRunner, signal: AbortSignal): Promise<void> {
  const { config, store } = ctx;
  const projectId = queued.project_id;
  const label = queued.preview_label;
  const snapshot = snapshotDir(config.dataDir, projectId, queued.id);
  const output = buildDir(config.dataDir, projectId, queued.id);
  const log = await ctx.builds.logs.open(projectId, queued.id, {
    contentRoots: [snapshot],
    hidden: [config.dataDir, repoRoot],
  });
  const preview = label !== undefined;
  const afterLive: Run['afterLive'] = [];
  const event = async (name: WebhookEvent) => {
    const current = await store.getDeployment(queued.id);
    if (current) ctx.onEvent?.(name, current);
  };
  try {
    const project = await store.getProject(projectId);
    if (!project) return;
    log.line(`deployment ${queued.id} (${queued.trigger}${preview ? `, preview of branch ${queued.branch}` : ''}) started`);
    await event('deployment.started');
    try {
      const run: Run = {
        ctx, project, deployment: queued, astro, signal, log, label, snapshot, output,
        root: label ? previewRootDir(config.dataDir, projectId, label) : contentRootDir(config.dataDir, projectId),
        siteUrl: label ? ctx.previewUrl(project, label) : ctx.siteUrl(project),
        afterLive,
      };
      const { pageCount, warnings } = await deploy(run);
      // Every line is in the file before the status says the deployment ended (docs/decisions.md#deployments).
      await log.flush();
      await untilStored(() => recordSuccess(store, queued.id, projectId, pageCount, preview, warnings), signal);
      await event('deployment.succeeded');
    } catch (error) {
      // The build's last steps (its cache kept for the site's next build) before the outcome is
      // recorded: once it is, the project's next deployment may start, on any node.
      await runAfterLive(afterLive, (message) => log.line(`build: after the build: ${message}`));
      await rm(output, { recursive: true, force: true });
      await removeBuildInputs(config.dataDir, projectId, queued.id);
      if (signal.aborted && signal.reason === 'deleted') return;
      if (signal.aborted && signal.reason === 'lease_lost') {
        // Another node already recorded how it ended: nothing is written over that.
        log.line('stopped: this worker lost its claim on the deployment (its lease ran out); another node ended it');
        await log.flush();
        return;
      }
      if (signal.aborted && signal.reason === 'canceled') {
        log.line('canceled: the deployment was stopped by a client; the previous site stays live');
        await log.flush();
        await untilStored(() => recordCanceled(store, queued.id, projectId, preview), signal);
        return;
      }
      const failed = asFailure(error, signal);
      log.line(`failed (${failed.code}): ${failed.message}`);
      await log.flush();
      await untilStored(() => recordFailure(store, queued.id, projectId, failed.code, failed.message, preview), signal);
      await event('deployment.failed');
    }
  } catch (error) {
    // The project (and so its deployments) was deleted while this ran: nothing left to record.
    if (!isFolioError(error) || error.code !== 'not_found') throw error;
  } finally {
    await log.close();
    // Moved aside at once and removed in the background, so the build slot takes the next
    // deployment now, not after one unlink per file of the site; a trash a crash leaves behind is
    // removed at the next start (crash-leftovers.ts removes everything under snapshots/).
    await removeLater(snapshot);
  }
}

/** Marks a deployment succeeded and its project active, live since now (a preview: the deployment only). */
export async function recordSuccess(store: Store, deploymentId: string, projectId: string, pageCount?: number, preview = false, warnings?: number): Promise<void> {
  const finishedAt = new Date().toISOString();
  if (!preview) await store.updateProject(projectId, { status: 'active', last_deploy_at: finishedAt });
  await store.updateDeployment(deploymentId, { status: 'succeeded', finished_at: finishedAt, page_count: pageCount, ...(warnings !== undefined ? { warnings } : {}) });
}

/** Marks a deployment failed; the project returns to `active` if a site is live, else `failed`. */
export async function recordFailure(store: Store, deploymentId: string, projectId: string, code: DeploymentErrorCode, message: string, preview = false): Promise<void> {
  const project = await store.getProject(projectId);
  if (project && !preview) await store.updateProject(projectId, { status: project.last_deploy_at ? 'active' : 'failed' });
  await store.updateDeployment(deploymentId, { status: 'failed', finished_at: new Date().toISOString(), error: { code, message } });
}

/**
 * Marks a building deployment canceled; the project returns to where it was before it started.
 * Once only: the node that answered the cancel and the worker that stops the build both call it.
 */
export async function recordCanceled(store: Store, deploymentId: string, projectId: string, preview = false): Promise<void> {
  const project = await store.getProject(projectId);
  if (project && !preview && project.status === 'building') await store.updateProject(projectId, { status: project.last_deploy_at ? 'active' : 'pending' });
  if ((await store.getDeployment(deploymentId))?.status === 'canceled') return;
  await store.updateDeployment(deploymentId, { status: 'canceled', finished_at: new Date().toISOString() });
}

/** What a step's error means for the deployment; an error that is no deployment failure (a bug) is thrown on. */
function asFailure(error: unknown, signal: AbortSignal): DeploymentFailure {
  if (signal.aborted) return failure('interrupted', 'the server stopped during the deployment; trigger it again');
  if (isDeploymentFailure(error)) return error;
  if (error instanceof SyncError) return failure(NO_SPACE.test(error.message) ? 'disk_full' : 'sync_failed', error.message);
  // A snapshot, sync checkout or publish that met a full disk.
  if (isOutOfSpace(error)) return failure('disk_full', DISK_FULL_MESSAGE);
  throw error;
}

/**
 * The steps in order, each timed for the log's `timings:` line (printed before the publish line, so
 * the cost of a deployment is visible); a step fails by throwing a DeploymentFailure.
 */
async function deploy(run: Run): Promise<Deployed> {
  const timer = stepTimer();
  const synced = await sync(run);
  if (run.project.source_repo) timer.lap('sync');
  let built: Built;
  let published: Published;
  try {
    const snapshotted = await snapshot(run, synced);
    timer.lap('snapshot');
    const planned = await plan(run, snapshotted);
    timer.lap('plan');
    built = await build(run, planned);
    timer.lap('build');
    published = await publish(run, built);
    timer.lap('publish');
  } finally {
    await replaceContentRoot(run, synced);
  }
  if (synced.replaceContentRoot) timer.lap('content root');
  run.log.line(`timings: ${timer.format(built.phases)}`);
  run.log.line(`publish: ${run.label ? 'preview' : 'live'} at ${published.liveAt}`);
  // The site is live: the build's cache is kept for the next one while the old builds are pruned.
  const afterLive = runAfterLive(run.afterLive, (message) => run.log.line(`build: after the site went live: ${message}`));
  try {
    return await prune(run, published);
  } finally {
    await afterLive;
  }
}

/**
 * A repository project's content root brought to the commit this deployment synced (steps/sync.ts),
 * once the site is live or the deployment failed or was stopped: off the way from push to live, yet
 * before the deployment ends, so what the pages API shows is the commit the deployment synced,
 * built or not (as when the sync replaced it at once). Never failing a deployment: a root left
 * behind is replaced by the next sync (a crash before this leaves it so too). Never for a deleted
 * project (its folder is gone), nor for one disconnected from the repository meanwhile: the
 * disconnect brought its root to the synced commit (service.ts, forgetRepository), and pages
 * written through the API since then are in it.
 */
async function replaceContentRoot(run: Run, synced: Synced): Promise<void> {
  if (!synced.replaceContentRoot) return;
  const deleted = run.signal.aborted && run.signal.reason === 'deleted';
  const connected = !deleted && (await run.ctx.store.getProject(run.project.id).then((now) => now?.source_repo === run.project.source_repo, () => false));
  if (!connected) {
    await synced.replaceContentRoot(false);
    if (!deleted) run.log.line('sync: the project is no longer connected to this repository (or its record could not be read); its content root is left as it is');
    return;
  }
  await synced.replaceContentRoot().catch((error: NodeJS.ErrnoException) => {
    run.log.line(`sync: the content root could not be brought to commit ${synced.commitSha} (${error.code ?? 'error'}); the next sync does it`);
  });
}
