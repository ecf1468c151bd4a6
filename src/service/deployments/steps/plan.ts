// Fast or full (docs/decisions.md#fast-redeploys): only a repository project's commits can be
// compared, in fast-redeploy.ts; any other deployment, or a comparison that fails, builds in full.
import { mkdir } from 'node:fs/promises';
import { codeAllowed } from '../../projects.ts';
import { gitDir } from '../../project-files.ts';
import { buildFingerprint, planRedeploy, type BuildInputs, type RedeployPlan } from '../fast-redeploy.ts';
import { gitOptions, type Run } from './context.ts';
import type { Snapshot } from './snapshot.ts';

export interface Planned extends Snapshot {
  /** Read when the build starts: a PATCH of allow_code applies to the next deployment. */
  allowCode: boolean;
  plan: RedeployPlan;
  /** What this build is made from, kept beside it for the next deployment's plan (repository projects). */
  inputs?: BuildInputs;
}

export async function plan(run: Run, snapshot: Snapshot): Promise<Planned> {
  const { ctx: { config, store }, project, deployment } = run;
  await mkdir(run.output, { recursive: true });
  const allowCode = codeAllowed((await store.getProject(project.id)) ?? project, config);
  let inputs: BuildInputs | undefined;
  let planned: RedeployPlan = { kind: 'full', reason: 'the project has no repository to compare commits in' };
  if (snapshot.commitSha) {
    const fingerprint = await buildFingerprint({ siteUrl: run.siteUrl, allowCode, editUrl: snapshot.pageHistory?.editUrl });
    inputs = { commit: snapshot.commitSha, fingerprint, lastUpdated: snapshot.pageHistory?.lastUpdated ?? {}, warnings: {} };
    planned = await planRedeploy({ store, dataDir: config.dataDir, deployment, root: snapshot.contentRoot, gitDir: gitDir(config.dataDir, project.id), gitOptions: gitOptions(run), inputs, allowCode })
      .catch((): RedeployPlan => ({ kind: 'full', reason: 'the change could not be compared with the previous build' }));
  }
  run.log.line(planned.kind === 'fast' ? `build: fast (${planned.changed} page${planned.changed === 1 ? '' : 's'} changed)` : `build: full (${planned.reason})`);
  return { ...snapshot, allowCode, plan: planned, inputs };
}
