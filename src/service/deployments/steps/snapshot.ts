// The content root as this deployment builds it: page writes after this point wait for the next
// deployment, so a build never sees half of one. Hard links, not copies: every writer of a content
// root (a sync, the pages API, a pull from PostgreSQL) replaces a file by a new one and never
// writes into it (src/lib/link-tree.ts). A repository project's snapshot is linked by its sync,
// from the tree the sync wrote (sync.ts), in the same pass: nothing is linked here.
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { linkTree } from '../../../lib/link-tree.ts';
import { writeFailed, type Run } from './context.ts';
import type { Synced } from './sync.ts';

export interface Snapshot extends Synced {
  /** The snapshot's folder: the content root every later step reads. */
  contentRoot: string;
}

export async function snapshot(run: Run, synced: Synced): Promise<Snapshot> {
  const { ctx: { builds, content }, project, deployment, root } = run;
  const dir = run.snapshot;
  await mkdir(path.dirname(dir), { recursive: true });
  const copy = async () => {
    if (await stat(root).catch(() => undefined)) await linkTree(root, dir, { symlinks: true });
    else await mkdir(dir);
  };
  if (synced.commitSha === undefined) {
    // A project without a repository gets its pages as written through the API on any node.
    await content.read(project.id, copy);
    run.log.line('snapshot: content root linked');
  }
  // Kept where every node reads it (object storage: uploaded).
  await builds.keepSnapshot(project.id, deployment.id, dir).catch(writeFailed('the snapshot could not be stored'));
  return { ...synced, contentRoot: dir };
}
