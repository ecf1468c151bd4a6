// One deployment, start to finish (docs/decisions.md#deployments): sync (repository projects), snapshot the content
// root, build it, publish it atomically, prune old builds; the deployment record, the project's
// status (docs/decisions.md#projects) and the log follow each step. Any failure leaves the previous site live.
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { buildSite, type AstroRunner, type BuildPhases, type BuildSiteResult } from '../../site/build.ts';
import { observeProgress, type ProgressReport } from '../../site/build-progress.ts';
import { linkTree, removeTree } from '../../site/link-tree.ts';
import { repoRoot, type PageHistory } from '../../site/settings.ts';
import { editBaseUrl, lastUpdatedDates } from './page-history.ts';
import type { Config } from '../config.ts';
import { DEPLOYMENT_ERROR_CODES, FolioError, isFolioError, isOutOfSpace, type DeploymentErrorCode } from '../errors.ts';
import { codeAllowed } from '../projects.ts';
import { buildDir, contentRootDir, gitDir, previewRootDir, snapshotDir } from '../project-files.ts';
import type { DeploymentProgress, DeploymentRecord, ProjectRecord, WebhookEvent } from '../store/records.ts';
import type { Store } from '../store/store.ts';
import type { BuildStorage } from '../builds/storage.ts';
import type { ProjectContent } from '../project-content.ts';
import { buildSandbox } from './build-sandbox.ts';
import { buildFingerprint, carryOverWarnings, planRedeploy, removeBuildInputs, warningsByPage, writeBuildInputs, type BuildInputs, type RedeployPlan } from './fast-redeploy.ts';
import type { DeploymentLog } from './log.ts';
import { precompressBuild } from './precompress.ts';
import { keepReuseCopy } from './reuse-copies.ts';
import { keptBuilds } from './publish.ts';
import { SyncError, syncRepository } from './sync.ts';

export interface RunContext {
  config: Config;
  store: Store;
  /** Where builds are kept and made live (the data dir, or object storage). */
  builds: BuildStorage;
  /** Where the content root of a project without a repository is kept (its copy here is brought up to date before the snapshot). */
  content: ProjectContent;
  /** The live site address of a project (its `url`). */
  siteUrl(project: ProjectRecord): string;
  /** The address of a project's preview of a branch label. */
  previewUrl(project: ProjectRecord, label: string): string;
  /** Told after the project's live link (or a preview's) was switched. */
  liveChanged(projectId: string): void;
  /** Told when a deployment started, succeeded or failed (events out: events.ts). */
  onEvent?(event: WebhookEvent, deployment: DeploymentRecord): void;
  /**
   * Whether this process still holds its claim on the deployment (the build queue's lease). Asked
   * just before a build goes live: a worker cut off from the store longer than its lease, or whose
   * build was canceled meanwhile, must not switch the site (docs/decisions.md#job-queue-and-node-roles).
   */
  holdsClaim(deploymentId: string): Promise<boolean>;
}

/**
 * Why a run was stopped from outside: the project was deleted, the server is stopping, a client
 * canceled it, or this process lost its claim (another node ended the deployment after its lease
 * ran out: see queue.ts).
 */
export type StopCause = 'deleted' | 'shutdown' | 'canceled' | 'lease_lost';

/** A failed deployment: the one error type (src/service/errors.ts), with a deployment's code. */
type DeploymentFailure = FolioError & { code: DeploymentErrorCode };

const failure = (code: DeploymentErrorCode, message: string) => new FolioError(code, message) as DeploymentFailure;

const isDeploymentFailure = (error: unknown): error is DeploymentFailure =>
  isFolioError(error) && (DEPLOYMENT_ERROR_CODES as readonly string[]).includes(error.code);

/** How a build that ran out of disk space shows in its outcome or log (Node's errno text). */
const NO_SPACE = /\bENOSPC\b|\bEDQUOT\b|no space left on device|disk quota exceeded/i;

const DISK_FULL_MESSAGE = "the server's disk is full: the build could not write its files; the previous site stays live (trigger the deployment again once space is freed)";

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
  const snapshot = snapshotDir(config.dataDir, projectId, queued.id);
  const output = buildDir(config.dataDir, projectId, queued.id);
  const log = await ctx.builds.logs.open(projectId, queued.id, {
    contentRoots: [snapshot],
    hidden: [config.dataDir, repoRoot],
  });
  const preview = queued.preview_label !== undefined;
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
      const { pageCount, warnings } = await deploy(ctx, project, queued, astro, signal, log);
      // Every line is in the file before the status says the deployment ended (docs/decisions.md#deployments).
      await log.flush();
      await untilStored(() => recordSuccess(store, queued.id, projectId, pageCount, preview, warnings), signal);
      await event('deployment.succeeded');
    } catch (error) {
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
    await removeTree(snapshot);
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

/** Sync, snapshot, build, publish. Returns the page count. */
/** Builds and publishes; answers the pages built and the build's warnings (those a fast redeploy carried over too). */
async function deploy(ctx: RunContext, project: ProjectRecord, deployment: DeploymentRecord, astro: AstroRunner, signal: AbortSignal, log: DeploymentLog): Promise<{ pageCount: number; warnings: number }> {
  const { config, store, builds, content } = ctx;
  const deploymentId = deployment.id;
  const label = deployment.preview_label;
  // A preview builds its branch in a content root of its own: the project's stays untouched.
  const root = label ? previewRootDir(config.dataDir, project.id, label) : contentRootDir(config.dataDir, project.id);
  const branch = deployment.branch ?? project.source_branch;
  const siteUrl = label ? ctx.previewUrl(project, label) : ctx.siteUrl(project);
  let pageHistory: PageHistory | undefined;
  let commitSha: string | undefined;
  // Seconds of each step, printed before the publish line so the cost of a deployment is visible.
  const timings: Array<[string, number]> = [];
  let mark = performance.now();
  const lap = (step: string) => {
    const now = performance.now();
    timings.push([step, now - mark]);
    mark = now;
  };
  const gitOptions = { protocols: config.gitProtocols, timeoutMs: config.buildTimeoutS * 1000, signal };
  if (project.source_repo) {
    const [owner, name] = project.source_repo.split('/');
    log.line(`sync: ${project.source_repo}${branch ? ` branch ${branch}` : ' (default branch)'}`);
    if (branch) await store.updateDeployment(deploymentId, { source_branch: branch });
    await mkdir(path.dirname(root), { recursive: true });
    const url = config.gitUrl.replaceAll('{owner}', owner).replaceAll('{name}', name);
    const synced = await syncRepository({
      url,
      repository: project.source_repo,
      branch,
      gitDir: gitDir(config.dataDir, project.id),
      contentRoot: root,
      protocols: config.gitProtocols,
      timeoutMs: config.buildTimeoutS * 1000,
      signal,
      log: (line) => log.line(line),
    });
    await store.updateDeployment(deploymentId, { source_branch: synced.branch, commit_sha: synced.commitSha });
    commitSha = synced.commitSha;
    // The default branch is recorded on the project (docs/decisions.md#projects), unless a branch was set meanwhile.
    const current = await store.getProject(project.id);
    if (!label && current && !current.source_branch) await store.updateProject(project.id, { source_branch: synced.branch });
    // One `git log` for every page's date; without it pages simply show none.
    const lastUpdated = await lastUpdatedDates(gitDir(config.dataDir, project.id), gitOptions).catch(() => {
      log.line('sync: the pages\' last-updated dates could not be read from git; pages show none');
      return undefined;
    });
    pageHistory = { editUrl: editBaseUrl(url, project.source_repo, synced.branch), lastUpdated };
    lap('sync');
  }

  const snapshot = snapshotDir(config.dataDir, project.id, deploymentId);
  await mkdir(path.dirname(snapshot), { recursive: true });
  // Page writes after this point wait for the next deployment; this build never sees half of one.
  // A project without a repository gets its pages as written through the API on any node.
  // Hard links, not copies: every writer of a content root (a sync, the pages API, a pull from
  // PostgreSQL) replaces a file by a new one and never writes into it (src/site/link-tree.ts).
  const copy = async () => {
    if (await stat(root).catch(() => undefined)) await linkTree(root, snapshot, { symlinks: true });
    else await mkdir(snapshot);
  };
  await (project.source_repo || label ? copy() : content.read(project.id, copy));
  lap('snapshot');
  log.line('snapshot: content root linked');
  await builds.keepSnapshot(project.id, deploymentId, snapshot).catch((error: unknown) => {
    if (isOutOfSpace(error)) throw error;
    throw failure('build_failed', `the snapshot could not be stored (${(error as Error).message}); the previous site stays live: trigger the deployment again`);
  });

  const output = buildDir(config.dataDir, project.id, deploymentId);
  await mkdir(output, { recursive: true });
  // Read when the build starts: a PATCH of allow_code applies to the next deployment.
  const allowCode = codeAllowed((await store.getProject(project.id)) ?? project, config);
  // Fast or full (docs/decisions.md#fast-redeploys): only a repository project's commits can be compared.
  let inputs: BuildInputs | undefined;
  let plan: RedeployPlan = { kind: 'full', reason: 'the project has no repository to compare commits in' };
  if (commitSha) {
    const fingerprint = await buildFingerprint({ siteUrl, allowCode, editUrl: pageHistory?.editUrl });
    inputs = { commit: commitSha, fingerprint, lastUpdated: pageHistory?.lastUpdated ?? {}, warnings: {} };
    plan = await planRedeploy({ store, dataDir: config.dataDir, deployment, root: snapshot, gitDir: gitDir(config.dataDir, project.id), gitOptions, inputs, allowCode })
      .catch((): RedeployPlan => ({ kind: 'full', reason: 'the change could not be compared with the previous build' }));
  }
  lap('plan');
  log.line(plan.kind === 'fast' ? `build: fast (${plan.changed} page${plan.changed === 1 ? '' : 's'} changed)` : `build: full (${plan.reason})`);
  let ranOutOfSpace = false;
  const buildPhases: BuildPhases[] = [];
  const progress = progressKeeper(store, deploymentId);
  const build = (reuse?: { previousOutDir: string; pageFiles: string[] }) =>
    observeProgress(progress.report, () => buildSite({
      contentRoot: snapshot,
      outDir: output,
      siteUrl: siteUrl.replace(/\/$/, ''),
      timeoutMs: config.buildTimeoutS * 1000,
      signal,
      onLog: (line) => {
        if (NO_SPACE.test(line)) ranOutOfSpace = true;
        log.line(`build: ${line}`);
      },
      astro,
      sandbox: buildSandbox(config),
      hiddenDirs: [config.dataDir],
      pageHistory,
      allowCode,
      reuse,
      // The next fast build of the same target starts from this build's Astro cache (a fast one
      // from the previous build's), so its content sync reads only the changed pages. Never for
      // code, which is always built in full (docs/decisions.md#fast-redeploys).
      carryCache: inputs && !allowCode && builds.kind === 'disk' ? { site: `${project.id}:${label ?? ''}`, from: reuse && plan.kind === 'fast' ? plan.previous.id : undefined, keepAs: deploymentId } : undefined,
      progressIntervalMs: config.buildProgressMs,
      searchShardPages: config.searchShardPages,
    })).then((done) => {
      buildPhases.push(done.phases);
      return done;
    });
  let result: BuildSiteResult = await build(plan.kind === 'fast' ? { previousOutDir: plan.previousBuild, pageFiles: plan.pageFiles } : undefined);
  let partial = plan.kind === 'fast';
  if (result.error?.code === 'reuse_refused') {
    log.line(`build: full (the partial build cannot be reused: ${result.error.message})`);
    partial = false;
    result = await build();
  } else if (plan.kind === 'fast' && result.error?.code === 'build_failed') {
    // Whatever made the partial build fail, a full build is the answer that counts.
    log.line('build: full (the partial build failed)');
    await rm(output, { recursive: true, force: true });
    await mkdir(output, { recursive: true });
    partial = false;
    result = await build();
  }
  await progress.settled();
  let warnings = result.warnings.length;
  if (result.ok && inputs) {
    // The latest log names every warning of the site, as a full build's would: a partial build
    // checked and rendered only some pages, so the others' come from the previous build's record.
    const fresh = warningsByPage(result.warnings, snapshot);
    inputs.warnings = fresh;
    if (partial && plan.kind === 'fast') {
      const { carried, all } = carryOverWarnings(plan.previous.warnings, plan.pageFiles, fresh);
      for (const line of carried) log.line(`build: ${line} (carried over from the build of deployment ${plan.previous.id}: not checked again)`);
      warnings += carried.length;
      inputs.warnings = all;
    }
  }
  if (!result.ok) {
    const error = result.error!;
    if (error.code === 'canceled') throw failure('interrupted', 'the deployment was stopped');
    if (ranOutOfSpace || NO_SPACE.test(error.message)) throw failure('disk_full', DISK_FULL_MESSAGE);
    if (error.code === 'no_pages') throw failure('no_pages', 'the content root has no pages: add .md or .mdx files under content/');
    // The build's other codes are the table's, but for invalid content, which is a failed build
    // (and a refused merge, which never gets here: a full build follows it).
    throw failure(error.code === 'content_invalid' || error.code === 'reuse_refused' ? 'build_failed' : error.code, error.message);
  }
  log.line(`build: ${result.pageCount} page(s) in ${(result.durationMs / 1000).toFixed(1)} s`);
  lap('build');
  // A fast redeploy reuses the previous build in the data dir: with object storage none stays
  // there, so every build is full and no inputs are kept (docs/decisions.md#object-storage).
  if (inputs && builds.kind === 'disk') await writeBuildInputs(config.dataDir, project.id, deploymentId, inputs);
  // Text files' brotli and gzip copies, so serving only reads them; before `keep`, which uploads them with the build.
  const compressed = await precompressBuild(output, partial && plan.kind === 'fast' ? plan.previousBuild : undefined, result.written).catch((error: unknown) => {
    if (isOutOfSpace(error)) throw error;
    throw failure('build_failed', `the build's compressed copies could not be written (${(error as Error).message}); the previous site stays live: trigger the deployment again`);
  });
  log.line(`publish: ${compressed.files} text file(s) compressed (brotli, gzip), ${compressed.made} cop${compressed.made === 1 ? 'y' : 'ies'} made`);
  // Kept where every node reads it (object storage: uploaded) before it is made live.
  await builds.keep(project.id, deploymentId).catch((error: unknown) => {
    if (isOutOfSpace(error)) throw error;
    throw failure('build_failed', `the build could not be stored (${(error as Error).message}); the previous site stays live: trigger the deployment again`);
  });
  if (!(await ctx.holdsClaim(deploymentId))) throw failure('interrupted', 'this worker no longer holds the deployment');
  await builds.publish(project.id, deploymentId, label);
  ctx.liveChanged(project.id);
  lap('publish');
  log.line(`timings: ${formatTimings(timings, buildPhases)}`);
  log.line(`publish: ${label ? 'preview' : 'live'} at ${siteUrl}`);
  // Before the deployment is reported succeeded, so what a client then sees on disk is final.
  const kept = await keptBuilds(builds, store, project.id, config.keepBuilds - 1);
  kept.add(deploymentId);
  await builds.prune(project.id, kept);
  // After the site is live: the next fast redeploy takes this copy whole (src/site/reuse-copy.ts).
  if (inputs && !allowCode && builds.kind === 'disk') {
    const started = performance.now();
    await keepReuseCopy(store, config.dataDir, deployment).then(
      () => log.line(`reuse: this build's copy for the next fast redeploy made in ${((performance.now() - started) / 1000).toFixed(2)} s (after it went live)`),
      () => log.line('reuse: no copy of this build for the next fast redeploy (it could not be made); that one links the files one by one'),
    );
  }
  return { pageCount: result.pageCount, warnings };
}

/**
 * `sync 0.41 s, snapshot 0.02 s, …`: the deployment's steps, the build's own steps in place of
 * `build` (summed over a partial build and the full one that followed it) and what else the build
 * step took (starting the worker, writing its inputs) as `build other`.
 */
function formatTimings(steps: Array<[string, number]>, phases: BuildPhases[]): string {
  const out: Array<[string, number]> = [];
  for (const [step, ms] of steps) {
    if (step !== 'build' || phases.length === 0) {
      out.push([step, ms]);
      continue;
    }
    const sums = new Map<string, number>();
    for (const p of phases) for (const [name, t] of Object.entries(p)) sums.set(name, (sums.get(name) ?? 0) + (t ?? 0));
    // The link to the previous build runs while Astro does: not part of the sum of the sequence.
    const sequential = [...sums].filter(([name]) => name !== 'link previous build').reduce((a, [, t]) => a + t, 0);
    out.push(...sums, ['build other', Math.max(0, ms - sequential)]);
  }
  return out.map(([step, ms]) => `${step} ${(ms / 1000).toFixed(2)} s`).join(', ');
}

/**
 * Keeps a build's latest progress report on its deployment, where every node's console and API
 * read it (docs/decisions.md#build-progress-and-usage-on-every-server-issue-30-item-4-of-issue-28).
 * One write at a time: a report arriving while one is stored waits, and only the newest waiting
 * one is written. A failed write is left alone: the next report comes in a few seconds, and
 * progress never fails a deployment.
 */
function progressKeeper(store: Store, deploymentId: string) {
  let pending: DeploymentProgress | undefined;
  let writing: Promise<void> | undefined;
  const write = async () => {
    while (pending) {
      const progress = pending;
      pending = undefined;
      await store.updateDeployment(deploymentId, { progress }).catch(() => {});
    }
    writing = undefined;
  };
  return {
    report({ seconds: _elapsed, ...progress }: ProgressReport) {
      pending = progress;
      writing ??= write();
    },
    /** Resolves once no write is under way (before the outcome is recorded). */
    async settled() {
      await writing;
    },
  };
}
