// Builds one content root into one static site directory, step by step: checks the content, then
// runs Astro in a child process (astro-step.ts; in the build sandbox, sandbox.ts, unless it is off)
// with a scrubbed environment (no service secrets), its own Astro root (so concurrent builds never
// interfere) and a time limit (processes.ts), then search indexing; the finished site is then moved
// into the output directory (output.ts). Log lines and errors name files relative to the content
// root only (tenant-paths.ts), within the log's budget (build-log.ts). Used by `npm run build:site`
// and by the deployment runner: callers need only this file.
import fs from 'node:fs/promises';
import path from 'node:path';
import { checkContentRoot, SITE_DIRS } from '../site/content-check/check-root.ts';
import { REDIRECTS_FILE, redirectsSizeProblem } from '../site/redirects-file.ts';
import { formatProblem, type Problem } from '../site/content-check/check-content.ts';
import { OPENAPI_DIGEST_PREFIX, writeCheckedFile } from '../site/content-check/checked-files.ts';
import { chooseSandbox, copyIntoSandbox, moveIntoSandbox, SANDBOX_CONTENT_ROOT, SANDBOX_INPUT_DIR, type BuildSandbox } from './sandbox.ts';
import { LAST_UPDATED_FILE, repoRoot, type PageHistory } from '../site/settings.ts';
import { contentLayout, type ContentLayout } from '../site/layout.ts';
import { listServerDirs, scrubPaths, type PathView } from './tenant-paths.ts';
import { linkTree } from '../lib/link-tree.ts';
import { warningSummary } from './warning-summary.ts';
import { startProgress } from './build-progress.ts';
import { coldAstro, type AstroRunner } from './astro-step.ts';
import { BUILDS_DIR, buildOutDir, CACHES_DIR, removeBuildDir, removeStaleBuildRoots } from './build-roots.ts';
import { buildLaunch, buildLimits, startProcess, workerEnv, type Child } from './processes.ts';
import { keepCache, takeCache } from './build-cache.ts';
import { expectedPageFiles, replaceShards, searchJobEnv, SEARCH_INDEX_WORKER } from './search-index.ts';
import { takeReuseCopy } from './reuse-copy.ts';
import { SEARCH_SHARD_PAGES } from './search-shards.ts';
import { errorProblems, FOLIO_ERROR, MAX_ERRORS_PAST_BUDGET, MAX_LOG_BYTES } from './build-log.ts';
import { copyStaticFiles, emptyDir, listFiles, mergeInto, reuseRefusal, takeOutput, writeRedirects } from './output.ts';

export type { AstroRunner };

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
   * `validatedSpecs`: the OpenAPI digests the previous build's record holds (BuildSiteResult), not
   * validated again (its files are the previous build's, and a fast build's check validates none).
   */
  reuse?: { previousOutDir: string; pageFiles: string[]; validatedSpecs?: string[] };
  /**
   * Astro's cache carried from one sandboxed build of a site to the next (docs/decisions.md, "A
   * one-page change of a 25,000-page site"): a succeeded build keeps its cache as `keepAs` in
   * `site`'s slot (replacing what the slot held), and a build given `from` starts with that cache,
   * so its content sync reads only the changed pages. Names are the caller's, never a tenant's.
   */
  carryCache?: { site: string; from?: string; keepAs: string };
  /**
   * Takes the last steps of a build that succeeded, which no reader of the site waits for (its
   * cache kept for the next build, its root and sandbox input moved away): the caller runs them
   * once the site is live, and before anything else may use the Astro runner (a warm worker's
   * input folder is free only then). Without it, buildSite runs them before it returns.
   */
  afterLive?: (steps: () => Promise<void>) => void;
  /** Pages per search index shard (search-shards.ts; default SEARCH_SHARD_PAGES). */
  searchShardPages?: number;
  /**
   * The content root is a snapshot only this build reads (a deployment's, runner.ts): a sandboxed
   * build may move it into the sandbox whole instead of linking its files one by one
   * (moveIntoSandbox), and moves it back when the build is over, so the caller finds it where it
   * was. A crash in between leaves it in the build's input folder, which the sweep of build roots
   * removes: never for a folder anyone keeps (`npm run build:site`'s content root).
   */
  contentRootIsSnapshot?: boolean;
}

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
  error?: BuildError;
  /**
   * A fast redeploy: every file it wrote over the previous build's (relative to the output, "/"
   * separators); all the others are the previous build's, linked. Absent for a full build.
   */
  written?: string[];
  /**
   * The digests of the OpenAPI documents this build did not validate again because a check of the
   * server's passed them (this build's, or for a fast redeploy the previous build's record): for the
   * record of this build, so that the next fast redeploy need not validate them either. Only from
   * the server's checks, never from a build's output: the sandbox could write any list there
   * (docs/decisions.md, "Validated OpenAPI files are the server's record, not the build's").
   */
  validatedSpecs?: string[];
}

/**
 * The steps of a build, timed: the content check, the sandbox's copy of the content, Astro, a fast
 * redeploy's links to the previous build (made while Astro runs), Pagefind, and moving the site
 * into the output directory.
 */
export type BuildPhases = Partial<Record<'check' | 'sandbox input' | 'carry cache' | 'astro' | 'link previous build' | 'pagefind' | 'output', number>>;

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
  // The snapshot moved into the sandbox (contentRootIsSnapshot): moved back before the input's cleanup.
  let lent = false;
  // A fast redeploy's search indexing, started while Astro runs; stopped with the build whatever its outcome.
  let searchIndexing: Promise<Child> | undefined;
  // The previous build's cache is taken and made the sandbox's while the content is checked (in
  // other processes): only placing it in the build root waits for the check.
  const carry = sandbox && options.carryCache;
  const takingCache = carry && carry.from !== undefined ? takeCache(CACHES_DIR, carry.site, carry.from, worker.uid) : undefined;
  /** The steps left for the caller to run once the site is live (options.afterLive). */
  let whenLive: (() => Promise<void>) | undefined;
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
      // The sandbox reads a copy its uid can read, whatever the modes of the original (links where it
      // already can); a snapshot that is such a copy already is moved in whole.
      await timed('sandbox input', async () => {
        const notMoved = options.contentRootIsSnapshot ? await moveIntoSandbox(contentRoot, worker.input, [BUILDS_DIR, outDir]) : 'not a snapshot';
        if (notMoved === undefined) {
          lent = true;
          return emit('sandbox input: the snapshot moved in whole (no file linked)');
        }
        if (options.contentRootIsSnapshot) emit(`sandbox input: the content's files linked one by one (the snapshot cannot be moved in whole: ${notMoved})`);
        await copyIntoSandbox(contentRoot, worker.input, worker.uid, [BUILDS_DIR, outDir]);
      });
    }
    // What the check passed: the build's own check skips the walk of exactly that text (checked-files.ts).
    // A fast build's check validates no OpenAPI file: those the previous build's checks passed are listed as they did.
    const validatedSpecs = options.allowCode ? [] : [...new Set([...report.checked, ...(reuse?.validatedSpecs ?? [])].filter((d) => d.startsWith(OPENAPI_DIGEST_PREFIX)))];
    if (!options.allowCode) await writeCheckedFile(worker.buildRoot, [...new Set([...report.checked, ...validatedSpecs])]);
    if (options.pageHistory?.lastUpdated) {
      // A file, not a variable: thousands of pages' dates would pass the limit of one variable.
      // `wx`, as the checked file: a link a process of the sandbox put at this name is never followed.
      await fs.writeFile(path.join(worker.buildRoot, LAST_UPDATED_FILE), JSON.stringify(options.pageHistory.lastUpdated), { mode: 0o644, flag: 'wx' });
    }
    if (takingCache) {
      const carried = await timed('carry cache', async () => (await (await takingCache)?.placeIn(worker.buildRoot)) ?? false);
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
    const shardPages = options.searchShardPages ?? SEARCH_SHARD_PAGES;
    // The indexing process of a fast redeploy starts once the output holds the previous build (it
    // sees the output folder itself, bound when it starts: never before the reuse copy is renamed
    // there), so that its start and the shard's pages before the changed one are off the path
    // from Astro's exit to the site live (docs/decisions.md, "The search shard indexed while Astro
    // runs"). Only a fast redeploy's: its one shard is small beside Astro, a full build's index is not.
    const index = path.join(worker.buildRoot, PAGEFIND_DIR);
    searchIndexing = linking?.then(() => {
      const site = sandbox ? SANDBOX_SITE_DIR : outDir;
      const env = { ...workerEnv(worker.buildRoot, worker.contentRoot, site, options.siteUrl, !!sandbox, options.allowCode), ...searchJobEnv({ site, out: index, shardPages, expected: expectedPageFiles(onlyPages!) }) };
      const launch = buildLaunch([process.execPath, SEARCH_INDEX_WORKER], worker.buildRoot, env, sandbox, [{ from: worker.buildRoot, writable: true }, { from: outDir, at: SANDBOX_SITE_DIR }], worker.uid);
      return startProcess(launch, limits, emit);
    });
    searchIndexing?.catch(() => undefined);
    // The output emptied, never to be a site: the indexing process, which reads it, goes first, and
    // its index is never taken.
    const abandonOutput = async () => {
      await stopSearchIndexing(searchIndexing);
      await emptyDir(outDir);
    };
    let outcome = await timed('astro', () => worker.done);
    let changedPages: string[] = [];
    if (linking) {
      await linking.catch(async (error: unknown) => {
        await abandonOutput();
        throw error;
      });
      if (outcome !== 0) await abandonOutput();
    }
    if (outcome === 0 && reuse) {
      // The changed pages' outputs over the links to the previous build, then the search index
      // over the whole site; the partial output is taken and checked before anything reads it.
      try {
        const partial = await takeOutput(buildOutDir(worker.buildRoot));
        try {
          if (partial.problem) {
            await abandonOutput();
            return fail('build_failed', [], partial.problem);
          }
          const refused = await reuseRefusal(partial.dir, reuse.previousOutDir);
          if (refused) {
            await abandonOutput();
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
        const indexer = await searchIndexing!;
        outcome = await timed('pagefind', () => {
          indexer.go(`${JSON.stringify(changedPages)}\n`);
          return indexer.done;
        });
        if (outcome === 0) {
          const exists = await fs.lstat(index).catch(() => undefined);
          if (!exists) return fail('build_failed', [], 'the search index was not written');
          const taken = await takeOutput(index);
          try {
            if (taken.problem) {
              await abandonOutput();
              return fail('build_failed', [], taken.problem);
            }
            await timed('output', async () => {
              written!.push(...(await listFiles(taken.dir)).map((rel) => `${PAGEFIND_DIR}/${rel}`), REDIRECTS_FILE);
              await replaceShards(taken.dir, path.join(outDir, PAGEFIND_DIR));
              await writeRedirects(outDir, report.config);
            });
          } finally {
            await removeBuildDir(taken.dir);
          }
        }
      } catch (error) {
        await abandonOutput();
        throw error;
      }
      if (outcome !== 0) await abandonOutput();
    } else {
      // A full build's search indexing runs once Astro has exited, so their memory peaks never add
      // up (a fast redeploy's indexes one shard beside Astro: its pages are few).
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
    const keep = async () => {
      if (carry) await keepCache(CACHES_DIR, carry.site, carry.keepAs, worker.buildRoot, removeBuildDir);
    };
    if (options.afterLive) {
      whenLive = async () => {
        try {
          await keep();
        } finally {
          await worker.cleanup();
        }
      };
    } else await timed('carry cache', keep);
    return { ...finish(undefined, report.pages.length), validatedSpecs };
  } catch (error) {
    worker.cancel();
    await worker.done;
    throw error;
  } finally {
    progress.stop();
    await stopSearchIndexing(searchIndexing);
    limits.dispose();
    try {
      // The sandbox's mount was read-only: the snapshot comes back as it went in.
      if (lent) await fs.rename(worker.input, contentRoot);
    } finally {
      // Not placed (a failed content check, an error before Astro started): still the previous
      // build's, untouched by any build, so back in its slot for the site's next build (a no-op once placed).
      await (await takingCache)?.putBack();
      if (whenLive) options.afterLive!(whenLive);
      else await worker.cleanup();
    }
  }
}

/** Stops a fast redeploy's indexing process if it still runs (a build that failed or was refused), and waits for its end. */
async function stopSearchIndexing(indexing: Promise<Child> | undefined): Promise<void> {
  const indexer = await indexing?.catch(() => undefined);
  indexer?.cancel();
  await indexer?.done;
}

/** The folder of a site's search index (Pagefind's). */
const PAGEFIND_DIR = 'pagefind';

/** Where a fast redeploy's Pagefind step sees the merged site in the sandbox (read-only). */
const SANDBOX_SITE_DIR = '/site';

function checkSiteUrl(siteUrl: string | undefined): string | undefined {
  if (siteUrl === undefined) return undefined;
  const url = URL.canParse(siteUrl) ? new URL(siteUrl) : undefined;
  if (url && (url.protocol === 'https:' || url.protocol === 'http:') && !url.search && !url.hash) return undefined;
  return `site URL ${JSON.stringify(siteUrl)} must be an http(s) address such as https://docs.example.com`;
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
