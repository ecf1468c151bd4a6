// Renders an MDX page kept as data (static-mdx.ts) with the same `jsx(type, props)` calls its MDX
// module would make, from the tree alone: tag names, Astro's Fragment and the components of the map
// the page is rendered with, and literal props. The result is the Content component @astrojs/mdx
// would export (its vite-plugin-mdx-postprocess.js): Astro renders it with the same JSX renderer, so
// the page's HTML is byte for byte what the MDX path gives (test/site/static-mdx.test.ts).
import { Fragment, jsx } from 'astro/jsx-runtime';
import { Renderer } from 'astro/runtime/server/index.js';
import { MARKUP, expandMarkup, type Markup } from '../components/mintlify/html-components.ts';
import type { StaticMdxMetadata, StaticNode, StaticValue } from './static-mdx-tree.ts';

type Components = Record<string, unknown>;

/** What a page is rendered with: the components map, and the page's path (named in components' warnings). */
interface Page {
  components: Components;
  path: string;
}

function build(value: StaticValue, page: Page): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => build(v, page));
  if ('o' in value) return buildProps(value.o, page);
  return buildNode(value, page);
}

function buildProps(props: Record<string, StaticValue>, page: Page): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // The compile never writes a `__proto__` key (static-mdx.ts); skipping it here too keeps any tree data only.
  for (const [key, v] of Object.entries(props)) if (key !== '__proto__') out[key] = build(v, page);
  return out;
}

function buildNode(node: StaticNode, page: Page): unknown {
  const { components } = page;
  // Children first, as the module's nested calls evaluate them (jsx() moves their slots).
  const props = buildProps(node.p, page);
  if (node.t === 'e') return jsx(node.n as string, props);
  if (node.t === 'f') return jsx(Fragment, props);
  // `_components.p` of MDX: the map's own `p` if it has one, else the element.
  if (node.t === 'o') return jsx(Object.hasOwn(components, node.n as string) ? components[node.n as string] : node.n, props);
  const path = node.n as string[];
  let type: unknown = Object.hasOwn(components, path[0]!) ? components[path[0]!] : undefined;
  for (const part of path.slice(1)) type = type && (typeof type === 'object' || typeof type === 'function') && Object.hasOwn(type, part) ? (type as Record<string, unknown>)[part] : undefined;
  // The module's own error (_missingMdxReference) for a component the map lacks.
  if (!type) throw new Error(`Expected component \`${path.join('.')}\` to be defined: you likely forgot to import, pass, or provide it.`);
  // A component written as markup (html-components.ts) is put into the page as its markup, with no component instance.
  if (typeof type === 'function' && MARKUP in type) return expandMarkup(type[MARKUP] as Markup, props, page.path);
  return jsx(type, props);
}

/** The page's Content component, as @astrojs/mdx exports it from a page module. */
function staticContent(tree: StaticNode, file: string) {
  // `page`: the page's path, which page.astro passes (an MDX module's Content ignores it).
  const Content = (props: { components?: Components; page?: string } = {}) => build(tree, { components: { Fragment, ...props.components }, path: props.page ?? '' });
  Object.assign(Content, { [Symbol.for('mdx-component')]: true, [Symbol.for('astro.needsHeadRendering')]: true, moduleId: file });
  // Rendered by Astro's JSX renderer, as __astro_tag_component__ marks an MDX module's Content.
  Object.defineProperty(Content, Renderer, { value: 'astro:jsx', enumerable: false, writable: false });
  return Content;
}

interface Entry {
  filePath?: string;
  rendered?: { metadata?: Record<string, unknown> };
}

/**
 * What `render(entry)` of astro:content gives for an MDX page, when the page was kept as data
 * (its Content and headings); undefined for any other entry (render it as usual).
 */
export function renderStaticMdx(entry: Entry): { Content: ReturnType<typeof staticContent>; headings: Array<{ depth: number; slug: string; text: string }>; usesComponents: boolean } | undefined {
  const metadata = entry.rendered?.metadata as (Partial<StaticMdxMetadata> & { headings?: Array<{ depth: number; slug: string; text: string }> }) | undefined;
  if (!metadata?.folioStaticMdx) return undefined;
  const tree = JSON.parse(metadata.folioStaticMdx) as StaticNode;
  return { Content: staticContent(tree, entry.filePath ?? ''), headings: metadata.headings ?? [], usesComponents: hasComponent(tree) };
}

/** Whether the tree calls a component of the map (a `c` node other than Astro's Fragment, which holds compiled HTML), in its children or in any prop. */
function hasComponent(root: StaticValue): boolean {
  // Iterative: a tree's depth is the author's.
  const stack: StaticValue[] = [root];
  while (stack.length > 0) {
    const value = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (!Array.isArray(value) && !('o' in value) && value.t === 'c' && !(Array.isArray(value.n) && value.n.length === 1 && value.n[0] === 'Fragment')) return true;
    for (const child of Array.isArray(value) ? value : Object.values('o' in value ? value.o : value.p)) stack.push(child);
  }
  return false;
}
