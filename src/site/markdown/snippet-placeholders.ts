// Sätteri plugins that turn `{name}` placeholders in snippet files (under the snippets folder (`_snippets/`, `snippets/`)) into a call
// of the `fill` prop the Snippet component passes: it returns vars[name] as plain text, or the
// visible `{name}` with a build warning. Placeholders in code blocks and inline code are filled
// too (swapped for a marker that survives highlighting, then split out in the HTML tree), and so
// are component attributes written as `method={verb}`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  HastPluginDefinition,
  HastPluginEntry,
  HastVisitorContext,
  MdastPluginDefinition,
  MdastPluginEntry,
  MdastVisitorContext,
  MdxJsxFlowElementHast,
  MdxJsxTextElementHast,
  PluginFactoryContext,
} from 'satteri';
import { COMPONENT_NAMES } from '../components/catalog.ts';
import { contentLayout } from '../layout.ts';
import type { Code, InlineCode } from 'mdast';

/** A placeholder written as an expression (`{name}`, `method={name}`): the expression's source. */
export const PLACEHOLDER_EXPR = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*$/;
/** Every `{name}` placeholder in a text. */
export const PLACEHOLDER_TEXT = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
// Letters only, so highlighters keep it inside one token.
const MARKER = /FOLIOPLACEHOLDERx([A-Za-z0-9_]+?)xEND/g;
const marker = (name: string) => `FOLIOPLACEHOLDERx${name}xEND`;

/** JS for a placeholder: the value the Snippet gives (or a prop), or the literal text when rendered without one. */
function fillExpression(name: string): string {
  const n = JSON.stringify(name);
  // A snippet imported as a component by a page with code (`<Greeting who="Ada" />`, compiled as an
  // MDX import) gets its values as props.
  return `(typeof props.fill === "function" ? props.fill(${n}) : typeof props[${n}] === "string" || typeof props[${n}] === "number" ? String(props[${n}]) : ${JSON.stringify(`{${name}}`)})`;
}

function isSnippetFile(snippetsDir: string, ctx: PluginFactoryContext): boolean {
  if (!ctx.fileURL || ctx.fileURL.protocol !== 'file:') return false;
  const rel = path.relative(snippetsDir, fileURLToPath(ctx.fileURL));
  return !!rel && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** Applies `plugin` to MDX files under the content root's snippets folder only. */
function inSnippets<P>(contentRoot: string, plugin: P) {
  const snippetsDir = path.join(contentRoot, contentLayout(contentRoot).snippetsDir);
  return (ctx: PluginFactoryContext) => (ctx.sourceFormat === 'mdx' && isSnippetFile(snippetsDir, ctx) ? plugin : null);
}

function markCode<N extends Code | InlineCode>(node: Readonly<N>, ctx: MdastVisitorContext) {
  const marked = node.value.replace(PLACEHOLDER_TEXT, (_, n: string) => marker(n));
  if (marked !== node.value) ctx.setProperty<N, 'value'>(node, 'value', marked);
}

export function snippetMdastPlugin(contentRoot: string): MdastPluginEntry {
  return inSnippets(contentRoot, {
    name: 'folio-snippet-placeholders',
    code: markCode,
    inlineCode: markCode,
  } satisfies MdastPluginDefinition);
}

type JsxElement = MdxJsxFlowElementHast | MdxJsxTextElementHast;

/** `<ApiMethod method={verb} />` in a snippet: the attribute takes vars.verb (Snippet itself is excluded by the checker). */
function fillAttributes(node: Readonly<JsxElement>, ctx: HastVisitorContext) {
  let changed = false;
  const attributes = node.attributes.map((attr) => {
    const source = attr.type === 'mdxJsxAttribute' && attr.value && typeof attr.value === 'object' ? attr.value.value : undefined;
    const name = source === undefined ? undefined : PLACEHOLDER_EXPR.exec(source)?.[1];
    if (attr.type !== 'mdxJsxAttribute' || !name) return attr;
    changed = true;
    return { type: 'mdxJsxAttribute' as const, name: attr.name, value: { type: 'mdxJsxAttributeValueExpression' as const, value: fillExpression(name) } };
  });
  if (changed) ctx.replaceNode(node, { ...node, attributes } as JsxElement);
}

export function snippetHastPlugin(contentRoot: string): HastPluginEntry {
  return inSnippets(contentRoot, {
    name: 'folio-snippet-placeholders',
    mdxJsxFlowElement: { filter: [...COMPONENT_NAMES], visit: fillAttributes },
    mdxJsxTextElement: { filter: [...COMPONENT_NAMES], visit: fillAttributes },
    mdxTextExpression(node, c) {
      const name = PLACEHOLDER_EXPR.exec(node.value)?.[1];
      if (name) c.replaceNode(node, { type: 'mdxTextExpression', value: fillExpression(name) });
    },
    mdxFlowExpression(node, c) {
      const name = PLACEHOLDER_EXPR.exec(node.value)?.[1];
      if (name) c.replaceNode(node, { type: 'mdxFlowExpression', value: fillExpression(name) });
    },
    text(node, c) {
      if (!node.value.includes('FOLIOPLACEHOLDERx')) return;
      // split() with one capture group alternates text, name, text, name, …
      const nodes = node.value
        .split(MARKER)
        .map((part, i) =>
          i % 2 === 1 ? ({ type: 'mdxTextExpression', value: fillExpression(part) } as const) : ({ type: 'text', value: part } as const),
        )
        .filter((n) => n.type !== 'text' || n.value !== '');
      c.replaceNode(node, nodes);
    },
  } satisfies HastPluginDefinition);
}
