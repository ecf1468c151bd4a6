// Checks a page body before the API stores it, with the site builder's own checker, so a page the
// API accepted builds. On top of the per-file check it resolves `<Snippet file>` calls against the
// project's `_snippets/`, as the whole-root check of a build does.
import fg from 'fast-glob';
import path from 'node:path';
import { analyzeContent, formatProblem, type Problem } from '../../site/content-check/check-content.ts';
import { SNIPPETS_DIR, snippetFile } from '../../site/snippet-paths.ts';
import { DomainError } from '../errors.ts';

/** The snippet keys (`intro.mdx`, `api/auth.mdx`) of a content root. */
async function snippetKeys(root: string): Promise<Set<string>> {
  const files = await fg('**/*.{md,mdx}', { cwd: path.join(root, SNIPPETS_DIR), onlyFiles: true, followSymbolicLinks: false });
  return new Set(files);
}

/**
 * Throws 400 invalid_request when `content` would fail the build. Problems are reported as the
 * build reports them, with the field name in place of the file: `content:3:5: unknown component…`.
 */
export async function checkPageContent(content: string, format: 'md' | 'mdx', root: string): Promise<void> {
  const analysis = analyzeContent(content, { file: 'content', kind: 'page', format });
  const problems: Problem[] = [...analysis.problems];
  if (analysis.snippetCalls.length > 0) {
    const known = await snippetKeys(root);
    for (const call of analysis.snippetCalls) {
      if (call.key && known.has(call.key)) continue;
      // The wording of the whole-root check (src/site/content-check/check-root.ts).
      const message = call.key
        ? `Snippet file "${call.file}" not found: no ${snippetFile(call.key)} in this content root`
        : `Snippet file "${call.file}" is outside ${SNIPPETS_DIR}/`;
      problems.push({ file: 'content', line: call.line, column: call.column, message });
    }
  }
  if (problems.length === 0) return;
  const listed = problems.map(formatProblem).join('; ');
  throw new DomainError('invalid_request', problems.length === 1 ? listed : `content has ${problems.length} problems: ${listed}`);
}
