// Math and diagrams, as Mintlify authors write them (a Sätteri hast plugin of the build):
//
// - `$…$` and `$$…$$` (Sätteri's math feature, markdown/features.ts) are typeset at build time with
//   KaTeX into HTML; the page links KaTeX's stylesheet, served with its fonts from the site itself
//   (`/_folio/katex/`). KaTeX runs with `trust: false`, so no `\href`/`\url` to a script URL and no
//   raw HTML comes out of an author's formula. A `$` pair around text that starts or ends with a
//   space ("costs $5 and $10") is text, not math.
// - ```` ```mermaid ```` blocks become `<pre class="mermaid">` (the diagram's source, as text) and the
//   page loads Mermaid's browser build from the site itself, only on pages that have a diagram; it
//   draws every `.mermaid` element when the page has loaded, with Mermaid's default
//   `securityLevel: 'strict'` (no script, no HTML labels from the diagram).
// The site gets those files only when one of its pages refers to them (components/mintlify/vendor.ts,
// shared with the Latex and Mermaid components).
import katex from 'katex';
import { htmlToHast, type HastPluginDefinition, type HastPluginEntry, type PluginFactoryContext } from 'satteri';
import { KATEX_CSS, MERMAID_JS } from '../components/mintlify/vendor.ts';
import { EMBED_SANDBOX } from '../embeds.ts';


interface ElementLike {
  type: 'element';
  tagName: string;
  properties?: Record<string, unknown>;
  children?: Array<{ type: string; value?: string; tagName?: string; properties?: Record<string, unknown>; children?: unknown[] }>;
}

const classesOf = (node: { properties?: Record<string, unknown> } | undefined): string[] => {
  const c = node?.properties?.className;
  return Array.isArray(c) ? c.map(String) : typeof c === 'string' ? c.split(/\s+/) : [];
};

function typeset(tex: string, displayMode: boolean): string {
  // The MathML namespace attribute is implied in HTML (and a JSX renderer would mangle it).
  return katex
    .renderToString(tex, { displayMode, throwOnError: false, trust: false, output: 'htmlAndMathml', strict: 'ignore' })
    .replaceAll(' xmlns="http://www.w3.org/1998/Math/MathML"', '');
}

interface JsxLike {
  attributes: Array<{ type: string; name?: string; value?: unknown }>;
}

function sandboxEmbed(node: unknown, ctx: { replaceNode(node: never, next: never): void }) {
  const element = node as JsxLike;
  const own = new Set(['sandbox', 'referrerpolicy', 'referrerPolicy', 'loading']);
  const attributes = [
    ...element.attributes.filter((a) => !(a.type === 'mdxJsxAttribute' && a.name && own.has(a.name))),
    { type: 'mdxJsxAttribute', name: 'sandbox', value: EMBED_SANDBOX },
    { type: 'mdxJsxAttribute', name: 'referrerpolicy', value: 'strict-origin-when-cross-origin' },
    { type: 'mdxJsxAttribute', name: 'loading', value: 'lazy' },
  ];
  ctx.replaceNode(node as never, { ...(node as object), attributes } as never);
}

/** HTML (KaTeX's, which escapes the formula) as hast nodes to put in the page. */
function fragment(html: string): never {
  const tree = htmlToHast(html, { fragment: true }) as { children?: unknown[] };
  return (tree.children ?? []) as never;
}

/** What a source needs for this plugin to change anything: math, a Mermaid block, an iframe. */
const RICH_SOURCE = /\$|mermaid|iframe/i;

export function richBlocksPlugin(): HastPluginEntry {
  return (ctx: PluginFactoryContext) => {
    // A page with no `$`, no Mermaid block and no iframe has nothing for this plugin: it skips the
    // walk (most pages of most sites).
    if (!RICH_SOURCE.test(ctx.source)) return null;
    let math = false;
    let mermaid = false;
    return {
      name: 'folio-rich-blocks',
      element: {
        filter: ['code', 'pre'],
        visit(node, ctx) {
          const element = node as unknown as ElementLike;
          if (element.tagName === 'code') {
            // Inline math: <code class="language-math math-inline">
            if (!classesOf(element).includes('math-inline')) return;
            const tex = ctx.textContent(node);
            if (/^\s|\s$/.test(tex) || !tex) {
              ctx.replaceNode(node, { type: 'text', value: `$${tex}$` });
              return;
            }
            math = true;
            ctx.replaceNode(node, fragment(typeset(tex, false)));
            return;
          }
          const code = element.children?.find((c) => c.type === 'element' && c.tagName === 'code');
          const classes = classesOf(code as ElementLike | undefined);
          if (classes.includes('math-display')) {
            math = true;
            const tex = ctx.textContent(code as never);
            ctx.replaceNode(node, fragment(`<div class="math-display">${typeset(tex, true)}</div>`));
          } else if (classes.includes('language-mermaid')) {
            mermaid = true;
            const source = ctx.textContent(code as never).replace(/\n$/, '');
            ctx.replaceNode(node, {
              type: 'element',
              tagName: 'div',
              properties: { className: ['mermaid-diagram'] },
              children: [{ type: 'element', tagName: 'pre', properties: { className: ['mermaid'] }, children: [{ type: 'text', value: source }] }],
            } as never);
          }
        },
      },
      // <iframe> embeds (allowed origins only, content-check) always get Folio's sandbox.
      mdxJsxFlowElement: { filter: ['iframe'], visit: sandboxEmbed },
      mdxJsxTextElement: { filter: ['iframe'], visit: sandboxEmbed },
      after(root, ctx) {
        const extra: unknown[] = [];
        if (math) {
          extra.push({ type: 'element', tagName: 'link', properties: { rel: ['stylesheet'], href: KATEX_CSS }, children: [] });
        }
        if (mermaid) extra.push({ type: 'element', tagName: 'script', properties: { src: MERMAID_JS, defer: true }, children: [] });
        if (extra.length) ctx.appendChild(root, extra as never);
      },
    } satisfies HastPluginDefinition;
  };
}
