// Checks a whole content root before a build: the file tree (no symlinks or special files, never
// followed), docs.json, every page and snippet, and the snippet graph (missing files, cycles).
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ContentAnalysis, Problem, SnippetCall } from './check-content.ts';
import { analyzeIsolated, ContentTooComplexError, MAX_CONTENT_BYTES, tooLarge } from './check-pool.ts';
import { DocsConfigError, parseDocsConfig } from '../docs-config.ts';
import { SNIPPETS_DIR, snippetFile } from '../snippet-paths.ts';
import { pageHref } from '../page-rules.ts';
import { checkOpenApiIsolated } from '../openapi/check.ts';
import { navigationSources } from '../openapi/sources.ts';

export interface ContentRootReport {
  problems: Problem[];
  /** Things the build works around, one line each (a 3.0 OpenAPI document using 3.1 forms). */
  warnings?: string[];
  /** Page files relative to the content root (`content/guides/install.mdx`). */
  pages: string[];
  /** Snippet keys relative to `_snippets/` (`intro.mdx`). */
  snippets: string[];
}

const CONTENT_FILE = /\.(md|mdx)$/;
/** What a build reads from a content root; nothing else of it is ever opened. */
export const SITE_DIRS = ['content', SNIPPETS_DIR, 'public'];
const SITE_FILES = ['docs.json'];

export interface CheckRootOptions {
  /** The project runs code (see CheckOptions.allowCode). */
  allowCode?: boolean;
}

export async function checkContentRoot(root: string, options: CheckRootOptions = {}): Promise<ContentRootReport> {
  const problems: Problem[] = [];
  const files: string[] = [];
  for (const dir of SITE_DIRS) {
    const stat = await fs.lstat(path.join(root, dir)).catch(() => undefined);
    if (stat?.isDirectory()) await walk(root, dir, files, problems);
    else if (stat) problems.push(notAllowed(dir, stat.isSymbolicLink()));
  }
  for (const file of SITE_FILES) {
    const stat = await fs.lstat(path.join(root, file)).catch(() => undefined);
    if (stat?.isFile()) files.push(file);
    else if (stat) problems.push(notAllowed(file, stat.isSymbolicLink()));
  }

  const pages = files.filter((f) => f.startsWith('content/') && CONTENT_FILE.test(f)).sort();
  const snippetFiles = files.filter((f) => f.startsWith(`${SNIPPETS_DIR}/`) && CONTENT_FILE.test(f)).sort();
  const snippets = snippetFiles.map((f) => f.slice(SNIPPETS_DIR.length + 1));

  if (files.includes('docs.json')) {
    try {
      const config = parseDocsConfig(await fs.readFile(path.join(root, 'docs.json'), 'utf8'));
      const named = [config.openapi ?? [], config.api?.openapi ?? [], ...navigationSources(config).map((n) => n.source.files)];
      for (const file of named.flat().map((f) => (typeof f === 'string' ? f : f.source))) problems.push(...(await checkLinkFree(root, file)));
    } catch (error) {
      if (!(error instanceof DocsConfigError)) throw error;
      for (const issue of error.issues) {
        problems.push({ file: 'docs.json', line: issue.line, column: issue.column, message: issue.key ? `${issue.key}: ${issue.message}` : issue.message });
      }
    }
  }

  const calls = new Map<string, SnippetCall[]>();
  const known = new Set(snippets);
  // Each file is checked in the check processes (check-pool.ts), a batch at a time, in order.
  const analyses = await inBatches([...pages, ...snippetFiles], (file) => analyzeFile(root, file, options));
  for (const [file, analysis] of analyses) {
    problems.push(...analysis.problems);
    calls.set(file, analysis.snippetCalls);
    problems.push(...checkSnippetCalls(file, analysis.snippetCalls, known));
  }
  problems.push(...findSnippetCycles(snippets, calls));
  problems.push(...findSameAddress(pages));
  if (!pages.length) problems.push({ file: 'content', line: 1, column: 1, message: 'no pages: add .md or .mdx files under content/' });
  // Only when the root's own files are fine: the specs are then checked where the build reads them.
  let warnings: string[] = [];
  if (!problems.length) {
    const openapi = await checkOpenApiIsolated(root, pages);
    problems.push(...openapi.problems);
    warnings = openapi.warnings;
  }
  return { problems, pages, snippets, warnings };
}

/**
 * A problem for each of a page's (or snippet's) `<Snippet file>` calls that names no snippet of
 * `snippets` (keys relative to `_snippets/`, `intro.mdx`). Used by builds and by page writes.
 */
export function checkSnippetCalls(file: string, calls: SnippetCall[], snippets: ReadonlySet<string>): Problem[] {
  return calls
    .filter((call) => !(call.key && snippets.has(call.key)))
    .map((call) => ({
      file,
      line: call.line,
      column: call.column,
      message: call.key
        ? `Snippet file "${call.file}" not found: no ${snippetFile(call.key)} in this content root`
        : `Snippet file "${call.file}" is outside ${SNIPPETS_DIR}/`,
    }));
}

/** One page or snippet's analysis; one too large or too complex to check is a problem of its own. */
async function analyzeFile(root: string, file: string, options: CheckRootOptions): Promise<ContentAnalysis> {
  const kind = file.startsWith('content/') ? 'page' : 'snippet';
  const refused = (reason: string): ContentAnalysis => ({ problems: [{ file, line: 1, column: 1, message: `this ${kind} is ${reason}` }], snippetCalls: [], placeholders: [] });
  const abs = path.join(root, file);
  const { size } = await fs.stat(abs);
  if (size > MAX_CONTENT_BYTES) return refused(tooLarge(size));
  try {
    return await analyzeIsolated(await fs.readFile(abs, 'utf8'), { file, kind, allowCode: options.allowCode });
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
function findSameAddress(pages: string[]): Problem[] {
  const byAddress = new Map<string, string>();
  const problems: Problem[] = [];
  for (const file of pages) {
    const address = pageHref(file.replace(/^content\//, '').replace(/\.mdx?$/, ''));
    const other = byAddress.get(address);
    if (other) problems.push({ file, line: 1, column: 1, message: `${other} and ${file} would both be served at ${address}` });
    else byAddress.set(address, file);
  }
  return problems;
}

async function walk(root: string, rel: string, files: string[], problems: Problem[]) {
  const dir = path.join(root, rel);
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const relPath = rel ? `${rel}/${entry.name}` : entry.name;
    if (!relPath.startsWith('public/') && MODULE_QUERY.test(entry.name)) {
      problems.push({ file: relPath, line: 1, column: 1, message: 'file names in content/ and _snippets/ may not contain "?", "#", "%" or "\\" (the build would read them as a module query)' });
      continue;
    }
    // Dirent types have lstat semantics: a symlink is reported as a symlink, never followed.
    if (entry.isDirectory()) await walk(root, relPath, files, problems);
    else if (entry.isFile() && relPath.startsWith('public/') && SCRIPTABLE_DOCUMENT.test(entry.name)) problems.push(scriptableInPublic(relPath));
    else if (entry.isFile()) files.push(relPath);
    else problems.push(notAllowed(relPath, entry.isSymbolicLink()));
  }
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

/**
 * Pages and snippets are imported as modules by their path: `a?x=.mdx` would load the module `a`
 * (a repository's script) and run it. public/ files are only copied.
 */
// eslint-disable-next-line no-control-regex
const MODULE_QUERY = /[?#%\\\u0000-\u001f]/;

/**
 * Files of public/ are served as they are, on the site's own origin: an HTML or XML document there
 * would run its scripts as the site, past every rule pages follow (SVG is served sandboxed).
 */
const SCRIPTABLE_DOCUMENT = /\.(?:html?|xhtml?|xml)$/i;

function scriptableInPublic(file: string): Problem {
  return { file, line: 1, column: 1, message: 'HTML and XML files are not allowed in public/ (a browser would run their scripts as the site): write a page under content/ instead' };
}

function notAllowed(file: string, symlink: boolean): Problem {
  const what = symlink ? 'a symbolic link' : file === 'docs.json' ? 'not a regular file' : 'a special file';
  return { file, line: 1, column: 1, message: `${what} is not allowed in a content root` };
}

/** Snippets that include themselves, directly or through others, fail the build. */
function findSnippetCycles(snippets: string[], calls: Map<string, SnippetCall[]>): Problem[] {
  const problems: Problem[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (key: string, trail: string[]) => {
    if (state.get(key) === 'done') return;
    if (state.get(key) === 'visiting') {
      const cycle = [...trail.slice(trail.indexOf(key)), key].map(snippetFile);
      const from = calls.get(snippetFile(trail[trail.length - 1] ?? key))?.find((c) => c.key === key);
      problems.push({
        file: snippetFile(trail[trail.length - 1] ?? key),
        line: from?.line ?? 1,
        column: from?.column ?? 1,
        message: `snippet cycle: ${cycle.join(' -> ')}`,
      });
      return;
    }
    state.set(key, 'visiting');
    for (const call of calls.get(snippetFile(key)) ?? []) if (call.key && snippets.includes(call.key)) visit(call.key, [...trail, key]);
    state.set(key, 'done');
  };
  for (const key of snippets) visit(key, []);
  return problems;
}
