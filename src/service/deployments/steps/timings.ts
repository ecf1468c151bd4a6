// The log's `timings:` line (docs/architecture.md#a-deployment): the seconds of each step of a
// deployment, the build's own steps in place of `build`.
import type { BuildPhases } from '../../../builder/build.ts';

/** Times a deployment's steps: each lap is the time since the one before (or since the start). */
export function stepTimer() {
  const steps: Array<[string, number]> = [];
  let mark = performance.now();
  return {
    lap(step: string) {
      const now = performance.now();
      steps.push([step, now - mark]);
      mark = now;
    },
    /** The line, with the build's phases (one entry per build run) in place of `build`. */
    format: (phases: BuildPhases[]) => formatTimings(steps, phases),
  };
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
