// Checks a page body before the API stores it, with the site builder's own checker, so a page the
// API accepted builds. On top of the per-file check it resolves `<Snippet file>` calls and snippet
// imports against the project's `_snippets/`, as the whole-root check of a build does.
import fg from 'fast-glob';
import path from 'node:path';
import { formatProblem, type ContentAnalysis } from '../../site/content-check/check-content.ts';
import { analyzeIsolated, ContentTooComplexError } from '../../site/content-check/check-pool.ts';
import { checkSnippetCalls, checkSnippetImports } from '../../site/content-check/snippet-calls.ts';
import { lstat, readFile } from 'node:fs/promises';
import { SNIPPETS_DIR } from '../../site/snippet-paths.ts';
import { FolioError } from '../errors.ts';

/** The snippet keys (`intro.mdx`, `api/auth.mdx`) of a content root. */
async function snippetKeys(root: string): Promise<Set<string>> {
  const files = await fg('**/*.{md,mdx}', { cwd: path.join(root, SNIPPETS_DIR), onlyFiles: true, followSymbolicLinks: false });
  return new Set(files);
}

/** The `export const` literals of each snippet a page imports (a missing or unreadable one is left out). */
async function importedExports(root: string, analysis: ContentAnalysis): Promise<Map<string, Record<string, unknown>>> {
  const exportsOf = new Map<string, Record<string, unknown>>();
  for (const key of new Set(analysis.snippetImports.map((i) => i.key))) {
    const file = path.join(root, SNIPPETS_DIR, ...key.split('/'));
    const stat = await lstat(file).catch(() => undefined);
    if (!stat?.isFile()) continue;
    try {
      const snippet = await analyzeIsolated(await readFile(file, 'utf8'), { file: `${SNIPPETS_DIR}/${key}`, kind: 'snippet' });
      exportsOf.set(key, snippet.exports);
    } catch (error) {
      if (!(error instanceof ContentTooComplexError)) throw error;
    }
  }
  return exportsOf;
}

/**
 * Throws 400 invalid_request when `content` would fail the build (`afterFrontmatter`: the file
 * will hold a frontmatter block before it), 422 content_too_complex when it cannot be checked
 * within the time limit. Problems are reported as the build reports them, with the field name in
 * place of the file: `content:3:5: unknown component…`. The check runs in the check processes,
 * off the server's event loop.
 */
export async function checkPageContent(
  content: string,
  format: 'md' | 'mdx',
  root: string,
  afterFrontmatter: boolean,
  page: { path: string; allowCode?: boolean },
): Promise<void> {
  let analysis: ContentAnalysis;
  try {
    // Stored after a frontmatter block, the content is all body: nothing in it is read as frontmatter.
    analysis = await analyzeIsolated(content, { file: 'content', kind: 'page', format, frontmatter: !afterFrontmatter, allowCode: page.allowCode });
  } catch (error) {
    if (!(error instanceof ContentTooComplexError)) throw error;
    throw new FolioError('content_too_complex', `page "${page.path}": content is ${error.reason}`);
  }
  const problems = [...analysis.problems];
  if (analysis.snippetCalls.length > 0) problems.push(...checkSnippetCalls('content', analysis.snippetCalls, await snippetKeys(root)));
  if (analysis.snippetImports.length > 0) problems.push(...checkSnippetImports('content', analysis.snippetImports, await importedExports(root, analysis), SNIPPETS_DIR));
  if (problems.length === 0) return;
  const listed = problems.map(formatProblem).join('; ');
  throw new FolioError('invalid_request', problems.length === 1 ? listed : `content has ${problems.length} problems: ${listed}`);
}
