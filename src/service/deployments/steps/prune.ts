// The last step: the project's builds beyond FOLIO_KEEP_BUILDS go (publish.ts says which stay),
// before the deployment is reported succeeded, so what a client then sees on disk is final; then
// the live build's reuse copy for the next fast redeploy is made.
import { keptBuilds } from '../publish.ts';
import { keepReuseCopy } from '../reuse-copies.ts';
import type { Run } from './context.ts';
import type { Published } from './publish.ts';

/** What the runner records of a deployment that went live. */
export type Deployed = Pick<Published, 'pageCount' | 'warnings'>;

export async function prune(run: Run, published: Published): Promise<Deployed> {
  const { ctx: { config, store, builds }, project, deployment } = run;
  const kept = await keptBuilds(builds, store, project.id, config.keepBuilds - 1);
  kept.add(deployment.id);
  await builds.prune(project.id, kept);
  // After the site is live: the next fast redeploy takes this copy whole (src/builder/reuse-copy.ts).
  if (published.inputs && !published.allowCode && builds.kind === 'disk') {
    const started = performance.now();
    await keepReuseCopy(store, config.dataDir, deployment).then(
      () => run.log.line(`reuse: this build's copy for the next fast redeploy made in ${((performance.now() - started) / 1000).toFixed(2)} s (after it went live)`),
      () => run.log.line('reuse: no copy of this build for the next fast redeploy (it could not be made); that one links the files one by one'),
    );
  }
  return { pageCount: published.pageCount, warnings: published.warnings };
}
