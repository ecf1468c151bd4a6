// The child-process entry of a site build: Astro's programmatic build() of one content root.
// Inputs come only from FOLIO_* variables (see build.ts, which scrubs the rest and indexes the
// output for search afterwards).
//
// Two modes:
// - cold (default): the parent spawns it, checks the content meanwhile, then writes "go\n" to its
//   stdin; it runs one build with the environment it was started with and exits.
// - warm (`--warm`): a long-lived worker that loads Astro once and runs builds one at a time. Each
//   build's inputs arrive as one JSON line on stdin (`{"env": {...}}`); the worker replaces its
//   per-build variables with exactly those (nothing of an earlier build survives), runs the build
//   in that build's own directory, then writes DONE_MARKER on stdout and stderr, so the parent
//   knows every line of that build has arrived. It exits when stdin closes.
import { build } from 'astro';
import { roleConfig } from './astro-config.ts';
import { ContentRefusedError, type ContentGuard } from './content-check/build-check.ts';
import { formatProblem } from './content-check/check-content.ts';
import { projectDir } from './settings.ts';

export const DONE_MARKER = '@@folio-build-done@@';

/** Builds the site described by the FOLIO_* environment (build.ts then indexes it for search). */
export async function runSiteBuild(): Promise<void> {
  const guard: ContentGuard = { problems: [] };
  try {
    // The config is computed here from this build's environment, never loaded from a cached module.
    await build({ ...(await roleConfig(guard)), configFile: false, mode: 'production', force: true });
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

/** The variables a build may set; all of them are cleared before each warm build. */
const PER_BUILD = /^(FOLIO_|HOME$|TMPDIR$)/;

function useBuildEnv(env: Record<string, string>): void {
  for (const name of Object.keys(process.env)) if (PER_BUILD.test(name)) delete process.env[name];
  for (const [name, value] of Object.entries(env)) if (PER_BUILD.test(name)) process.env[name] = value;
  process.env.FOLIO_ROLE = 'site';
}

async function runWarm(): Promise<void> {
  let input = '';
  let queue = Promise.resolve();
  process.stdin.setEncoding('utf8');
  process.stdin.on('end', () => process.exit(0)); // the parent is gone or retired this worker
  process.stdin.on('data', (chunk: string) => {
    input += chunk;
    let newline: number;
    while ((newline = input.indexOf('\n')) >= 0) {
      const line = input.slice(0, newline);
      input = input.slice(newline + 1);
      queue = queue.then(() => runWarmBuild(line));
    }
  });
}

async function runWarmBuild(line: string): Promise<void> {
  let ok = false;
  try {
    const { env } = JSON.parse(line) as { env: Record<string, string> };
    useBuildEnv(env);
    process.chdir(env.FOLIO_BUILD_ROOT ?? projectDir);
    await runSiteBuild();
    ok = true;
  } catch (error) {
    reportError(error);
  } finally {
    useBuildEnv({});
    process.chdir(projectDir);
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
      await runSiteBuild();
    } catch (error) {
      reportError(error);
      process.exitCode = 1;
    }
  }
}
