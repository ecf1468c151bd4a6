// The links, anchors and snippet uses of one parsed page or snippet: what `folio broken-links`
// (broken-links.ts) resolves against the site's pages. Read in the check processes with the rest of
// a page's analysis (check-content.ts), so the deployment's check (check-root.ts) resolves them
// without parsing tenant pages on the server's event loop. Design: docs/decisions.md#broken-links.
import Slugger from 'github-slugger';
import type { MdNode, PageLinks, SourceShift } from './analysis.ts';
import { importedSnippetKey, snippetKey, SNIPPETS_DIR } from '../snippet-paths.ts';

// Its shapes are the analysis's (analysis.ts), which carries them.
export type { FoundLink, PageLinks } from './analysis.ts';

type Node = MdNode;

/** Attributes of MDX elements (`<Card href>`, `<a href>`) that are links. */
const LINK_ATTRIBUTES = new Set(['href']);
const IMPORT_SOURCE = /^\s*import\s[^'"]*?from\s*(['"])([^'"]+)\1|^\s*import\s*(['"])([^'"]+)\3/gm;

export const noLinks = (): PageLinks => ({ links: [], anchors: [], snippetCalls: [], imports: [] });

/** One page's or snippet's links and anchors, in a walk linear in its tree. */
export function pageLinks(tree: MdNode, shift: SourceShift, file: string, snippetsDir: string = SNIPPETS_DIR): PageLinks {
  const found = noLinks();
  const anchors = new Set<string>();
  const at = (node: Node) => {
    const start = node.position?.start ?? { line: 1, column: 1 };
    return { line: start.line + shift.lines, column: start.column + (start.line === 1 ? shift.firstColumns : 0) };
  };
  const slugger = new Slugger();
  // An explicit stack, not recursion: a deeply nested page cannot exhaust the call stack.
  const stack: Node[] = [tree];
  const order: Node[] = [];
  while (stack.length) {
    const node = stack.pop() as Node;
    order.push(node);
    for (let i = (node.children?.length ?? 0) - 1; i >= 0; i--) stack.push(node.children![i] as Node);
  }
  for (const node of order) {
    if ((node.type === 'link' || node.type === 'definition') && node.url) found.links.push({ url: node.url, ...at(node) });
    else if (node.type === 'heading') {
      // `## Title {#id}` keeps its own id; the slugger still counts the heading, as the build's does.
      const slug = slugger.slug(textOf(node));
      const own = node.data?.hProperties?.id;
      anchors.add(typeof own === 'string' ? own : slug);
    }
    else if (node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') {
      for (const attribute of node.attributes ?? []) {
        if (attribute.type !== 'mdxJsxAttribute' || typeof attribute.value !== 'string') continue;
        if (attribute.name === 'id') anchors.add(attribute.value);
        else if (attribute.name && LINK_ATTRIBUTES.has(attribute.name)) found.links.push({ url: attribute.value, ...at(node) });
        // A Snippet with children shows them and reads no file (check-content.ts).
        else if (attribute.name === 'file' && node.name === 'Snippet' && !node.children?.length) found.snippetCalls.push({ file: attribute.value, key: snippetKey(attribute.value, snippetsDir), ...at(node) });
      }
    } else if (node.type === 'html' && typeof node.value === 'string') {
      for (const match of node.value.matchAll(/\sid\s*=\s*["']([^"']+)["']/g)) anchors.add(match[1]!);
    } else if (node.type === 'mdxjsEsm' && typeof node.value === 'string') {
      for (const match of node.value.matchAll(IMPORT_SOURCE)) {
        const specifier = (match[2] ?? match[4])!;
        if (/^\.{0,2}\//.test(specifier) && /\.mdx?$/.test(specifier)) found.imports.push({ url: specifier, key: importedSnippetKey(specifier, file, snippetsDir), ...at(node) });
      }
    }
  }
  found.anchors = [...anchors];
  return found;
}

function textOf(node: Node): string {
  if (node.type === 'text' || node.type === 'inlineCode') return typeof node.value === 'string' ? node.value : '';
  return (node.children ?? []).map((child) => textOf(child as Node)).join('');
}
