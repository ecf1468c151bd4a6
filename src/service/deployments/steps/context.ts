// What every step of a deployment is handed (docs/architecture.md#a-deployment): the service's parts
// (RunContext), the one run (Run), and the one way a step fails: a FolioError with one of the
// table's deployment codes, which the runner records as the deployment's outcome.
import type { AstroRunner } from '../../../builder/build.ts';
import type { BuildStorage } from '../../builds/storage.ts';
import type { Config } from '../../config.ts';
import { DEPLOYMENT_ERROR_CODES, FolioError, isFolioError, isOutOfSpace, type DeploymentErrorCode } from '../../errors.ts';
import type { GitOptions } from '../../git.ts';
import type { ProjectContent } from '../../project-content.ts';
import type { DeploymentRecord, ProjectRecord, WebhookEvent } from '../../store/records.ts';
import type { Store } from '../../store/store.ts';
import type { DeploymentLog } from '../log.ts';

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

/** One deployment being run: what each step reads besides the previous step's result. */
export interface Run {
  ctx: RunContext;
  project: ProjectRecord;
  deployment: DeploymentRecord;
  astro: AstroRunner;
  signal: AbortSignal;
  log: DeploymentLog;
  /** The preview's branch label; absent for the project's own site. */
  label?: string;
  /** The content root synced and snapshotted: a preview's own (the project's stays untouched), or the project's. */
  root: string;
  /** Where the site is served once published: the project's address or the preview's. */
  siteUrl: string;
  /** This deployment's snapshot of the content root. */
  snapshot: string;
  /** This deployment's build output. */
  output: string;
  /**
   * What the build left for after the site is live (BuildSiteOptions.afterLive: its cache kept for
   * the next build, its folders moved away): run once the site is switched, or by the runner
   * whatever the outcome, always before the build slot takes the next deployment.
   */
  afterLive: Array<() => Promise<void>>;
}

/**
 * Runs the steps `afterLive` holds (each once: they are taken out); a step's failure is told by
 * `onError`, never the deployment's: the site is live, or the deployment already failed.
 */
export async function runAfterLive(afterLive: Run['afterLive'], onError: (message: string) => void): Promise<void> {
  await Promise.all(afterLive.splice(0).map((step) => step().catch((error: unknown) => onError(error instanceof Error ? error.message : String(error)))));
}

/** Git's limits for a run: the build's timeout, and the run's stop. */
export const gitOptions = (run: Run): GitOptions => ({ protocols: run.ctx.config.gitProtocols, timeoutMs: run.ctx.config.buildTimeoutS * 1000, signal: run.signal });

/** A failed deployment: the one error type (src/service/errors.ts), with a deployment's code. */
export type DeploymentFailure = FolioError & { code: DeploymentErrorCode };

export const failure = (code: DeploymentErrorCode, message: string) => new FolioError(code, message) as DeploymentFailure;

export const isDeploymentFailure = (error: unknown): error is DeploymentFailure =>
  isFolioError(error) && (DEPLOYMENT_ERROR_CODES as readonly string[]).includes(error.code);

/** How a build that ran out of disk space shows in its outcome or log (Node's errno text). */
export const NO_SPACE = /\bENOSPC\b|\bEDQUOT\b|no space left on device|disk quota exceeded/i;

export const DISK_FULL_MESSAGE = "the server's disk is full: the build could not write its files; the previous site stays live (trigger the deployment again once space is freed)";

/**
 * For a write of the deployment's files that failed (`what` … could not be …): a full disk stays
 * what it is (the runner records it as disk_full), anything else fails the build with its reason.
 */
export const writeFailed = (what: string) => (error: unknown): never => {
  if (isOutOfSpace(error)) throw error;
  throw failure('build_failed', `${what} (${(error as Error).message}); the previous site stays live: trigger the deployment again`);
};
