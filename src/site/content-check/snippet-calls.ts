// Whether a page's snippet calls (`<Snippet file>`) and snippet imports name snippets the content root
// has: used by the whole-root check (check-root.ts), broken links and page writes through the API.
import type { Problem, SnippetCall, SnippetImport } from './check-content.ts';
import { SNIPPETS_DIR, snippetFile } from '../snippet-paths.ts';

/**
 * A problem for each of a page's (or snippet's) `<Snippet file>` calls that names no snippet of
 * `snippets` (keys relative to `_snippets/`, `intro.mdx`). Used by builds and by page writes.
 */
export function checkSnippetCalls(file: string, calls: SnippetCall[], snippets: ReadonlySet<string>, dir: string = SNIPPETS_DIR): Problem[] {
  return calls
    .filter((call) => !(call.key && snippets.has(call.key)))
    .map((call) => ({
      file,
      line: call.line,
      column: call.column,
      message: call.key
        ? `Snippet file "${call.file}" not found: no ${snippetFile(call.key, dir)} in this content root`
        : `Snippet file "${call.file}" is outside ${dir}/`,
    }));
}

/**
 * A problem for each snippet import that names no snippet, or a name the snippet does not define
 * with `export const` (`exportsOf`: each snippet key's literal exports).
 */
export function checkSnippetImports(file: string, imports: SnippetImport[], exportsOf: ReadonlyMap<string, Record<string, unknown>>, dir: string): Problem[] {
  const problems: Problem[] = [];
  for (const imp of imports) {
    const exported = exportsOf.get(imp.key);
    const at = { file, line: imp.line, column: imp.column };
    if (!exported) problems.push({ ...at, message: `import "${imp.specifier}": no snippet ${snippetFile(imp.key, dir)} in this content root` });
    else for (const name of imp.named) {
      if (!Object.hasOwn(exported, name)) problems.push({ ...at, message: `import "${imp.specifier}": ${snippetFile(imp.key, dir)} has no export const ${name} = <literal value>` });
    }
  }
  return problems;
}
