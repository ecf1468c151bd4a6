// Checks a whole content root before a build: the file tree (no symlinks or special files, never
// followed), docs.json, every page and snippet, and the snippet graph (missing files, cycles).
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ContentAnalysis, Problem, SnippetCall } from './check-content.ts';
import { checkSnippetCalls, checkSnippetImports } from './snippet-calls.ts';
import { analyzeIsolated, ContentTooComplexError, MAX_CONTENT_BYTES, parseSiteFileIsolated, tooLarge } from './check-pool.ts';
import { DocsConfigError, type DocsConfig } from '../config/docs-config.ts';
import { SITE_CONFIG_FILES, type SiteConfigFile } from '../config/site-config-file.ts';
import { SNIPPETS_DIR, snippetFile as snippetFileIn } from '../snippet-paths.ts';
import { pageHref } from '../page-rules.ts';
import { listRootFilesAsync, pagePathOf, type ContentLayout, type RootFiles } from '../layout.ts';
import { checkOpenApiIsolated, openApiFrontmatter } from '../openapi/check.ts';
import { DROPS_PROPS_PREFIX, HAS_ESM_PREFIX, checkedDigest } from './checked-files.ts';
import { navigationSources } from '../openapi/sources.ts';
import { customFileWarnings } from '../custom-files.ts';
import { findInternalBrokenLinks, inFileOrder } from '../broken-links.ts';
import type { Locate } from '../config/config-values.ts';

export interface ContentRootReport {
  problems: Problem[];
  /**
   * What builds but not as written: a frontmatter key Folio does not use, a file left out, an
   * OpenAPI document the build works around (those without a file). Shown, never fatal.
   */
  warnings: Problem[];
  /** Page files relative to the content root (`content/guides/install.mdx`, or `guides/install.mdx` in Mintlify's layout). */
  pages: string[];
  /** Snippet keys relative to the snippets folder (`intro.mdx`). */
  snippets: string[];
  /** The files of the content root, as the build reads them (layout.ts). */
  files: RootFiles;
  /** The site configuration (docs.json, else mint.json) when it is valid. */
  config?: DocsConfig;
  /** Digests of the pages and snippets that passed, as the build reads them (checked-files.ts). */
  checked: string[];
}

/** What a Folio-layout build reads from a content root; nothing else of it is ever opened. */
export const SITE_DIRS = ['content', SNIPPETS_DIR, 'public'];

export interface CheckRootOptions {
  /** The project runs code (see CheckOptions.allowCode). */
  allowCode?: boolean;
  /**
   * A fast redeploy (docs/decisions.md#fast-redeploys): only these pages (and every snippet) are
   * analyzed; the others passed this check in the previous build, with the same docs.json,
   * snippets and Folio, so their problems and warnings cannot have changed. The root's listing,
   * docs.json and the site-wide checks run as always; the OpenAPI check does not (its inputs are
   * all the previous build's).
   */
  onlyPages?: readonly string[];
}

const REFUSED: Record<RootFiles['refused'][number]['reason'], string> = {
  symlink: 'a symbolic link is not allowed in a content root',
  special: 'a special file is not allowed in a content root',
  name: 'page and snippet file names may not contain "?", "#", "%" or "\\" (the build would read them as a module query)',
  scriptable: 'HTML and XML files are not allowed in public/ (a browser would run their scripts as the site): write a page under content/ instead',
};

export async function checkContentRoot(root: string, options: CheckRootOptions = {}): Promise<ContentRootReport> {
  const files = await listRootFilesAsync(root);
  const { layout } = files;
  const problems: Problem[] = files.refused.map(({ file, reason }) => ({
    file,
    line: 1,
    column: 1,
    message:
      (SITE_CONFIG_FILES as readonly string[]).includes(file) && reason === 'special'
        ? 'not a regular file is not allowed in a content root'
        : reason === 'name' && layout.kind === 'folio'
          ? 'file names in content/ and _snippets/ may not contain "?", "#", "%" or "\\" (the build would read them as a module query)'
          : REFUSED[reason],
  }));
  const warnings: Problem[] = files.skipped.map(({ file, reason }) => ({ file, line: 1, column: 1, message: reason }));
  // Mintlify's custom CSS and JavaScript (custom-files.ts): what of them a reader's browser will not load or run.
  warnings.push(...(await customFileWarnings(root, files, options.allowCode ?? false)));
  // The root itself cannot be read safely (a link or special file, a named spec behind a link): the
  // OpenAPI check, which reads the root's files, waits until that is fixed. A docs.json that cannot
  // be read does not stop it: it then checks the specs the pages name and those found in the root,
  // so that one run reports the problems of every file.
  let unreadable = files.refused.some(({ reason }) => reason === 'symlink' || reason === 'special');
  const { pages } = files;
  const snippetFiles = files.snippets;
  const snippets = snippetFiles.map((f) => f.slice(layout.snippetsDir.length + 1));

  // Each file is checked in the check processes (check-pool.ts), a batch at a time, in order; the
  // first batch goes out with docs.json (which decides nothing about them), so that the pool starts
  // all its processes at once rather than one for docs.json and the others once it is done.
  const only = options.onlyPages && new Set(options.onlyPages);
  const analyzed = only ? pages.filter((page) => only.has(page)) : pages;
  const checked: string[] = [];
  const openApiPages = new Set<string>();
  const analyzing = inBatches([...analyzed, ...snippetFiles], (file) => analyzeFile(root, file, layout, options, checked, openApiPages));
  // Awaited after docs.json; a failure is thrown there, never reported as unhandled meanwhile.
  analyzing.catch(() => undefined);

  let config: DocsConfig | undefined;
  let locate: Locate | undefined;
  let namesSpecs = false;
  const siteFile = files.config as SiteConfigFile | undefined;
  if (siteFile) {
    if (siteFile === 'docs.json' && (await fs.lstat(path.join(root, 'mint.json')).catch(() => undefined))?.isFile()) {
      warnings.push({ file: 'mint.json', line: 1, column: 1, message: 'not read: docs.json configures this site' });
    }
    try {
      // In a check process (check-pool.ts): a hostile docs.json costs the server's event loop nothing.
      const parsed = await parseSiteFileIsolated(siteFile, await fs.readFile(path.join(root, siteFile), 'utf8'), root);
      config = parsed.config;
      // Broken redirects are named where their rule is written (the check process says where each is).
      const { redirectsAt } = parsed;
      locate = (keyPath) => (keyPath[0] === 'redirects' && typeof keyPath[1] === 'number' && redirectsAt[keyPath[1]]) || { file: siteFile, key: keyPath.map(String).join('.'), line: 1, column: 1 };
      warnings.push(...parsed.warnings.map((issue) => ({ file: issue.file, line: issue.line, column: issue.column, message: issue.key ? `${issue.key}: ${issue.message}` : issue.message })));
      const named = [parsed.config.openapi ?? [], parsed.config.api?.openapi ?? [], ...navigationSources(parsed.config).map((n) => n.source.files)];
      namesSpecs = named.flat().length > 0;
      for (const file of named.flat().map((f) => (typeof f === 'string' ? f : f.source))) {
        const linked = await checkLinkFree(root, file);
        problems.push(...linked);
        if (linked.length) unreadable = true;
      }
    } catch (error) {
      if (error instanceof ContentTooComplexError) {
        problems.push({ file: siteFile, line: 1, column: 1, message: `this file is ${error.reason}` });
        // The OpenAPI check would parse it again: it waits until the file is simpler.
        unreadable = true;
      } else if (!(error instanceof DocsConfigError)) throw error;
      else for (const issue of error.issues) {
        problems.push({ file: issue.file, line: issue.line, column: issue.column, message: issue.key ? `${issue.key}: ${issue.message}` : issue.message });
      }
    }
  }

  const calls = new Map<string, SnippetCall[]>();
  const known = new Set(snippets);
  const exportsOf = new Map<string, Record<string, unknown>>();
  const analyses = await analyzing;
  for (const [file, analysis] of analyses) if (file.startsWith(`${layout.snippetsDir}/`)) exportsOf.set(file.slice(layout.snippetsDir.length + 1), analysis.exports ?? {});
  for (const [file, analysis] of analyses) {
    problems.push(...analysis.problems);
    warnings.push(...(analysis.warnings ?? []));
    calls.set(file, analysis.snippetCalls);
    problems.push(...checkSnippetCalls(file, analysis.snippetCalls, known, layout.snippetsDir));
    problems.push(...checkSnippetImports(file, analysis.snippetImports ?? [], exportsOf, layout.snippetsDir));
  }
  problems.push(...findSnippetCycles(snippets, calls, layout.snippetsDir));
  problems.push(...findSameAddress(pages, layout));
  if (!pages.length) {
    problems.push(
      layout.kind === 'folio'
        ? { file: 'content', line: 1, column: 1, message: 'no pages: add .md or .mdx files under content/' }
        : { file: layout.configFile, line: 1, column: 1, message: 'no pages: add .md or .mdx files beside docs.json (Mintlify\'s layout)' },
    );
  }
  // Also when pages have problems, so an author learns of every problem in one run (check:site
  // and a failed deployment list them together); a refused page still fails the build as before.
  // Only when the root's own files can be read (see unreadable): the specs are then read where
  // the build reads them, through no link. Not when there is nothing to check (no spec named, no
  // page naming an operation), nor on a fast redeploy: docs.json, the spec files and every page's
  // frontmatter are then the previous build's, which passed this check (fast-redeploy.ts builds in
  // full when any of them changed).
  const skipOpenApi = !!only || (!namesSpecs && openApiPages.size === 0);
  // The addresses of the pages generated from the OpenAPI files docs.json names, read by the OpenAPI
  // check in its process; unknown when it does not run or cannot read them.
  let generated: string[] | undefined = namesSpecs ? undefined : [];
  if (!unreadable && !skipOpenApi) {
    const openapi = await checkOpenApiIsolated(root, pages);
    problems.push(...openapi.problems);
    warnings.push(...openapi.warnings);
    checked.push(...(openapi.checked ?? []));
    generated = openapi.generated ?? generated;
  }
  // Broken internal links are warnings: the site builds, a reader's click leads nowhere. Resolved
  // here from the links the check processes read (page-links.ts), with `folio broken-links`'s rules.
  const contents = analyses.flatMap(([file, analysis]) => (analysis.links ? [{ file, ...analysis.links }] : []));
  const links = await findInternalBrokenLinks({ root, files, rules: config?.redirects ?? [], locate, generated: generated ?? [], contents, pagesUnknown: !generated }, { checkAnchors: true, snippetUses: false });
  warnings.push(...inFileOrder(links.broken, files, contents));
  return { problems, warnings, pages, snippets, files, config, checked };
}

/**
 * One page or snippet's analysis; one too large or too complex to check is a problem of its own.
 * The digest of a file without problems goes into `checked`.
 */
/** Analyzes one page or snippet; records in `openApiPages` a page whose frontmatter names an OpenAPI operation. */
async function analyzeFile(root: string, file: string, layout: ContentLayout, options: CheckRootOptions, checked: string[], openApiPages: Set<string>): Promise<ContentAnalysis> {
  const kind = file.startsWith(`${layout.snippetsDir}/`) ? 'snippet' : 'page';
  const refused = (reason: string): ContentAnalysis => ({ problems: [{ file, line: 1, column: 1, message: `this ${kind} is ${reason}` }], warnings: [], snippetCalls: [], snippetImports: [], exports: {}, placeholders: [], dropsProps: false, hasEsm: false });
  const abs = path.join(root, file);
  const { size } = await fs.stat(abs);
  if (size > MAX_CONTENT_BYTES) return refused(tooLarge(size));
  try {
    const text = await fs.readFile(abs, 'utf8');
    if (kind === 'page' && openApiFrontmatter(text) !== undefined) openApiPages.add(file);
    const analysis = await analyzeIsolated(text, { file, kind, allowCode: options.allowCode, snippetsDir: layout.snippetsDir });
    if (!analysis.problems.length) {
      const digest = checkedDigest(text, { file, kind });
      checked.push(digest);
      if (analysis.dropsProps) checked.push(`${DROPS_PROPS_PREFIX}${digest}`);
      if (analysis.hasEsm) checked.push(`${HAS_ESM_PREFIX}${digest}`);
    }
    return analysis;
  } catch (error) {
    if (!(error instanceof ContentTooComplexError)) throw error;
    return refused(error.reason);
  }
}

/** Runs `handle` on 32 files at a time rather than one after another (results in order). */
async function inBatches<T>(files: string[], handle: (file: string) => Promise<T>): Promise<Array<[string, T]>> {
  const out: Array<[string, T]> = [];
  for (let i = 0; i < files.length; i += 32) {
    const batch = files.slice(i, i + 32);
    const results = await Promise.all(batch.map(handle));
    batch.forEach((f, j) => out.push([f, results[j]!]));
  }
  return out;
}

/** Two files served at one address (`guides.mdx` and `guides/index.mdx`, or `a.md` and `a.mdx`). */
function findSameAddress(pages: string[], layout: ContentLayout): Problem[] {
  const byAddress = new Map<string, string>();
  const problems: Problem[] = [];
  for (const file of pages) {
    const address = pageHref(pagePathOf(file, layout));
    const other = byAddress.get(address);
    if (other) problems.push({ file, line: 1, column: 1, message: `${other} and ${file} would both be served at ${address}` });
    else byAddress.set(address, file);
  }
  return problems;
}

/** The one other file a build reads (an OpenAPI file named in docs.json): no link on its way. */
async function checkLinkFree(root: string, file: string): Promise<Problem[]> {
  const parts = path.posix.normalize(file.replaceAll('\\', '/')).replace(/^\/+/, '').split('/');
  for (let i = 1; i <= parts.length; i++) {
    const rel = parts.slice(0, i).join('/');
    const stat = await fs.lstat(path.join(root, rel)).catch(() => undefined);
    if (!stat) return []; // a missing file is reported by the OpenAPI loader, with its own wording
    if (stat.isSymbolicLink() || (i === parts.length ? !stat.isFile() : !stat.isDirectory())) return [notAllowed(rel, stat.isSymbolicLink())];
  }
  return [];
}

function notAllowed(file: string, symlink: boolean): Problem {
  const what = symlink ? 'a symbolic link' : (SITE_CONFIG_FILES as readonly string[]).includes(file) ? 'not a regular file' : 'a special file';
  return { file, line: 1, column: 1, message: `${what} is not allowed in a content root` };
}

/** Most snippet cycles reported, and most snippets a cycle's message names: enough to find and break them. */
const MAX_CYCLES_REPORTED = 20;
const MAX_CYCLE_NAMES = 12;

/**
 * Snippets that include themselves, directly or through others, fail the build (exported for npm
 * run bench:tenant-limits). A depth-first walk with its own stack, in time linear in the snippets
 * and their calls: it runs on the server's event loop, and a repository may hold thousands of
 * snippets including each other in a chain (the walk used to recurse, and copy its trail, per step).
 */
export function findSnippetCycles(snippets: string[], calls: Map<string, SnippetCall[]>, dir: string): Problem[] {
  const snippetFile = (key: string) => snippetFileIn(key, dir);
  const known = new Set(snippets);
  const problems: Problem[] = [];
  const done = new Set<string>();
  // The snippets being walked, from the first, and where each is in that trail.
  const trail: Array<{ key: string; calls: SnippetCall[]; next: number }> = [];
  const onTrail = new Map<string, number>();
  const enter = (key: string) => {
    onTrail.set(key, trail.length);
    trail.push({ key, calls: calls.get(snippetFile(key)) ?? [], next: 0 });
  };
  for (const first of snippets) {
    if (done.has(first)) continue;
    enter(first);
    while (trail.length) {
      const top = trail[trail.length - 1]!;
      if (top.next === top.calls.length) {
        trail.pop();
        onTrail.delete(top.key);
        done.add(top.key);
        continue;
      }
      const call = top.calls[top.next++]!;
      if (!call.key || !known.has(call.key) || done.has(call.key)) continue;
      const at = onTrail.get(call.key);
      if (at === undefined) {
        enter(call.key);
      } else if (problems.length < MAX_CYCLES_REPORTED) {
        const cycle = [...trail.slice(at, at + MAX_CYCLE_NAMES).map((t) => snippetFile(t.key)), snippetFile(call.key)];
        if (trail.length - at > MAX_CYCLE_NAMES) cycle.splice(-1, 0, `… ${trail.length - at - MAX_CYCLE_NAMES} more`);
        problems.push({ file: snippetFile(top.key), line: call.line, column: call.column, message: `snippet cycle: ${cycle.join(' -> ')}` });
      }
    }
  }
  return problems;
}
