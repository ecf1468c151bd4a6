// The Astro step of a build: what it is given (BuildJob), what a started one offers (StartedBuild),
// and the runner that starts it. The default runner is a fresh build-worker.ts process per build;
// the warm worker (warm-worker.ts) is the other. Either writes the site into its build root's `out`.
import fs from 'node:fs/promises';
import path from 'node:path';
import { giveToSandbox, SANDBOX_CONTENT_ROOT, SANDBOX_INPUT_DIR, sandboxUid, type SandboxOptions } from './sandbox.ts';
import { type PageHistory } from '../site/settings.ts';
import { BUILDS_DIR, buildOutDir, makeBuildRoot, sandboxInput } from './build-roots.ts';
import { removeLater } from '../lib/remove-later.ts';
import { buildLaunch, startProcess, workerEnv, type BuildLimits, type Child } from './processes.ts';

/** One build's inputs as the Astro step needs them. */
export interface BuildJob {
  /** The content root on the host. */
  contentRoot: string;
  siteUrl?: string;
  /** Absent: the build runs without a sandbox (FOLIO_SANDBOX=off, or auto without bubblewrap). */
  sandbox?: SandboxOptions;
  /** The project runs code: the checks inside the build allow it (never set for a warm worker). */
  allowCode?: boolean;
  pageHistory?: PageHistory;
  /** A fast redeploy's partial build: the paths of the only pages rendered (SiteSettings.onlyPages). */
  onlyPages?: string[];
}

/** The Astro step of one build, started: it writes the site into `<buildRoot>/out`. */
export interface StartedBuild extends Child {
  /** The build's own Astro root (the same path on the host and in the sandbox). */
  buildRoot: string;
  /** The content root as the build sees it (SANDBOX_CONTENT_ROOT in the sandbox). */
  contentRoot: string;
  /**
   * The host directory the build reads as its content root: in the sandbox an empty directory that
   * buildSite fills with a copy of the content before `go` (and checks that copy), else the content
   * root itself.
   */
  input: string;
  /** The uid the build runs as in the sandbox (Pagefind then writes into its output as the same). */
  uid: number;
  /** Once the build is over: moves its directories aside at once and removes them in the background (src/lib/remove-later.ts). */
  cleanup(): Promise<void>;
}

/** Runs the Astro step of one build in some process. */
export interface AstroRunner {
  start(job: BuildJob, limits: BuildLimits, emit: (line: string) => void): Promise<StartedBuild>;
}

/** The child-process entry of a build (cold, or warm with `--warm`). */
export const WORKER = path.join(import.meta.dirname, 'build-worker.ts');

/** A fresh `build-worker.ts` process per build: slower to start, nothing shared at all. */
export const coldAstro: AstroRunner = {
  async start(job, limits, emit) {
    const buildRoot = await makeBuildRoot(BUILDS_DIR);
    const uid = sandboxUid();
    // The copy of the content lives beside the build root, not in it: the build may write only there.
    const inputDir = `${buildRoot}.input`;
    if (job.sandbox) {
      await giveToSandbox(buildRoot, uid);
      await fs.mkdir(inputDir);
    }
    const contentRoot = job.sandbox ? SANDBOX_CONTENT_ROOT : job.contentRoot;
    const env = workerEnv(buildRoot, contentRoot, buildOutDir(buildRoot), job.siteUrl, !!job.sandbox, job.allowCode, job.pageHistory);
    if (job.onlyPages) env.FOLIO_ONLY_PAGES = JSON.stringify(job.onlyPages);
    const mounts = [{ from: buildRoot, writable: true }, { from: inputDir, at: SANDBOX_INPUT_DIR }];
    const launch = buildLaunch([process.execPath, WORKER], buildRoot, env, job.sandbox, mounts, uid);
    return {
      ...startProcess(launch, limits, emit),
      buildRoot,
      contentRoot,
      input: job.sandbox ? sandboxInput(inputDir) : job.contentRoot,
      uid,
      cleanup: async () => {
        await removeLater(buildRoot);
        await removeLater(inputDir);
      },
    };
  },
};
