// The child-process entry of a site build: Astro's programmatic build() of one content root (build.ts
// scrubs its environment and indexes the output for search afterwards). The build's inputs are one
// SiteSettings (src/site/settings.ts), handed to the Astro config as an argument: nothing in a build reads
// process.env or the working directory.
//
// Two modes:
// - cold (default): the parent spawns it with its inputs as FOLIO_* variables (read once, here),
//   checks the content meanwhile, then writes "go\n" to its stdin; it runs one build and exits.
// - warm (`--warm`): a long-lived worker that loads Astro once and runs builds one at a time. Each
//   build's settings arrive as one JSON line on stdin (`{"settings": {...}}`); the worker keeps no
//   state between builds, then writes DONE_MARKER on stdout and stderr, so the parent knows every
//   line of that build has arrived. It exits when stdin closes.
import path from 'node:path';
import { build } from 'astro';
import { nativeAstroInContentSync, roleConfig } from '../site/astro-config.ts';
import { ContentRefusedError, type ContentGuard } from '../site/content-check/build-check.ts';
import { formatProblem } from '../site/content-check/check-content.ts';
import { resolveSiteSettings, siteSettings, type SiteSettings } from '../site/settings.ts';
import { adoptCarriedStore } from './build-cache.ts';

export const DONE_MARKER = '@@folio-build-done@@';

/** Builds the site `settings` describe (build.ts then indexes it for search). */
export async function runSiteBuild(settings: SiteSettings): Promise<void> {
  const guard: ContentGuard = { problems: [] };
  try {
    // A store carried from the previous build of the site is kept (build-cache.ts); any other is cleared.
    const carried = adoptCarriedStore(path.resolve(settings.buildRoot));
    // The config is computed here from this build's settings, never loaded from a cached module.
    const config = await roleConfig({ ...settings, carriedCache: carried }, guard);
    const vite = { ...config.vite, plugins: [...(config.vite?.plugins ?? []), nativeAstroInContentSync()] };
    await build({ ...config, vite, configFile: false, mode: 'production', force: !carried });
  } catch (error) {
    if (!guard.problems.length) throw error;
  }
  // What the content check inside the build refused is the failure, however Astro reported it.
  if (guard.problems.length) throw new ContentRefusedError(guard.problems);
}

/** Resolves true when the parent writes "go" on stdin (the content passed its checks), false on EOF. */
function waitForGo(): Promise<boolean> {
  return new Promise((resolve) => {
    let input = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk: string) => {
      input += chunk;
      if (input.includes('\n')) resolve(input.trim() === 'go');
    });
    process.stdin.on('end', () => resolve(false));
  });
}

function reportError(error: unknown): void {
  if (error instanceof ContentRefusedError) {
    for (const problem of error.problems) console.error(`[folio] error: ${formatProblem(problem)}`);
    return;
  }
  const e = error as { message?: string; loc?: { file?: string; line?: number; column?: number } };
  const where = e.loc?.file ? `${e.loc.file}:${e.loc.line ?? 1}:${e.loc.column ?? 1}: ` : '';
  // Every line marked, so the parent keeps all of a multi-line message (an OpenAPI file's problems).
  // Stack frames (Rolldown puts them in its messages) say nothing to an author: left out.
  const lines = `${where}${e.message ?? String(error)}`.split('\n').filter((line) => !/^\s+at /.test(line));
  for (const line of lines) console.error(`[folio] error: ${line}`);
}

/**
 * How long a warm worker waits after a build before it collects its garbage. A build leaves a heap
 * of hundreds of MB behind; collected at the start of the next build it cost ~0.3 s of that build
 * (a tenth of a fast redeploy). Once idle, the collection costs nobody; the wait lets the build's
 * search indexing, which runs right after it, have the machine.
 */
const IDLE_COLLECTION_MS = 1000;

async function runWarm(): Promise<void> {
  let input = '';
  let queue = Promise.resolve();
  // Exposed by warm-worker.ts (--expose-gc).
  const collect = (globalThis as { gc?: () => void }).gc;
  let idleCollection: NodeJS.Timeout | undefined;
  process.stdin.setEncoding('utf8');
  process.stdin.on('end', () => process.exit(0)); // the parent is gone or retired this worker
  process.stdin.on('data', (chunk: string) => {
    input += chunk;
    let newline: number;
    while ((newline = input.indexOf('\n')) >= 0) {
      const line = input.slice(0, newline);
      input = input.slice(newline + 1);
      queue = queue
        .then(() => {
          clearTimeout(idleCollection);
          return runWarmBuild(line);
        })
        .then(() => {
          if (collect) idleCollection = setTimeout(collect, IDLE_COLLECTION_MS);
        });
    }
  });
}

async function runWarmBuild(line: string): Promise<void> {
  let ok = false;
  try {
    const { settings } = JSON.parse(line) as { settings: SiteSettings };
    await runSiteBuild(resolveSiteSettings(settings));
    ok = true;
  } catch (error) {
    reportError(error);
  }
  // The parent retires a worker whose memory grew too far (a big site leaves a big heap behind).
  const status = JSON.stringify({ ok, rss: process.memoryUsage.rss() });
  await new Promise<void>((resolve) => process.stderr.write(`\n${DONE_MARKER}\n`, () => resolve()));
  await new Promise<void>((resolve) => process.stdout.write(`\n${DONE_MARKER} ${status}\n`, () => resolve()));
}

if (import.meta.main) {
  if (process.argv.includes('--warm')) {
    await runWarm();
  } else {
    // Started while the parent still checks the content, so loading Astro overlaps the check;
    // nothing of the content root is read before the parent says go.
    if (!(await waitForGo())) process.exit(3);
    try {
      await runSiteBuild(siteSettings(process.env));
    } catch (error) {
      reportError(error);
      process.exitCode = 1;
    }
  }
}
