// Builds one content root into one static site directory: checks the content, then runs Astro in a
// child process with a scrubbed environment (no service secrets), its own Astro root (so concurrent
// builds never interfere), a time limit, and search indexing. Used by `npm run build:site` and by
// the deployment runner.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { checkContentRoot, SITE_DIRS } from './content-check/check-root.ts';
import { formatProblem, type Problem } from './content-check/check-content.ts';
import { projectDir, siteSrcDir } from './settings.ts';

export interface BuildSiteOptions {
  contentRoot: string;
  outDir: string;
  /** Public address of the site, for canonical links and the sitemap. */
  siteUrl?: string;
  /** Kills the build when over (default 600 s, FOLIO_BUILD_TIMEOUT_S in the service). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Called with each log line as it arrives. */
  onLog?: (line: string) => void;
  /** Runs the Astro step; default: a fresh child process per build (a warm worker is faster). */
  astro?: AstroRunner;
  /**
   * The project's content may hold code (imports of .js/.jsx/.ts/.tsx files in the content root,
   * `export const` components, expressions; React components rendered and hydrated). Such a build
   * always runs in a fresh process of its own, never in a shared warm worker.
   */
  allowCode?: boolean;
}

/** Runs the Astro step of one build in some process, given that build's whole environment. */
export interface AstroRunner {
  start(buildRoot: string, env: NodeJS.ProcessEnv, limits: BuildLimits, emit: (line: string) => void): Child;
}

/** A fresh `build-worker.ts` process per build: slower to start, nothing shared at all. */
export const coldAstro: AstroRunner = {
  start: (buildRoot, env, limits, emit) => startChild([WORKER], buildRoot, env, limits, emit),
};

export type BuildErrorCode = 'content_invalid' | 'no_pages' | 'build_failed' | 'timeout' | 'canceled';

export interface BuildError {
  code: BuildErrorCode;
  /** One line per problem, `file:line:column: message` where a location is known. */
  message: string;
  problems: Problem[];
}

export interface BuildSiteResult {
  ok: boolean;
  log: string[];
  warnings: string[];
  pageCount: number;
  durationMs: number;
  error?: BuildError;
}

export const WORKER = path.join(siteSrcDir, 'build-worker.ts');
/** Pagefind's CLI (it runs the native indexer), writing `<outDir>/pagefind/`. */
const PAGEFIND = path.join(projectDir, 'node_modules/pagefind/lib/runner/bin.cjs');
const BUILDS_DIR = path.join(projectDir, '.folio-builds');

export async function buildSite(options: BuildSiteOptions): Promise<BuildSiteResult> {
  const started = Date.now();
  const contentRoot = path.resolve(options.contentRoot);
  const outDir = path.resolve(options.outDir);
  const log: string[] = [];
  const emit = (line: string) => {
    log.push(line);
    options.onLog?.(line);
  };
  const finish = (error?: BuildError, pageCount = 0): BuildSiteResult => ({
    ok: !error,
    log,
    warnings: log.filter((l) => /\[folio\] warning|\[WARN\]/.test(l)),
    pageCount,
    durationMs: Date.now() - started,
    error,
  });
  const fail = (code: BuildErrorCode, problems: Problem[], message?: string) => {
    const text = message ?? problems.map(formatProblem).join('\n');
    for (const line of text.split('\n')) emit(`error: ${line}`);
    return finish({ code, message: text, problems });
  };

  const rootProblem = (await checkDirectories(contentRoot, outDir)) ?? checkSiteUrl(options.siteUrl);
  if (rootProblem) return fail('content_invalid', [], rootProblem);

  await removeStaleBuildRoots();
  const buildRoot = path.join(BUILDS_DIR, randomUUID());
  await fs.mkdir(path.join(buildRoot, 'tmp'), { recursive: true });
  const limits = buildLimits(options);
  const allowCode = options.allowCode === true;
  const env = workerEnv(buildRoot, contentRoot, outDir, options.siteUrl, allowCode);
  // The worker loads Astro while the content is checked here; it reads no content before "go".
  const worker = (allowCode ? coldAstro : (options.astro ?? coldAstro)).start(buildRoot, env, limits, emit);
  try {
    emit(`checking content in ${contentRoot}${allowCode ? ' (code allowed)' : ''}`);
    const report = await checkContentRoot(contentRoot, { allowCode });
    if (report.problems.length) {
      worker.cancel();
      await worker.done;
      const onlyNoPages = report.problems.every((p) => p.message.startsWith('no pages'));
      return fail(onlyNoPages ? 'no_pages' : 'content_invalid', report.problems);
    }
    emit(`${report.pages.length} page(s), ${report.snippets.length} snippet(s)`);
    worker.go();
    let outcome = await worker.done;
    // Search indexing runs once Astro has exited, so their memory peaks never add up.
    if (outcome === 0) outcome = await startChild([PAGEFIND, '--site', outDir], buildRoot, env, limits, emit, true).done;
    if (outcome !== 0) await emptyDir(outDir); // never leave half a site behind
    if (outcome === 'timeout') return fail('timeout', [], `build took longer than ${Math.round(limits.timeoutMs / 1000)} s and was stopped`);
    if (outcome === 'canceled') return fail('canceled', [], 'build canceled');
    if (outcome !== 0) {
      const problems = errorProblems(log);
      return fail('build_failed', problems, problems.length ? undefined : 'the site build failed; see the log');
    }
    return finish(undefined, report.pages.length);
  } catch (error) {
    worker.cancel();
    await worker.done;
    throw error;
  } finally {
    limits.dispose();
    await fs.rm(buildRoot, { recursive: true, force: true });
  }
}

function checkSiteUrl(siteUrl: string | undefined): string | undefined {
  if (siteUrl === undefined) return undefined;
  const url = URL.canParse(siteUrl) ? new URL(siteUrl) : undefined;
  if (url && (url.protocol === 'https:' || url.protocol === 'http:') && !url.search && !url.hash) return undefined;
  return `site URL ${JSON.stringify(siteUrl)} must be an http(s) address such as https://docs.example.com`;
}

/** Build roots left by a process that died mid-build; a day is far beyond any build's time limit. */
async function removeStaleBuildRoots() {
  const dayAgo = Date.now() - 24 * 3600_000;
  for (const name of await fs.readdir(BUILDS_DIR).catch(() => [] as string[])) {
    const dir = path.join(BUILDS_DIR, name);
    const stat = await fs.lstat(dir).catch(() => undefined);
    if (stat && stat.mtimeMs < dayAgo) await fs.rm(dir, { recursive: true, force: true });
  }
}

async function emptyDir(dir: string) {
  const entries = await fs.readdir(dir).catch(() => [] as string[]);
  await Promise.all(entries.map((e) => fs.rm(path.join(dir, e), { recursive: true, force: true })));
}

async function checkDirectories(contentRoot: string, outDir: string): Promise<string | undefined> {
  const stat = await fs.lstat(contentRoot).catch(() => undefined);
  if (!stat?.isDirectory()) return `content root ${contentRoot} is not a directory`;
  const inside = (child: string, parent: string) => {
    const rel = path.relative(parent, child);
    return !rel || (!rel.startsWith('..') && !path.isAbsolute(rel));
  };
  // The build empties and fills outDir: it must not hold the content, nor sit where the build reads.
  const readDirs = SITE_DIRS.map((d) => path.join(contentRoot, d));
  if (inside(contentRoot, outDir) || readDirs.some((d) => inside(outDir, d))) {
    return `output directory ${outDir} must not contain the content root nor be inside its ${SITE_DIRS.map((d) => `${d}/`).join(', ')}`;
  }
  return undefined;
}

/** The child's whole environment: the build inputs and nothing of the parent's secrets. */
export function workerEnv(buildRoot: string, contentRoot: string, outDir: string, siteUrl?: string, allowCode = false): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: path.join(buildRoot, 'tmp'),
    TMPDIR: path.join(buildRoot, 'tmp'),
    NODE_ENV: 'production',
    ASTRO_TELEMETRY_DISABLED: '1',
    FOLIO_ROLE: 'site',
    FOLIO_CONTENT_ROOT: contentRoot,
    FOLIO_OUT_DIR: outDir,
    FOLIO_BUILD_ROOT: buildRoot,
  };
  if (siteUrl) env.FOLIO_SITE_URL = siteUrl;
  if (allowCode) env.FOLIO_BUILD_ALLOW_CODE = '1';
  return env;
}

export type StopReason = 'timeout' | 'canceled';

/** One time limit and one cancel signal for all the processes of a build. */
export interface BuildLimits {
  timeoutMs: number;
  signal: AbortSignal;
  dispose(): void;
}

function buildLimits(options: BuildSiteOptions): BuildLimits {
  const timeoutMs = options.timeoutMs ?? 600_000;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort('timeout' satisfies StopReason), timeoutMs);
  const onAbort = () => controller.abort('canceled' satisfies StopReason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  return {
    timeoutMs,
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    },
  };
}

export interface Child {
  /** Lets a waiting worker start the build. */
  go(): void;
  /** Stops the process (and its helpers). */
  cancel(): void;
  /** The exit code, or why it was stopped. */
  done: Promise<number | StopReason>;
}

function startChild(
  args: string[],
  buildRoot: string,
  env: NodeJS.ProcessEnv,
  limits: BuildLimits,
  emit: (line: string) => void,
  startNow = false,
): Child {
  const child = spawn(process.execPath, args, {
    cwd: buildRoot,
    env,
    stdio: [startNow ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    detached: true, // own process group, so stopping it stops Astro's and Pagefind's helpers too
  });
  let stopped: StopReason | undefined;
  const stop = (why: StopReason) => {
    stopped ??= why;
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  const onAbort = () => stop(limits.signal.reason === 'timeout' ? 'timeout' : 'canceled');
  limits.signal.addEventListener('abort', onAbort, { once: true });
  if (limits.signal.aborted) onAbort();
  child.stdin?.on('error', () => undefined); // the worker may be gone already
  for (const stream of [child.stdout, child.stderr]) if (stream) lineReader(stream, emit);
  const done = new Promise<number | StopReason>((resolve) => {
    child.on('close', (code) => {
      limits.signal.removeEventListener('abort', onAbort);
      resolve(stopped ?? code ?? 1);
    });
  });
  return {
    go: () => child.stdin?.end('go\n'),
    cancel: () => stop('canceled'),
    done,
  };
}

/** Calls `onLine` with each non-blank line of a child's output, without colour codes or trailing space. */
export function lineReader(stream: NodeJS.ReadableStream, onLine: (line: string) => void) {
  let rest = '';
  const emit = (line: string) => {
    const clean = line.replace(/\x1b\[[0-9;]*m/g, '').trimEnd();
    if (clean) onLine(clean);
  };
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    lines.forEach(emit);
  });
  stream.on('end', () => rest && emit(rest));
}

/** The failure lines of the worker, with their file:line:column when Astro gave one. */
function errorProblems(log: string[]): Problem[] {
  return log
    .filter((l) => l.startsWith('[folio] error: '))
    .map((l) => {
      const text = l.slice('[folio] error: '.length);
      const m = /^(.+?):(\d+):(\d+): ([\s\S]*)$/.exec(text);
      return m
        ? { file: m[1] ?? '', line: Number(m[2]), column: Number(m[3]), message: m[4] ?? '' }
        : { file: '', line: 0, column: 0, message: text };
    });
}
