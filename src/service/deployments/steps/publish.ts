// The build goes live: kept where every node reads it (object storage: uploaded), then switched
// atomically (src/service/builds/), unless this worker lost its claim on the deployment meanwhile.
// Until the switch, any failure leaves the previous site live.
import { writeBuildInputs } from '../fast-redeploy.ts';
import { precompressBuild } from '../precompress.ts';
import type { Built } from './build.ts';
import { failure, writeFailed, type Run } from './context.ts';

export interface Published extends Built {
  /** The address that now serves this build: the project's or the preview's. */
  liveAt: string;
}

export async function publish(run: Run, built: Built): Promise<Published> {
  const { ctx, project, deployment, label, log } = run;
  const { config, builds } = ctx;
  // A fast redeploy reuses the previous build in the data dir: with object storage none stays
  // there, so every build is full and no inputs are kept (docs/decisions.md#object-storage).
  if (built.inputs && builds.kind === 'disk') await writeBuildInputs(config.dataDir, project.id, deployment.id, built.inputs);
  // Text files' brotli and gzip copies, so serving only reads them; before `keep`, which uploads them with the build.
  const previousBuild = built.partial && built.plan.kind === 'fast' ? built.plan.previousBuild : undefined;
  const compressed = await precompressBuild(run.output, previousBuild, built.written).catch(writeFailed("the build's compressed copies could not be written"));
  log.line(`publish: ${compressed.files} text file(s) compressed (brotli, gzip), ${compressed.made} cop${compressed.made === 1 ? 'y' : 'ies'} made`);
  await builds.keep(project.id, deployment.id).catch(writeFailed('the build could not be stored'));
  if (!(await ctx.holdsClaim(deployment.id))) throw failure('interrupted', 'this worker no longer holds the deployment');
  await builds.publish(project.id, deployment.id, label);
  ctx.liveChanged(project.id);
  return { ...built, liveAt: run.siteUrl };
}
