// The Markdown of a page for llms-full.txt, with its snippets inlined: a `<Snippet>` tag means
// nothing to a reader of the raw text, so each is replaced by the snippet's source with its
// placeholders filled (children stand in as they are). Uses Sätteri's fast MDX parser and never
// evaluates anything: `vars` are read as literal expressions only.
import { parseExpressionAt } from 'acorn';
import type { Node as EstreeNode } from 'estree';
import { mdxToMdast } from 'satteri';
import { isLiteral, literalValue } from './content-check/check-content.ts';
import { snippetKey } from './snippet-paths.ts';
import { siteBuild } from './build-settings.ts';
import { PLACEHOLDER_TEXT } from './markdown/snippet-placeholders.ts';

interface MdNode {
  type: string;
  name?: string | null;
  attributes?: Array<{ type: string; name?: string; value?: unknown }>;
  children?: MdNode[];
  position?: { start: { offset?: number }; end: { offset?: number } };
}

const MAX_DEPTH = 8; // cycles fail the content check; this only bounds a pathological nesting

/** `body` (MDX source) with every Snippet replaced by the text it stands for. */
export function inlineSnippets(body: string, snippets: ReadonlyMap<string, string>, depth = 0): string {
  if (depth > MAX_DEPTH || !body.includes('<Snippet')) return body;
  let tree: MdNode;
  try {
    tree = mdxToMdast(body) as unknown as MdNode;
  } catch {
    return body; // the content check reports syntax errors; here the source stays as written
  }
  const found: MdNode[] = [];
  const visit = (node: MdNode) => {
    if ((node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') && node.name === 'Snippet') found.push(node);
    else node.children?.forEach(visit);
  };
  visit(tree);
  let out = body;
  for (const node of found.reverse()) {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start === undefined || end === undefined) continue;
    out = out.slice(0, start) + snippetText(body, node, snippets, depth) + out.slice(end);
  }
  return out;
}

function snippetText(body: string, node: MdNode, snippets: ReadonlyMap<string, string>, depth: number): string {
  const children = node.children ?? [];
  const first = children[0]?.position?.start.offset;
  const last = children.at(-1)?.position?.end.offset;
  if (first !== undefined && last !== undefined) return inlineSnippets(body.slice(first, last), snippets, depth + 1);
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
  return inlineSnippets(filled, snippets, depth + 1);
}

/** A string attribute, or the value of a literal expression attribute (`vars={{ … }}`). */
function attribute(node: MdNode, name: string): unknown {
  const attr = node.attributes?.find((a) => a.type === 'mdxJsxAttribute' && a.name === name);
  if (!attr || typeof attr.value === 'string' || attr.value == null) return attr?.value ?? undefined;
  const source = (attr.value as { value?: unknown }).value;
  if (typeof source !== 'string') return undefined;
  try {
    const expression = parseExpressionAt(source, 0, { ecmaVersion: 'latest' }) as unknown as EstreeNode;
    return isLiteral(expression) ? literalValue(expression) : undefined;
  } catch {
    return undefined;
  }
}
