// How a fenced code block renders (Shiki transformers, run by the build's highlighter): the options
// Mintlify authors write after the language, and one element per block that other parts read.
//
//   ```ts api/client.ts {1,3-5} lines wrap expandable icon="code"
//
// - the title (here `api/client.ts`: every word that is not an option) and the language go into
//   `data-title` and `data-language` of the block's `div.code-block` (CodeGroup reads them as tab
//   labels) and into its title bar, beside a Copy button, so the button never covers code;
// - `{1,3-5}` highlights lines, `lines` numbers them, `wrap` wraps long lines, `expandable`
//   shows a long block folded with a button to unfold it, `icon` (a Font Awesome or Lucide name)
//   shows before the title and is kept in `data-icon`;
// - Shiki's notations in code comments: `[!code ++]`/`[!code --]` (diff), `[!code focus]`,
//   `[!code highlight]` (https://shiki.style/packages/transformers).
// The Copy and unfold buttons are wired by a small script (client/code-blocks.ts).
import type { Element, ElementContent, Root } from 'hast';
import type { ShikiTransformer } from 'shiki';
import { htmlToHast } from 'satteri';
import { namedIconSvg } from '../components/mintlify/icons.ts';
import { transformerMetaHighlight, transformerNotationDiff, transformerNotationFocus, transformerNotationHighlight } from '@shikijs/transformers';

export interface CodeMeta {
  title: string;
  lines: boolean;
  wrap: boolean;
  expandable: boolean;
  icon?: string;
}

const FLAGS = new Set(['lines', 'wrap', 'expandable']);

/**
 * Shiki stops colouring a line after 500 ms by default, so on a busy build machine the same page
 * could come out coloured differently from one build to the next (and a fast redeploy would then
 * differ from a full build: docs/decisions.md#fast-redeploys). A limit far above any real line
 * keeps the output a function of the page alone; the build timeout still bounds a hostile page.
 */
const TOKENIZE_LIMIT_MS = 20_000;
const steadyTokenizing: ShikiTransformer = {
  name: 'folio:steady-tokenizing',
  preprocess(code, options) {
    options.tokenizeTimeLimit = TOKENIZE_LIMIT_MS;
    return code;
  },
};

/** Reads the words after a fence's language (`title {1,3} lines icon="x" theme={null}`). */
export function parseCodeMeta(meta: string | undefined): CodeMeta {
  const result: CodeMeta = { title: '', lines: false, wrap: false, expandable: false };
  if (!meta) return result;
  const title: string[] = [];
  // key="value", key='value', key={…}, {ranges}, or a bare word.
  const token = /(\w[\w-]*)=("[^"]*"|'[^']*'|\{[^}]*\}|\S+)|\{[^}]*\}|"([^"]*)"|(\S+)/g;
  for (const m of meta.matchAll(token)) {
    if (m[1]) {
      const value = m[2]!.replace(/^["'{]|["'}]$/g, '');
      if (m[1] === 'icon') result.icon = value;
      else if (m[1] === 'title' || m[1] === 'filename') title.push(value);
      continue; // highlight={…}, theme={null} and the like: options, not title
    }
    if (m[0].startsWith('{')) continue; // line ranges: transformerMetaHighlight reads them
    const word = m[3] ?? m[4] ?? '';
    if (FLAGS.has(word)) result[word as 'lines' | 'wrap' | 'expandable'] = true;
    else title.push(word);
  }
  result.title = title.join(' ');
  return result;
}

const el = (tagName: string, properties: Element['properties'], children: ElementContent[] = []): Element => ({ type: 'element', tagName, properties, children });
const txt = (value: string): ElementContent => ({ type: 'text', value });

/** Wraps each highlighted `<pre>` in `div.code-block` with its title bar. */
function codeBlockTransformer(): ShikiTransformer {
  return {
    name: 'folio-code-block',
    root(root: Root) {
      const pre = root.children.find((c): c is Element => c.type === 'element' && c.tagName === 'pre');
      if (!pre) return;
      const meta = parseCodeMeta(this.options.meta?.__raw);
      const language = this.options.lang && this.options.lang !== 'plaintext' && this.options.lang !== 'text' ? this.options.lang : '';
      const classes = ['code-block', ...(['lines', 'wrap', 'expandable'] as const).filter((f) => meta[f])];
      const label = meta.title || language;
      // A named icon (Font Awesome or Lucide, as the Icon component draws them) before the title.
      const svg = meta.icon ? namedIconSvg(meta.icon) : undefined;
      const icon = svg ? ((htmlToHast(svg, { fragment: true }) as { children?: ElementContent[] }).children ?? []) : [];
      const bar = el('div', { className: ['code-block-bar'] }, [
        ...icon,
        el('span', { className: ['code-block-title'] }, label ? [txt(label)] : []),
        ...(meta.expandable ? [el('button', { type: 'button', className: ['code-block-expand'], ariaExpanded: 'false' }, [txt('Expand')])] : []),
        el('button', { type: 'button', className: ['code-block-copy'], ariaLabel: label ? `Copy ${label}` : 'Copy code' }, [txt('Copy')]),
      ]);
      const properties: Element['properties'] = { className: classes, dataTitle: meta.title, dataLanguage: language };
      if (meta.icon) properties.dataIcon = meta.icon;
      root.children = root.children.map((c) => (c === pre ? el('div', properties, [bar, pre]) : c));
    },
  };
}

/** Every transformer the build's highlighter runs, in order. */
export function codeBlockTransformers(): ShikiTransformer[] {
  return [
    steadyTokenizing,
    transformerMetaHighlight(),
    transformerNotationDiff({ matchAlgorithm: 'v3' }),
    transformerNotationFocus({ matchAlgorithm: 'v3' }),
    transformerNotationHighlight({ matchAlgorithm: 'v3' }),
    codeBlockTransformer(),
  ];
}
