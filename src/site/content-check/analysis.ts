// What the content check reads and reports: the shapes shared by the walker (walker.ts), its check
// families (families/) and their callers. Types and shared wording only, so that every module of
// the check can import it without import circles.
export interface Problem {
  file: string;
  line: number;
  column: number;
  message: string;
}

export interface CheckOptions {
  /** Path relative to the content root (`content/guides/install.mdx`), used in messages. */
  file: string;
  kind: 'page' | 'snippet';
  /** Defaults to the extension of `file` (`.md` is plain Markdown, anything else MDX). */
  format?: 'md' | 'mdx';
  /** False when `text` is a body stored after a frontmatter block: none is read from it. */
  frontmatter?: boolean;
  /**
   * The project runs code: imports of its own script and content files (inside the content root),
   * `export const`, any expression, and the components it imports or defines are allowed. Every
   * other rule (elements, event handlers, script URLs, directives, images) still applies.
   */
  allowCode?: boolean;
  /** The snippets folder of the content root (`_snippets`, or `snippets` in Mintlify's layout). */
  snippetsDir?: string;
}

/** A `<Snippet file="…">` without children: the snippet it needs at build time. */
export interface SnippetCall {
  file: string;
  /** Key in the gathered snippet set, or undefined when the path leaves `_snippets/`. */
  key: string | undefined;
  line: number;
  column: number;
}

/** `import Intro from '/snippets/intro.mdx'` (or named imports of its `export const` literals). */
export interface SnippetImport {
  specifier: string;
  /** Key in the gathered snippet set. */
  key: string;
  /** Names imported from the snippet's `export const` literals. */
  named: string[];
  line: number;
  column: number;
}

export interface FoundLink {
  url: string;
  line: number;
  column: number;
}

/** A page's links, anchors and snippet uses (page-links.ts). Plain data: it crosses from a check process to the server. */
export interface PageLinks {
  links: FoundLink[];
  /** Ids of the page's headings (as the build makes them) and of its elements with an `id`. */
  anchors: string[];
  snippetCalls: SnippetCall[];
  /** Snippet imports (`import X from '/snippets/x.mdx'`); `key` is the snippet's, when it is one. */
  imports: Array<FoundLink & { key?: string }>;
}

export interface ContentAnalysis {
  problems: Problem[];
  /** What builds, but not as written (a frontmatter key Folio does not use): shown, never fatal. */
  warnings: Problem[];
  snippetCalls: SnippetCall[];
  /** Snippets this file imports, Mintlify's way. */
  snippetImports: SnippetImport[];
  /** The file's `export const name = <literal>` values (a snippet's are imported by name). */
  exports: Record<string, unknown>;
  /** `{name}` placeholders of a snippet body. */
  placeholders: string[];
  /**
   * A built-in component has a prop it does not take, or a component is used that nobody defines
   * (warnings; the build removes the prop, or puts the element's content in its place: component-props.ts).
   */
  dropsProps: boolean;
  /** The file has import or export statements (the build rewrites those of content, snippet-imports.ts). */
  hasEsm: boolean;
  /** Its links and anchors, for the broken-link check (page-links.ts); only from analyzeContent. */
  links?: PageLinks;
}

export const emptyAnalysis = (problems: Problem[] = []): ContentAnalysis => ({ problems, warnings: [], snippetCalls: [], snippetImports: [], exports: {}, placeholders: [], dropsProps: false, hasEsm: false });

export interface MdNode {
  type: string;
  name?: string | null;
  value?: unknown;
  url?: string;
  identifier?: string;
  children?: MdNode[];
  attributes?: MdAttribute[];
  /** A heading's `{#id}` attributes (the parser's headingAttributes feature). */
  data?: { hProperties?: Record<string, unknown> };
  position?: { start: { line: number; column: number } };
}

export interface MdAttribute {
  type: 'mdxJsxAttribute' | 'mdxJsxExpressionAttribute';
  name?: string;
  value?: string | null | { type: string; value: string };
}

/** Where the compiled source sits in the file: its lines move by `lines`, its first line's columns by `firstColumns`. */
export interface SourceShift {
  lines: number;
  firstColumns: number;
}

/** Something with a place in the file (a node, or a statement placed inside one). */
export type Located = { position?: MdNode['position'] } | undefined;

export type Report = (at: Located, message: string) => void;

/** One page's check as the walker runs it: what every family reads and adds to. */
export interface PageCheck {
  options: CheckOptions;
  result: ContentAnalysis;
  report: Report;
  /** Where a node is in the file. */
  place(at: Located): { line: number; column: number };
  /** Checks a node (and what is inside it) as if it stood in the page: markup in an attribute. */
  visit(node: MdNode): void;
  /** Names the file imports or defines with `export const` (only with code): usable as components. */
  declared: Set<string>;
  /** Of those, the React components: imported from a code file or react, or defined with `export const`. */
  hydrated: Set<string>;
  /** Snippets imported by default, used as components (`<Intro name="Ada" />`): content, no code. */
  snippetComponents: Set<string>;
  /** Literal values in scope: the file's `export const` literals and those imported from snippets. */
  constants: Set<string>;
}

/** The walker leaves a node's children unvisited when a family's handler returns this. */
export const SKIP_CHILDREN: unique symbol = Symbol('skip children');

/** A node handler of a family: what it checks of one node of the types it registered for. */
export type NodeCheck = (node: MdNode) => void | typeof SKIP_CHILDREN;

/**
 * One family of checks for one page: the node types it looks at, and what it does before and
 * after the walk. Made anew for each page (its state is that page's).
 */
export interface CheckFamily {
  /** Before the walk, on the tree's top-level nodes (ESM declares names used above it). */
  start?(root: MdNode): void;
  nodes: Partial<Record<string, NodeCheck>>;
  /** After the walk (references resolved against the definitions seen). */
  finish?(): void;
}

/** How a default-policy refusal of code says what would allow it. */
export const ENABLE_CODE = 'enable code for this project with allow_code: true (npm run build:site -- --allow-code; see "Code in pages" in the docs) to use it';

/** A value quoted in a message: one line, at most 60 characters. */
export function shorten(s: string): string {
  const one = s.trim().replace(/\s+/g, ' ');
  return one.length > 60 ? `${one.slice(0, 57)}...` : one;
}
