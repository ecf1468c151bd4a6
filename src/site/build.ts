// Builds one content root into one static site directory: checks the content, then runs Astro in a
// child process (in the build sandbox, sandbox.ts, unless it is off) with a scrubbed environment
// (no service secrets), its own Astro root (so concurrent builds never interfere), a time limit,
// and search indexing; the finished site is then moved into the output directory. Log lines and
// errors name files relative to the content root only (tenant-paths.ts). Used by
// `npm run build:site` and by the deployment runner.
import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { checkContentRoot, SITE_DIRS } from './content-check/check-root.ts';
import type { DocsConfig } from './docs-config.ts';
import { REDIRECTS_FILE, redirectsSizeProblem, type RedirectsFile } from './redirects-file.ts';
import { formatProblem, type Problem } from './content-check/check-content.ts';
import { writeCheckedFile } from './content-check/checked-files.ts';
import {
  DEFAULT_SANDBOX,
  folioMounts,
  giveToSandbox,
  copyIntoSandbox,
  SANDBOX_CONTENT_ROOT,
  SANDBOX_INPUT_DIR,
  SANDBOX_PATH,
  sandboxAvailable,
  sandboxLaunch,
  sandboxUid,
  takeFromSandbox,
  type Launch,
  type BuildSandbox,
  type Mount,
  type SandboxOptions,
} from './sandbox.ts';
import { LAST_UPDATED_FILE, repoRoot, siteSrcDir, type PageHistory } from './settings.ts';
import { contentLayout, type ContentLayout } from './layout.ts';
import { MAX_OUTPUT_ENTRIES } from './tenant-limits.ts';
import { constants as fsConstants, createWriteStream, opendirSync, type Dir, type Dirent } from 'node:fs';
import { promisify } from 'node:util';
import { pipeline } from 'node:stream/promises';
import { listServerDirs, scrubPaths, type PathView } from './tenant-paths.ts';
import { linkTree } from './link-tree.ts';
import { BUILD_FILE_FLAGS } from '../hosting/site-files.ts';
import { warningSummary } from './warning-summary.ts';
import { startProgress } from './build-progress.ts';
import { keepCache, takeCache } from './build-cache.ts';
import { replaceShards, searchJobEnv, SEARCH_INDEX_WORKER } from './search-index.ts';
import { takeReuseCopy } from './reuse-copy.ts';
import { SEARCH_SHARD_PAGES } from './search-shards.ts';

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
  /** How often a line of progress goes to the log (build-progress.ts; default every 5 s). */
  progressIntervalMs?: number;
  /** Runs the Astro step; default: a fresh child process per build (a warm worker is faster). */
  astro?: AstroRunner;
  /** Whether the build runs in the sandbox (default: `auto`, bubblewrap from PATH, the default limits). */
  sandbox?: BuildSandbox;
  /**
   * The project's content may hold code (imports of .js/.jsx/.ts/.tsx files in the content root,
   * `export const` components, expressions; React components rendered and hydrated). The sandbox is
   * required whatever `sandbox.mode` says (the build fails with `sandbox_unavailable` without it),
   * and the build always gets a fresh process of its own, never a warm worker that would later
   * build another org's site.
   */
  allowCode?: boolean;
  /** More server directories that must never appear in the log or the error (the data dir). */
  hiddenDirs?: string[];
  /** What the pages show from the project's repository: "Edit this page" and last-updated dates. */
  pageHistory?: PageHistory;
  /**
   * A fast redeploy (docs/decisions.md#fast-redeploys): only these page files (relative to the
   * content root; every other input the same as the previous build's) are rendered, over hard links
   * to the previous build's output (never changed: it may be live; a file replaced in the new
   * output is replaced by a rename, never written into). When the partial build's assets are not
   * all in the previous build the result is the error `reuse_refused` and the output is left empty.
   */
  reuse?: { previousOutDir: string; pageFiles: string[] };
  /**
   * Astro's cache carried from one sandboxed build of a site to the next (docs/decisions.md, "A
   * one-page change of a 25,000-page site"): a succeeded build keeps its cache as `keepAs` in
   * `site`'s slot (replacing what the slot held), and a build given `from` starts with that cache,
   * so its content sync reads only the changed pages. Names are the caller's, never a tenant's.
   */
  carryCache?: { site: string; from?: string; keepAs: string };
  /** Pages per search index shard (search-shards.ts; default SEARCH_SHARD_PAGES). */
  searchShardPages?: number;
}

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
  /** Removes the build's directories once it is over. */
  cleanup(): Promise<void>;
}

/** Runs the Astro step of one build in some process. */
export interface AstroRunner {
  start(job: BuildJob, limits: BuildLimits, emit: (line: string) => void): Promise<StartedBuild>;
}

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
        await removeBuildDir(buildRoot);
        await removeBuildDir(inputDir);
      },
    };
  },
};

/** `reuse_refused`: a fast redeploy's partial build cannot be merged into the previous build (the caller builds in full). */
export type BuildErrorCode = 'content_invalid' | 'no_pages' | 'build_failed' | 'timeout' | 'canceled' | 'sandbox_unavailable' | 'reuse_refused';

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
  /** Milliseconds spent in each step that ran (the deployment log prints them). */
  phases: BuildPhases;
  /**
   * A fast redeploy: every file it wrote over the previous build's (relative to the output, "/"
   * separators); all the others are the previous build's, linked. Absent for a full build.
   */
  written?: string[];
  error?: BuildError;
}

/**
 * The steps of a build, timed: the content check, the sandbox's copy of the content, Astro, a fast
 * redeploy's links to the previous build (made while Astro runs), Pagefind, and moving the site
 * into the output directory.
 */
export type BuildPhases = Partial<Record<'check' | 'sandbox input' | 'carry cache' | 'astro' | 'link previous build' | 'pagefind' | 'output', number>>;

export const WORKER = path.join(siteSrcDir, 'build-worker.ts');
const execFileAsync = promisify(execFile);
/** Where build roots live: inside the install, so Astro resolves node_modules from them. */
export const BUILDS_DIR = path.join(repoRoot, '.folio-builds');

/** Where sites' carried Astro caches wait for their next build (build-cache.ts; beside the build roots, for renames). */
const CACHES_DIR = path.join(BUILDS_DIR, 'caches');

/** Where a build writes its site: inside its own root, as Astro moves files from one to the other. */
export const buildOutDir = (buildRoot: string) => path.join(buildRoot, 'out');

/** Where the content goes in a host directory mounted at SANDBOX_INPUT_DIR. */
export const sandboxInput = (inputDir: string) => path.join(inputDir, path.basename(SANDBOX_CONTENT_ROOT));

/** A fresh, empty build root under `parent`, with its output and private tmp dirs. */
export async function makeBuildRoot(parent: string): Promise<string> {
  const buildRoot = path.join(parent, randomUUID());
  await fs.mkdir(path.join(buildRoot, 'tmp'), { recursive: true });
  await fs.mkdir(buildOutDir(buildRoot));
  return buildRoot;
}

/** Tells tenants the sandbox is missing without naming anything of the server. */
export const SANDBOX_UNAVAILABLE_MESSAGE = 'builds must run in the build sandbox, which is not available on this server; its operator must install bubblewrap';

/** The sandbox a build uses, undefined for none, or an error when it must have one and cannot. */
export async function chooseSandbox(settings: BuildSandbox | undefined, allowCode: boolean): Promise<SandboxOptions | undefined | Error> {
  const mode = settings?.mode ?? 'auto';
  const sandbox: SandboxOptions = {
    bwrapPath: settings?.bwrapPath ?? DEFAULT_SANDBOX.bwrapPath,
    limits: { ...DEFAULT_SANDBOX.limits, ...settings?.limits },
  };
  if (mode === 'off' && !allowCode) return undefined;
  if ((await sandboxAvailable(sandbox)).ok) return sandbox;
  return mode === 'auto' && !allowCode ? undefined : new Error(SANDBOX_UNAVAILABLE_MESSAGE);
}

export async function buildSite(options: BuildSiteOptions): Promise<BuildSiteResult> {
  const started = Date.now();
  const contentRoot = path.resolve(options.contentRoot);
  const outDir = path.resolve(options.outDir);
  const log: string[] = [];
  const phases: BuildPhases = {};
  const timed = async <T>(phase: keyof BuildPhases, work: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    progress.phase(phase);
    try {
      return await work();
    } finally {
      phases[phase] = (phases[phase] ?? 0) + performance.now() - start;
    }
  };
  // Tenants read the log and the error: server paths never reach them.
  const view: PathView = { contentRoots: [contentRoot, SANDBOX_CONTENT_ROOT], hidden: [...(options.hiddenDirs ?? []), repoRoot, SANDBOX_INPUT_DIR], hiddenRelative: [`${path.basename(BUILDS_DIR)}/`] };
  let logBytes = 0;
  let linesLeftOut = 0;
  let errorsPastBudget = 0;
  const keep = (line: string) => {
    log.push(line);
    options.onLog?.(line);
  };
  const emit = (line: string) => {
    const clean = scrubPaths(line, view);
    progress.line(clean);
    // A build's output is tenant-made: past the budget its lines are counted, not kept, so a page
    // printing for the whole build time fills neither the server's memory nor its disk.
    logBytes += Buffer.byteLength(clean) + 1;
    if (logBytes <= MAX_LOG_BYTES) return keep(clean);
    if (clean.startsWith(FOLIO_ERROR) && errorsPastBudget < MAX_ERRORS_PAST_BUDGET) {
      errorsPastBudget++;
      return keep(clean);
    }
    linesLeftOut++;
  };
  let written: string[] | undefined;
  // Its clock starts with the first phase: a build refused before it writes none.
  const progress = startProgress(emit, options.progressIntervalMs);
  const finish = (error?: BuildError, pageCount = 0): BuildSiteResult => {
    progress.stop();
    if (linesLeftOut > 0) keep(`[folio] warning: the build printed more than ${MAX_LOG_BYTES / 2 ** 20} MiB; ${linesLeftOut} later line${linesLeftOut === 1 ? ' was' : 's were'} left out of this log`);
    const warnings = log.filter((l) => /\[folio\] warning|\[WARN\]/.test(l));
    // Every warning is a line of the log above; the log ends with them grouped by kind (a few lines).
    for (const line of warningSummary(warnings, 'each one is a line of this log')) keep(scrubPaths(line, view));
    return { ok: !error, log, warnings, pageCount, durationMs: Date.now() - started, phases, error, ...(written && !error ? { written } : {}) };
  };
  const fail = (code: BuildErrorCode, problems: Problem[], message?: string) => {
    const text = scrubPaths(message ?? problems.map(formatProblem).join('\n'), view);
    // Folio's own lines, a bounded list: kept past the output budget too.
    for (const line of text.split('\n')) keep(`error: ${line}`);
    return finish({ code, message: text, problems: problems.map((p) => ({ ...p, file: scrubPaths(p.file, view) })) });
  };

  const rootProblem = (await checkDirectories(contentRoot, outDir, contentLayout(contentRoot))) ?? checkSiteUrl(options.siteUrl);
  if (rootProblem) return fail('content_invalid', [], rootProblem);
  const sandbox = await chooseSandbox(options.sandbox, options.allowCode ?? false);
  if (sandbox instanceof Error) return fail('sandbox_unavailable', [], sandbox.message);

  await removeStaleBuildRoots();
  const limits = buildLimits(options);
  // Code runs only in a process of its own, never in a warm worker that outlives this build.
  const runner = options.allowCode ? coldAstro : (options.astro ?? coldAstro);
  // The worker loads Astro while the content is checked here; it reads no content before "go".
  const reuse = options.reuse;
  const layout = contentLayout(contentRoot);
  const onlyPages = reuse?.pageFiles.map((file) => (layout.pagesDir ? file.slice(layout.pagesDir.length + 1) : file).replace(/\.mdx?$/, ''));
  const worker = await runner.start({ contentRoot, siteUrl: options.siteUrl, sandbox, allowCode: options.allowCode, pageHistory: options.pageHistory, onlyPages }, limits, emit);
  view.base = worker.buildRoot;
  view.contentRoots.push(worker.input);
  await listServerDirs(view);
  try {
    emit(sandbox ? 'checking content (the build runs in the sandbox)' : 'checking content (the build runs without a sandbox)');
    // In the check processes (check-pool.ts), never on this process's event loop.
    const report = await timed('check', () => checkContentRoot(contentRoot, { allowCode: options.allowCode, onlyPages: reuse?.pageFiles }));
    // The server keeps the redirects compiled while the site is live: more than it keeps is refused here, not dropped there.
    const redirectsProblem = redirectsSizeProblem(report.config?.redirects ?? []);
    if (redirectsProblem) report.problems.push({ file: report.files.layout.configFile, line: 1, column: 1, message: `redirects: ${redirectsProblem}` });
    // Keys of docs.json Folio ignores, components nobody defines, OpenAPI leniencies: a line each
    // in the log, never a failure; logged when the build fails too, so that one run says everything.
    for (const warning of report.warnings) emit(`[folio] warning: ${formatProblem(warning)}`);
    if (report.problems.length) {
      worker.cancel();
      await worker.done;
      const onlyNoPages = report.problems.every((p) => p.message.startsWith('no pages'));
      return fail(onlyNoPages ? 'no_pages' : 'content_invalid', report.problems);
    }
    progress.total(report.pages.length);
    emit(`${report.pages.length} page(s), ${report.snippets.length} snippet(s)${report.files.layout.kind === 'mintlify' ? ` (Mintlify layout, ${report.files.assets.length} static file(s))` : ''}`);
    if (sandbox) {
      // The sandbox reads a copy its uid can read, whatever the modes of the original (links where it already can).
      await timed('sandbox input', () => copyIntoSandbox(contentRoot, worker.input, worker.uid, [BUILDS_DIR, outDir]));
    }
    // What the check passed: the build's own check skips the walk of exactly that text (checked-files.ts).
    if (!options.allowCode) await writeCheckedFile(worker.buildRoot, report.checked);
    if (options.pageHistory?.lastUpdated) {
      // A file, not a variable: thousands of pages' dates would pass the limit of one variable.
      await fs.writeFile(path.join(worker.buildRoot, LAST_UPDATED_FILE), JSON.stringify(options.pageHistory.lastUpdated), { mode: 0o644 });
    }
    const carry = sandbox && options.carryCache;
    if (carry?.from) {
      const carried = await timed('carry cache', () => takeCache(CACHES_DIR, carry.site, carry.from!, worker.buildRoot, worker.uid));
      if (carried) emit('content cache: the previous build\'s, so only changed pages are read');
    }
    worker.go();
    // A fast redeploy: the previous build's files are linked into the output while Astro renders
    // the changed pages (docs/decisions.md#fast-redeploys); awaited below, whatever Astro's outcome.
    const linking = reuse && timed('link previous build', async () => {
      // Its reuse copy whole when it has one (one rename), else its files one by one.
      if (await takeReuseCopy(reuse.previousOutDir, outDir)) return emit('previous build: its reuse copy taken whole (no file linked now)');
      await linkTree(reuse.previousOutDir, outDir);
    });
    linking?.catch(() => undefined);
    let outcome = await timed('astro', () => worker.done);
    const shardPages = options.searchShardPages ?? SEARCH_SHARD_PAGES;
    let changedPages: string[] = [];
    if (linking) {
      await linking.catch(async (error: unknown) => {
        await emptyDir(outDir);
        throw error;
      });
      if (outcome !== 0) await emptyDir(outDir);
    }
    if (outcome === 0 && reuse) {
      // The changed pages' outputs over the links to the previous build, then the search index
      // over the whole site; the partial output is taken and checked before anything reads it.
      try {
        const partial = await takeOutput(buildOutDir(worker.buildRoot));
        try {
          if (partial.problem) {
            await emptyDir(outDir);
            return fail('build_failed', [], partial.problem);
          }
          const refused = await reuseRefusal(partial.dir, reuse.previousOutDir);
          if (refused) {
            await emptyDir(outDir);
            return finish({ code: 'reuse_refused', message: refused, problems: [] });
          }
          // The pages the partial build wrote: only the search shards holding them are indexed again.
          written = await listFiles(partial.dir);
          changedPages = written.filter((rel) => rel.endsWith('.html'));
          await timed('output', () => mergeInto(partial.dir, outDir));
        } finally {
          await removeBuildDir(partial.dir);
        }
        // The indexing reads the merged site read-only and writes the changed shards into the build root.
        const index = path.join(worker.buildRoot, PAGEFIND_DIR);
        const site = sandbox ? SANDBOX_SITE_DIR : outDir;
        const env = { ...workerEnv(worker.buildRoot, worker.contentRoot, site, options.siteUrl, !!sandbox, options.allowCode), ...searchJobEnv({ site, out: index, shardPages, changed: changedPages }) };
        const launch = buildLaunch([process.execPath, SEARCH_INDEX_WORKER], worker.buildRoot, env, sandbox, [{ from: worker.buildRoot, writable: true }, { from: outDir, at: SANDBOX_SITE_DIR }], worker.uid);
        outcome = await timed('pagefind', () => startProcess(launch, limits, emit, true).done);
        if (outcome === 0) {
          const exists = await fs.lstat(index).catch(() => undefined);
          if (!exists) return fail('build_failed', [], 'the search index was not written');
          const taken = await takeOutput(index);
          try {
            if (taken.problem) {
              await emptyDir(outDir);
              return fail('build_failed', [], taken.problem);
            }
            await timed('output', async () => {
              written!.push(...(await listFiles(taken.dir)).map((rel) => `${PAGEFIND_DIR}/${rel}`), REDIRECTS_FILE);
              await replaceShards(taken.dir, path.join(outDir, PAGEFIND_DIR), moveInto, removeBuildDir);
              await writeRedirects(outDir, report.config);
            });
          } finally {
            await removeBuildDir(taken.dir);
          }
        }
      } catch (error) {
        await emptyDir(outDir);
        throw error;
      }
      if (outcome !== 0) await emptyDir(outDir);
    } else {
      // Search indexing runs once Astro has exited, so their memory peaks never add up.
      if (outcome === 0) {
        const site = buildOutDir(worker.buildRoot);
        const env = { ...workerEnv(worker.buildRoot, worker.contentRoot, site, options.siteUrl, !!sandbox, options.allowCode), ...searchJobEnv({ site, out: path.join(site, PAGEFIND_DIR), shardPages }) };
        const launch = buildLaunch([process.execPath, SEARCH_INDEX_WORKER], worker.buildRoot, env, sandbox, [{ from: worker.buildRoot, writable: true }], worker.uid);
        outcome = await timed('pagefind', () => startProcess(launch, limits, emit, true).done);
      }
      if (outcome === 0) {
        const output = performance.now();
        try {
          // `npm run build:site -- <root> <out>` may name an output directory that does not exist yet.
          await fs.mkdir(outDir, { recursive: true });
          const site = await takeOutput(buildOutDir(worker.buildRoot));
          try {
            if (site.problem) return fail('build_failed', [], site.problem);
            await mergeInto(site.dir, outDir);
          } finally {
            await removeBuildDir(site.dir);
          }
          // Read from the sandbox's copy when there is one: it holds only regular files.
          await copyStaticFiles(sandbox ? worker.input : contentRoot, report.files.assets, outDir, emit);
          // Last: no static file of the repository may stand in for the redirects file.
          await writeRedirects(outDir, report.config);
        } catch (error) {
          await emptyDir(outDir); // never leave half a site behind
          throw error;
        } finally {
          phases.output = performance.now() - output;
        }
      }
    }
    if (outcome === 'timeout') return fail('timeout', [], `build took longer than ${Math.round(limits.timeoutMs / 1000)} s and was stopped`);
    if (outcome === 'canceled') return fail('canceled', [], 'build canceled');
    if (outcome !== 0) {
      const problems = errorProblems(log);
      return fail('build_failed', problems, problems.length ? undefined : 'the site build failed; see the log');
    }
    if (carry) await timed('carry cache', () => keepCache(CACHES_DIR, carry.site, carry.keepAs, worker.buildRoot, removeBuildDir));
    return finish(undefined, report.pages.length);
  } catch (error) {
    worker.cancel();
    await worker.done;
    throw error;
  } finally {
    progress.stop();
    limits.dispose();
    await worker.cleanup();
  }
}

/**
 * Stores the site's redirects with its output (REDIRECTS_FILE), from the docs.json this process
 * validated, replacing whatever the build may have put there; the hosting layer compiles them once.
 */
async function writeRedirects(outDir: string, config: DocsConfig | undefined): Promise<void> {
  const file: RedirectsFile = { rules: config?.redirects ?? [] };
  if (config?.errors?.['404']?.redirect) file.notFoundToHome = true;
  const abs = path.join(outDir, REDIRECTS_FILE);
  // `_folio/` holds other build files too; only a non-directory in its place, or whatever sits at the file's name, goes.
  const dir = await fs.lstat(path.dirname(abs)).catch(() => undefined);
  if (dir && !dir.isDirectory()) await fs.rm(path.dirname(abs), { force: true });
  await fs.mkdir(path.dirname(abs), { recursive: true });
  await fs.rm(abs, { recursive: true, force: true });
  await fs.writeFile(abs, JSON.stringify(file));
}

/** How to start one step of a build (`command`: program first): in the sandbox with the install, `mounts` and `uid`, or as a plain child. */
function buildLaunch(command: string[], buildRoot: string, env: Record<string, string>, sandbox: SandboxOptions | undefined, mounts: Mount[], uid: number): Launch {
  if (!sandbox) return { file: command[0]!, args: command.slice(1), env, cwd: buildRoot };
  return sandboxLaunch({ command, mounts: [...folioMounts(), ...mounts], env, cwd: buildRoot, uid }, sandbox);
}

/**
 * Takes a finished build's output (or search index) out of its build root (writable inside the
 * sandbox) and checks it. Code in the sandbox may have replaced the directory, or anything at any
 * depth in it, with a link to anything on the host, a FIFO or a socket; a link there would be
 * followed later by whatever the server does with the site (the static files copied into it, the
 * redirects file written, files served or uploaded), a FIFO would block the thread that opens it.
 * So the output is first renamed into BUILDS_DIR, which no sandbox can write (a rename moves a link
 * itself, never its target; the build's processes have all exited), and then walked: `problem`
 * says why it cannot be a site (outputProblem). The caller removes `dir` (removeBuildDir) when done.
 */
async function takeOutput(from: string): Promise<{ dir: string; problem?: string }> {
  const dir = path.join(BUILDS_DIR, `${randomUUID()}.out`);
  await fs.rename(from, dir);
  const stat = await fs.lstat(dir);
  if (!stat.isDirectory()) return { dir, problem: `the build replaced its output directory with a link or special file: refused` };
  return { dir, problem: await outputProblem(dir) };
}

/** Longest path (in characters, relative to the output) a site's file may have: no real site comes near. */
export const MAX_OUTPUT_PATH = 1024;

/** Entries the walk of an output reads between two turns of the event loop (it runs in the server). */
const OUTPUT_WALK_SLICE = 2000;

/**
 * Why the tree at `dir` cannot be published as a site, or undefined: everything in it must be a
 * regular file or a directory (never a link, FIFO, socket or device), at a path of at most
 * MAX_OUTPUT_PATH characters (a deeper tree would pass the system's path limit on the way), and at
 * most MAX_OUTPUT_ENTRIES of them. Walked with a list, not recursion, each directory read once as
 * a stream (a build may put millions of names in one): linear in the size of the tree. Each
 * directory is taken from the sandbox (takeFromSandbox) before it is read, so what the walk saw is
 * what stays, whatever still runs in the sandbox. The file system is asked synchronously, the event
 * loop getting its turn every OUTPUT_WALK_SLICE entries: a site has a folder per page, and a
 * request to the thread pool for each step of each folder cost more than the steps themselves.
 */
export async function outputProblem(dir: string): Promise<string | undefined> {
  const folders = [''];
  let count = 0;
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    let handle: Dir;
    try {
      // Its parents were taken before it (the walk goes down), so its path holds no link.
      takeFromSandbox(path.join(dir, folder));
      handle = opendirSync(path.join(dir, folder));
    } catch {
      return `the build's output has a folder the server cannot read at ${JSON.stringify(folder || '.')}: refused`;
    }
    try {
      for (let entry = handle.readSync(); entry; entry = handle.readSync()) {
        const rel = folder ? `${folder}/${entry.name}` : entry.name;
        if (++count > MAX_OUTPUT_ENTRIES) return `the build's output holds more than ${MAX_OUTPUT_ENTRIES} files and folders: refused`;
        if (rel.length > MAX_OUTPUT_PATH) return `the build's output has a path longer than ${MAX_OUTPUT_PATH} characters (${JSON.stringify(`${rel.slice(0, 80)}…`)}): refused`;
        if (entry.isDirectory()) folders.push(rel);
        else if (!entry.isFile()) return `the build's output holds ${specialKind(entry)} at ${JSON.stringify(rel)}; a site holds only files and folders: refused`;
        if (count % OUTPUT_WALK_SLICE === 0) await new Promise(setImmediate);
      }
    } finally {
      handle.closeSync();
    }
  }
  return undefined;
}

/** What a directory entry that is neither a file nor a directory is, in words. */
function specialKind(entry: Dirent): string {
  if (entry.isSymbolicLink()) return 'a symbolic link';
  if (entry.isFIFO()) return 'a FIFO';
  if (entry.isSocket()) return 'a socket';
  return 'a device';
}

/**
 * Removes a directory a build wrote into, however deep: fs.rm stops at the system's path limit (a
 * build can nest folders far beyond it), and so does link-tree.ts's removeTree once it runs out of
 * file descriptors (one per level); GNU rm walks any depth relative to each directory. None of
 * them follows a link.
 */
export async function removeBuildDir(dir: string): Promise<void> {
  await fs.rm(dir, { recursive: true, force: true }).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENAMETOOLONG') throw error;
    await execFileAsync('rm', ['-rf', '--one-file-system', '--', dir]);
  });
}

/**
 * Moves the files and directories of `from` (checked by takeOutput) into `to`: a directory already
 * in `to` is merged into, anything else there is replaced by a rename (which replaces a hard link
 * to a kept build's file, never the file it shares).
 */
async function mergeInto(from: string, to: string): Promise<void> {
  for (const entry of await fs.readdir(from, { withFileTypes: true })) {
    if (!entry.isFile() && !entry.isDirectory()) continue;
    const source = path.join(from, entry.name);
    const dest = path.join(to, entry.name);
    const existing = await fs.lstat(dest).catch(() => undefined);
    if (existing?.isDirectory() && entry.isDirectory()) {
      await mergeInto(source, dest);
      continue;
    }
    if (existing?.isDirectory()) await fs.rm(dest, { recursive: true, force: true });
    await moveInto(source, dest);
  }
}

/** A rename, or a copy when `from` and `to` are on two filesystems. */
async function moveInto(from: string, to: string): Promise<void> {
  await fs.rename(from, to).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EXDEV') throw error;
    await fs.cp(from, to, { recursive: true, verbatimSymlinks: true });
  });
}

/** The folder of a site's search index (Pagefind's). */
const PAGEFIND_DIR = 'pagefind';

/** Where a fast redeploy's Pagefind step sees the merged site in the sandbox (read-only). */
const SANDBOX_SITE_DIR = '/site';

/**
 * Why a fast redeploy's partial output cannot go over the previous build, or undefined when it
 * can: every asset it emitted must be in the previous build with the same bytes, and each page it
 * rendered must use the same assets as before (a page that starts or stops using a component's
 * script changes what a full build emits).
 */
async function reuseRefusal(partial: string, previous: string): Promise<string | undefined> {
  const files = await listFiles(partial);
  for (const rel of files) {
    if (!rel.startsWith('_astro/')) continue;
    // The previous build may predate the check of build output (takeOutput): read as the site handler reads.
    const [ours, theirs] = await Promise.all([fs.readFile(path.join(partial, rel)), fs.readFile(path.join(previous, rel), { flag: BUILD_FILE_FLAGS }).catch(() => undefined)]);
    if (!theirs?.equals(ours)) return `the asset /${rel} is new`;
  }
  const assets = (html: string) => [...new Set(html.match(/\/_astro\/[^"'\s)>]+/g) ?? [])].sort().join(' ');
  for (const rel of files) {
    if (!rel.endsWith('.html')) continue;
    const before = await fs.readFile(path.join(previous, rel), { encoding: 'utf8', flag: BUILD_FILE_FLAGS }).catch(() => undefined);
    if (before === undefined) return `/${rel} is new`;
    if (assets(before) !== assets(await fs.readFile(path.join(partial, rel), 'utf8'))) return `/${rel} uses other assets than before`;
  }
  return undefined;
}

/** Every regular file under `dir`, relative to it with "/" separators. */
async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listFiles(dir, rel)));
    else if (entry.isFile()) out.push(rel);
  }
  return out;
}

/**
 * Copies the static files of a Mintlify-layout root (listed by layout.ts: regular files only, no
 * dot files, no settings, no ignored files) into the site at their own paths. Never follows a link
 * (O_NOFOLLOW), and never replaces a file the build wrote (a page, the sitemap, the search index):
 * such a file is left out with a warning.
 */
async function copyStaticFiles(from: string, assets: string[], outDir: string, emit: (line: string) => void) {
  for (const file of assets) {
    const dest = path.join(outDir, ...file.split('/'));
    let source: fs.FileHandle | undefined;
    try {
      source = await fs.open(path.join(from, ...file.split('/')), fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW);
      if (!(await source.stat()).isFile()) continue;
      await fs.mkdir(path.dirname(dest), { recursive: true });
      await pipeline(source.createReadStream({ autoClose: false }), createWriteStream(dest, { flags: 'wx' }));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' || code === 'ENOTDIR') emit(`[folio] warning: ${file}:1:1: not served: the site already has a file at /${file}`);
      else if (code === 'ELOOP' || code === 'ENOENT') continue; // a link, or left out of the sandbox's copy
      else throw error;
    } finally {
      await source?.close();
    }
  }
}

function checkSiteUrl(siteUrl: string | undefined): string | undefined {
  if (siteUrl === undefined) return undefined;
  const url = URL.canParse(siteUrl) ? new URL(siteUrl) : undefined;
  if (url && (url.protocol === 'https:' || url.protocol === 'http:') && !url.search && !url.hash) return undefined;
  return `site URL ${JSON.stringify(siteUrl)} must be an http(s) address such as https://docs.example.com`;
}

/** Directories under BUILDS_DIR in use for longer than a build (a warm worker's): never stale. */
export const liveBuildDirs = new Set<string>();

/** Build roots left by a process that died mid-build; a day is far beyond any build's time limit. */
async function removeStaleBuildRoots() {
  const dayAgo = Date.now() - 24 * 3600_000;
  for (const name of await fs.readdir(BUILDS_DIR).catch(() => [] as string[])) {
    const dir = path.join(BUILDS_DIR, name);
    if (liveBuildDirs.has(dir) || dir === CACHES_DIR) continue;
    const stat = await fs.lstat(dir).catch(() => undefined);
    if (stat && stat.mtimeMs < dayAgo) await removeBuildDir(dir);
  }
}

async function emptyDir(dir: string) {
  const entries = await fs.readdir(dir).catch(() => [] as string[]);
  await Promise.all(entries.map((e) => fs.rm(path.join(dir, e), { recursive: true, force: true })));
}

async function checkDirectories(contentRoot: string, outDir: string, layout: ContentLayout): Promise<string | undefined> {
  const stat = await fs.lstat(contentRoot).catch(() => undefined);
  if (!stat?.isDirectory()) return `content root ${contentRoot} is not a directory`;
  const inside = (child: string, parent: string) => {
    const rel = path.relative(parent, child);
    return !rel || (!rel.startsWith('..') && !path.isAbsolute(rel));
  };
  // The build empties and fills outDir: it must not hold the content, nor sit where the build reads.
  if (layout.kind === 'mintlify') {
    // Mintlify's layout reads the whole root.
    if (inside(contentRoot, outDir) || inside(outDir, contentRoot)) return `output directory ${outDir} must not contain the content root nor be inside it`;
    return undefined;
  }
  const readDirs = SITE_DIRS.map((d) => path.join(contentRoot, d));
  if (inside(contentRoot, outDir) || readDirs.some((d) => inside(outDir, d))) {
    return `output directory ${outDir} must not contain the content root nor be inside its ${SITE_DIRS.map((d) => `${d}/`).join(', ')}`;
  }
  return undefined;
}

/** The child's whole environment: the build inputs and nothing of the parent's secrets. */
export function workerEnv(buildRoot: string, contentRoot: string, outDir: string, siteUrl?: string, sandboxed = false, allowCode = false, pageHistory?: PageHistory): Record<string, string> {
  const env: Record<string, string> = {
    PATH: sandboxed ? SANDBOX_PATH : (process.env.PATH ?? '/usr/bin:/bin'),
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
  if (allowCode) env.FOLIO_BUILD_ALLOW_CODE = '1'; // read by settings.ts: the checks inside the build allow code
  if (pageHistory?.editUrl) env.FOLIO_EDIT_URL = pageHistory.editUrl;
  if (pageHistory?.lastUpdated) env.FOLIO_LAST_UPDATED = path.join(buildRoot, LAST_UPDATED_FILE);
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

/** Starts one process of a build (the Astro worker, or Pagefind with `startNow`). */
export function startProcess(launch: Launch, limits: BuildLimits, emit: (line: string) => void, startNow = false): Child {
  const child = spawn(launch.file, launch.args, {
    cwd: launch.cwd,
    env: launch.env,
    stdio: [startNow ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    // Own process group, so stopping it stops Astro's and Pagefind's helpers too (in the sandbox,
    // bwrap's --die-with-parent then ends everything in it).
    detached: true,
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

/**
 * Longest log line kept, in characters: a build's output is tenant-made and every line is scanned
 * for paths (tenant-paths.ts) and stored; the rest of a longer line is dropped as it arrives.
 */
export const MAX_LOG_LINE = 8192;

/**
 * Most of a build's output kept, in bytes (the deployment log and the result's lines): about
 * 100 bytes a page for Astro's own lines leaves room for 25,000-page sites and their warnings.
 * Past it, lines are dropped and counted; Folio's error lines still get through, a bounded number
 * of them, so a failed build still says why.
 */
export const MAX_LOG_BYTES = 16 * 2 ** 20;
const MAX_ERRORS_PAST_BUDGET = 100;
const FOLIO_ERROR = '[folio] error: ';

/**
 * Calls `onLine` with each non-blank line of a child's output, without colour codes or trailing
 * space, cut at MAX_LOG_LINE characters. Each chunk is scanned once and an unfinished line only
 * grows up to the limit, so any output costs time linear in its size.
 */
export function lineReader(stream: NodeJS.ReadableStream, onLine: (line: string) => void) {
  let rest = '';
  let cut = false;
  const add = (piece: string) => {
    if (cut) return;
    if (rest.length + piece.length <= MAX_LOG_LINE) {
      rest += piece;
      return;
    }
    rest += piece.slice(0, MAX_LOG_LINE - rest.length);
    cut = true;
  };
  const end = () => {
    const line = cut ? `${rest} … (line cut at ${MAX_LOG_LINE} characters)` : rest;
    rest = '';
    cut = false;
    // eslint-disable-next-line no-control-regex -- ESC starts the colour codes removed here
    const clean = line.replace(/\x1b\[[0-9;]*m/g, '').trimEnd();
    if (clean) onLine(clean);
  };
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    let start = 0;
    for (let newline = chunk.indexOf('\n'); newline !== -1; newline = chunk.indexOf('\n', start)) {
      add(chunk.slice(start, newline));
      end();
      start = newline + 1;
    }
    add(chunk.slice(start));
  });
  stream.on('end', () => (rest || cut) && end());
}

/** The failure lines of the worker, with their file:line:column when Astro gave one. */
function errorProblems(log: string[]): Problem[] {
  return log
    .filter((l) => l.startsWith(FOLIO_ERROR))
    .map((l) => {
      const text = l.slice(FOLIO_ERROR.length);
      const m = /^(.+?):(\d+):(\d+): ([\s\S]*)$/.exec(text);
      return m
        ? { file: m[1] ?? '', line: Number(m[2]), column: Number(m[3]), message: m[4] ?? '' }
        : { file: '', line: 0, column: 0, message: text };
    });
}
