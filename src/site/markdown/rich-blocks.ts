// Math and diagrams, as Mintlify authors write them (a Sätteri hast plugin of the build):
//
// - `$…$` and `$$…$$` (Sätteri's math feature, markdown/features.ts) are typeset at build time with
//   KaTeX into HTML; the page links KaTeX's stylesheet, served with its fonts from the site itself
//   (`/_folio/katex/`). KaTeX runs with `trust: false`, so no `\href`/`\url` to a script URL and no
//   raw HTML comes out of an author's formula. A `$` pair around text that starts or ends with a
//   space ("costs $5 and $10") is text, not math.
// - ```` ```mermaid ```` blocks become `<pre class="mermaid">` (the diagram's source, as text) and the
//   page loads Mermaid's browser build and a small starter from the site itself
//   (`/_folio/mermaid.min.js`, `/_folio/mermaid-start.js`), only on pages that have a diagram;
//   Mermaid runs with `securityLevel: 'strict'` (no script, no HTML labels from the diagram).
// The site gets those files only when one of its pages uses them (SiteAssets, copied after the build
// by folioAssets below).
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import katex from 'katex';
import { htmlToHast, type HastPluginDefinition, type HastPluginEntry, type PluginFactoryContext } from 'satteri';
import type { AstroIntegration } from 'astro';
import { projectDir } from '../settings.ts';
import { EMBED_SANDBOX } from '../embeds.ts';

/** What the pages of one build used, so the build adds the files they need. */
export interface SiteAssets {
  math: boolean;
  mermaid: boolean;
}

export const KATEX_CSS = '/_folio/katex/katex.min.css';
export const MERMAID_SCRIPTS = ['/_folio/mermaid.min.js', '/_folio/mermaid-start.js'];

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

export function richBlocksPlugin(assets: SiteAssets): HastPluginEntry {
  return (_ctx: PluginFactoryContext) => {
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
          assets.math = true;
          extra.push({ type: 'element', tagName: 'link', properties: { rel: ['stylesheet'], href: KATEX_CSS }, children: [] });
        }
        if (mermaid) {
          assets.mermaid = true;
          for (const src of MERMAID_SCRIPTS) extra.push({ type: 'element', tagName: 'script', properties: { src, defer: true }, children: [] });
        }
        if (extra.length) ctx.appendChild(root, extra as never);
      },
    } satisfies HastPluginDefinition;
  };
}

/** Adds the files the pages of the build used (KaTeX's stylesheet and fonts, Mermaid) to the site. */
export function folioAssets(assets: SiteAssets): AstroIntegration {
  return {
    name: 'folio-assets',
    hooks: {
      'astro:build:done': async ({ dir }) => {
        const out = path.join(fileURLToPath(dir), '_folio');
        if (assets.math) {
          const katexDist = path.join(projectDir, 'node_modules/katex/dist');
          await fs.mkdir(path.join(out, 'katex'), { recursive: true });
          await fs.copyFile(path.join(katexDist, 'katex.min.css'), path.join(out, 'katex/katex.min.css'));
          await fs.cp(path.join(katexDist, 'fonts'), path.join(out, 'katex/fonts'), { recursive: true });
        }
        if (assets.mermaid) {
          await fs.mkdir(out, { recursive: true });
          await fs.copyFile(path.join(projectDir, 'node_modules/mermaid/dist/mermaid.min.js'), path.join(out, 'mermaid.min.js'));
          await fs.copyFile(path.join(projectDir, 'src/site/client/mermaid-start.js'), path.join(out, 'mermaid-start.js'));
        }
      },
    },
  };
}
