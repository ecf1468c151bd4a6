// The clean Markdown of a page's content (markdown/clean-markdown.ts) with its snippets inlined: a
// `<Snippet>` means nothing to a reader of the text, so each becomes its snippet's own Markdown,
// placeholders filled (children stand in as they are). Each snippet is converted on its own, so a
// snippet of several paragraphs inside an inline tag still reads right. Never evaluates anything:
// `vars` are read as literal expressions only.
import { attribute, toCleanMarkdown, type MdNode } from './markdown/clean-markdown.ts';
import { snippetKey } from './snippet-paths.ts';
import { siteBuild } from './build-settings.ts';
import { PLACEHOLDER_TEXT } from './markdown/snippet-placeholders.ts';

const MAX_DEPTH = 8; // cycles fail the content check; this only bounds a pathological nesting

/** A page's body (MDX, or Markdown when `isMdx` is false) as clean Markdown, snippets inlined. */
export function pageBodyMarkdown(body: string, snippets: ReadonlyMap<string, string>, isMdx = true): string {
  return toCleanMarkdown(body, isMdx, { snippet: (node) => snippetMarkdown(node, snippets, 1) });
}

/** The Markdown a Snippet tag without children stands for: its file, vars filled, converted in turn. */
function snippetMarkdown(node: MdNode, snippets: ReadonlyMap<string, string>, depth: number): string {
  if (depth > MAX_DEPTH) return '';
  const file = attribute(node, 'file');
  const key = typeof file === 'string' ? snippetKey(file, siteBuild.layout.snippetsDir) : undefined;
  const source = key ? snippets.get(key) : undefined;
  if (source === undefined) return '';
  const vars = attribute(node, 'vars');
  const values = typeof vars === 'object' && vars !== null ? (vars as Record<string, unknown>) : {};
  const has = (name: string) => Object.hasOwn(values, name);
  const filled = source
    .trim()
    // An attribute placeholder (`method={verb}`) becomes a quoted attribute value.
    .replace(/=\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}/g, (text, name: string) => (has(name) ? `=${JSON.stringify(String(values[name]))}` : text))
    .replace(PLACEHOLDER_TEXT, (text, name: string) => (has(name) ? String(values[name]) : text));
  return toCleanMarkdown(filled, true, { snippet: (inner) => snippetMarkdown(inner, snippets, depth + 1) });
}
