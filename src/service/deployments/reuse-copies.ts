// Which builds keep a reuse copy (src/builder/reuse-copy.ts): only the newest build of each target
// (production, or one branch's preview), the one the next fast redeploy of that target reuses
// (fast-redeploy.ts, previousDeployment). An older build's copy would never be taken: it goes.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { makeReuseCopy } from '../../builder/reuse-copy.ts';
import { removeTree } from '../../lib/link-tree.ts';
import { buildDir, buildsDir } from '../project-files.ts';
import type { DeploymentRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';

const COPY = /^(.+)\.reuse$/;

/** Makes the copy of `deployment`'s published build and removes the copies of the target's older builds. */
export async function keepReuseCopy(store: Store, dataDir: string, deployment: DeploymentRecord): Promise<void> {
  const dir = buildsDir(dataDir, deployment.project_id);
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const id = COPY.exec(name)?.[1];
    if (!id || id === deployment.id) continue;
    const other = await store.getDeployment(id).catch(() => undefined);
    if (!other || other.preview_label === deployment.preview_label) await removeTree(path.join(dir, name));
  }
  await makeReuseCopy(buildDir(dataDir, deployment.project_id, deployment.id));
}
