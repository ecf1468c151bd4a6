// What a deployment keeps of its project's builds and whether its own build is live, over any
// build storage (service/builds/): the live build, previews' builds and the newest successful ones.
import type { BuildStorage } from '../builds/storage.ts';
import type { DeploymentRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';

/** Successful builds kept per project by default (FOLIO_KEEP_BUILDS): the live one and the ones before it. */
export const KEPT_BUILDS = 10;

/** True when the project's live build (or the deployment's preview's) is this deployment's build. */
export async function isLive(builds: Pick<BuildStorage, 'liveBuilds'>, deployment: Pick<DeploymentRecord, 'project_id' | 'id' | 'preview_label'>): Promise<boolean> {
  const live = await builds.liveBuilds(deployment.project_id);
  return (deployment.preview_label ? live.previews.get(deployment.preview_label) : live.live) === deployment.id;
}

/**
 * The builds a project keeps: the live one, every preview's, and those of the newest `keep`
 * successful production deployments (a promote counts as the build it made live).
 */
export async function keptBuilds(builds: Pick<BuildStorage, 'liveBuilds'>, store: Store, projectId: string, keep: number): Promise<Set<string>> {
  const kept = new Set<string>();
  const { live, previews } = await builds.liveBuilds(projectId);
  if (live) kept.add(live);
  for (const build of previews.values()) kept.add(build);
  const production = new Set<string>();
  let after: DeploymentRecord | undefined;
  for (;;) {
    const page = await store.listDeployments(projectId, 50, after);
    for (const d of page.items) {
      if (d.status === 'succeeded' && !d.branch && production.size < keep) production.add(d.promoted_from ?? d.id);
    }
    if (production.size >= keep || !page.hasMore) break;
    after = page.items.at(-1);
  }
  for (const id of production) kept.add(id);
  return kept;
}
