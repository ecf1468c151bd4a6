// The build (src/builder/build.ts): the content check, then Astro and Pagefind in the sandbox, timed
// per phase (`check` is the first: it runs inside buildSite while the build process loads Astro).
// A fast plan renders only the changed pages over the previous build; if that build cannot be
// reused, or fails, a full build follows and its outcome is the one that counts.
import { mkdir, rm } from 'node:fs/promises';
import { buildSite, type BuildPhases, type BuildSiteResult } from '../../../builder/build.ts';
import { observeProgress, type ProgressReport } from '../../../builder/build-progress.ts';
import type { DeploymentProgress } from '../../store/records.ts';
import type { Store } from '../../store/store.ts';
import { buildSandbox } from '../build-sandbox.ts';
import { carryOverWarnings, warningsByPage } from '../fast-redeploy.ts';
import { DISK_FULL_MESSAGE, failure, NO_SPACE, type Run } from './context.ts';
import type { Planned } from './plan.ts';

export interface Built extends Planned {
  pageCount: number;
  /** The build's warnings, with those a partial build carried over from the previous one. */
  warnings: number;
  /** Rendered over the previous build (the fast plan held). */
  partial: boolean;
  /** The build's own steps, timed: one entry per build run (a partial build and the full one after it). */
  phases: BuildPhases[];
  /** A fast redeploy's files written over the previous build (BuildSiteResult.written): only these are compressed again. */
  written?: string[];
}

export async function build(run: Run, planned: Planned): Promise<Built> {
  const { ctx: { config, store, builds }, log, signal } = run;
  const { plan, contentRoot } = planned;
  let ranOutOfSpace = false;
  const phases: BuildPhases[] = [];
  const progress = progressKeeper(store, run.deployment.id);
  const runBuild = (reuse?: { previousOutDir: string; pageFiles: string[]; validatedSpecs: string[] }) =>
    observeProgress(progress.report, () => buildSite({
      contentRoot,
      outDir: run.output,
      siteUrl: run.siteUrl.replace(/\/$/, ''),
      timeoutMs: config.buildTimeoutS * 1000,
      signal,
      onLog: (line) => {
        if (NO_SPACE.test(line)) ranOutOfSpace = true;
        log.line(`build: ${line}`);
      },
      astro: run.astro,
      sandbox: buildSandbox(config),
      hiddenDirs: [config.dataDir],
      pageHistory: planned.pageHistory,
      allowCode: planned.allowCode,
      reuse,
      // The next fast build of the same target starts from this build's Astro cache (a fast one
      // from the previous build's), so its content sync reads only the changed pages. Never for
      // code, which is always built in full (docs/decisions.md#fast-redeploys).
      carryCache: planned.inputs && !planned.allowCode && builds.kind === 'disk' ? { site: `${run.project.id}:${run.label ?? ''}`, from: reuse && plan.kind === 'fast' ? plan.previous.id : undefined, keepAs: run.deployment.id } : undefined,
      searchShardPages: config.searchShardPages,
      progressIntervalMs: config.buildProgressMs,
      // This deployment's own snapshot (runner.ts removes it at the end): moved into the sandbox
      // whole where it can be, and back for what reads it after the build.
      contentRootIsSnapshot: true,
      // Its cache kept and its folders moved away once the site is live (runner.ts).
      afterLive: (steps) => run.afterLive.push(steps),
    })).then((done) => {
      phases.push(done.phases);
      return done;
    });
  let result: BuildSiteResult = await runBuild(plan.kind === 'fast' ? { previousOutDir: plan.previousBuild, pageFiles: plan.pageFiles, validatedSpecs: plan.previous.validatedSpecs } : undefined);
  let partial = plan.kind === 'fast';
  if (result.error?.code === 'reuse_refused') {
    log.line(`build: full (the partial build cannot be reused: ${result.error.message})`);
    partial = false;
    result = await runBuild();
  } else if (plan.kind === 'fast' && result.error?.code === 'build_failed') {
    // Whatever made the partial build fail, a full build is the answer that counts.
    log.line('build: full (the partial build failed)');
    await rm(run.output, { recursive: true, force: true });
    await mkdir(run.output, { recursive: true });
    partial = false;
    result = await runBuild();
  }
  await progress.settled();
  let warnings = result.warnings.length;
  let inputs = planned.inputs;
  if (result.ok && inputs) {
    // The latest log names every warning of the site, as a full build's would: a partial build
    // checked and rendered only some pages, so the others' come from the previous build's record.
    const fresh = warningsByPage(result.warnings, contentRoot);
    inputs = { ...inputs, warnings: fresh, validatedSpecs: result.validatedSpecs ?? [] };
    if (partial && plan.kind === 'fast') {
      const { carried, all } = carryOverWarnings(plan.previous.warnings, plan.pageFiles, fresh);
      for (const line of carried) log.line(`build: ${line} (carried over from the build of deployment ${plan.previous.id}: not checked again)`);
      warnings += carried.length;
      inputs = { ...inputs, warnings: all };
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
  return { ...planned, inputs, pageCount: result.pageCount, warnings, partial, phases, written: result.written };
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
