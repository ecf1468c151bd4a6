// The shape of a static MDX page's tree (static-mdx.ts): what the compile keeps, the module reader
// (static-mdx-module.ts) makes and the renderer (static-mdx-render.ts) reads. In a module of its
// own so that none of them imports another for its types.

/**
 * One value of the tree, as JSON: a string, number, boolean or null as itself; an array as an
 * array; a plain object as `{o: {...}}`; a jsx call as `{t, n, p}` (StaticNode).
 */
export type StaticValue = string | number | boolean | null | StaticValue[] | { o: Record<string, StaticValue> } | StaticNode;

/**
 * A jsx call: `t` is `e` (an HTML element, `n` its tag name), `o` (an HTML element the components
 * map may replace, as `_components.p` in MDX), `c` (a component of the page's components map, `n`
 * its name and property path, such as ["Tree", "Folder"]) or `f` (Astro's Fragment); `p` its props.
 */
export interface StaticNode {
  t: 'e' | 'o' | 'c' | 'f';
  n?: string | string[];
  p: Record<string, StaticValue>;
}

/** What a static page's entry keeps in `rendered.metadata` (besides Astro's headings and frontmatter). */
export interface StaticMdxMetadata {
  /**
   * The tree as JSON text: Astro's data store serializes entries with devalue, which walks an
   * object node by node (and makes as many objects again when the store is loaded to render); a
   * string is one value. On 1,000 component-heavy pages that was ~0.3 s of CPU and its garbage.
   */
  folioStaticMdx: string;
}

/** A page as data: its tree, and the frontmatter and headings its module would export. */
export interface StaticPage {
  tree: StaticNode;
  frontmatter: Record<string, unknown>;
  headings: unknown[];
}
