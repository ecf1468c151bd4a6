// The last step: the project's builds beyond FOLIO_KEEP_BUILDS go (publish.ts says which stay),
// before the deployment is reported succeeded, so what a client then sees on disk is final.
import { keptBuilds } from '../publish.ts';
import type { Run } from './context.ts';
import type { Published } from './publish.ts';

/** What the runner records of a deployment that went live. */
export type Deployed = Pick<Published, 'pageCount' | 'warnings'>;

export async function prune(run: Run, published: Published): Promise<Deployed> {
  const { ctx: { config, store, builds }, project, deployment } = run;
  const kept = await keptBuilds(builds, store, project.id, config.keepBuilds - 1);
  kept.add(deployment.id);
  await builds.prune(project.id, kept);
  return { pageCount: published.pageCount, warnings: published.warnings };
}
