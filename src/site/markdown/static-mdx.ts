// MDX pages without code, compiled once while the content collection syncs into a data tree instead
// of a JavaScript module per page (docs/decisions.md#mdx-pages-as-data). Under the default policy
// the content check already allows only literal props, built-in components and checked snippets,
// so what @astrojs/mdx would make of such a page is a fixed tree of `jsx(type, props)` calls with
// literal values. This module runs the very compile @astrojs/mdx runs (the same Sätteri processor,
// plugins, content check and Shiki), reads the module it produced with acorn as a syntax tree, and
// keeps it only if every part is one of: a jsx call whose type is an HTML tag name, Astro's Fragment
// or a component the page names, and props that are literals, arrays, plain objects or jsx calls.
// That tree is stored as JSON in the entry; static-mdx-render.ts builds the same calls from it at
// render time. Nothing of the module is ever run, and no code is made from the page: anything else
// (an import, an export, an expression, a variable) leaves the page on the MDX path, where it is
// compiled, checked and refused exactly as before.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFrontmatter } from '@astrojs/internal-helpers/frontmatter';
import { parse } from 'acorn';
import type { AstroConfig } from 'astro';
import type { Loader, LoaderContext } from 'astro/loaders';
import { MARKDOWN_FEATURES } from './features.ts';
import { withHeldWarnings } from './compile-warnings.ts';

/** The options the build gives `mdx()` (astro-config.ts); the static compile must use the same. */
export const MDX_OPTIONS = { optimize: true } as const;

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

/** Marks an entry the static compile left to the MDX path. */
const FALLBACK = 'folioMdxFallback';

/** Not a static page: the reason, for tests and for the reader. */
export class NotStatic extends Error {
  override name = 'NotStatic';
}

type AstNode = { type: string; [key: string]: unknown };

const JSX_RUNTIME = 'astro/jsx-runtime';
/** The functions of the module @astrojs/mdx's processor writes, and the exports it appends. */
const KNOWN_FUNCTIONS = new Set(['_createMdxContent', 'MDXContent', '_missingMdxReference']);
const KNOWN_EXPORTS = new Set(['frontmatter', 'getHeadings']);

/**
 * The tree of an MDX module as @astrojs/mdx's Sätteri processor writes it, or NotStatic when any
 * part of it is more than data. `code` is read as a syntax tree only.
 */
export function moduleToTree(code: string): StaticPage {
  const program = parse(code, { ecmaVersion: 'latest', sourceType: 'module' }) as unknown as { body: AstNode[] };
  const exported: Record<string, unknown> = {};
  const runtime = new Map<string, string>(); // local name -> imported name of astro/jsx-runtime
  let content: AstNode | undefined;
  for (const statement of program.body) {
    if (statement.type === 'ImportDeclaration') {
      const source = (statement.source as { value: unknown }).value;
      if (source !== JSX_RUNTIME) throw new NotStatic(`imports ${String(source)}`);
      for (const spec of statement.specifiers as AstNode[]) {
        if (spec.type !== 'ImportSpecifier') throw new NotStatic('imports a namespace or default');
        runtime.set((spec.local as { name: string }).name, (spec.imported as { name: string }).name);
      }
    } else if (statement.type === 'FunctionDeclaration') {
      const name = (statement.id as { name: string }).name;
      if (!KNOWN_FUNCTIONS.has(name)) throw new NotStatic(`defines function ${name}`);
      if (name === '_createMdxContent') content = statement;
    } else if (statement.type === 'ExportNamedDeclaration') {
      const declaration = statement.declaration as AstNode | null;
      const names = declaration?.type === 'VariableDeclaration'
        ? (declaration.declarations as AstNode[]).map((d) => (d.id as { name?: string }).name)
        : declaration?.type === 'FunctionDeclaration' ? [(declaration.id as { name: string }).name] : [undefined];
      if (!names.every((n) => n !== undefined && KNOWN_EXPORTS.has(n))) throw new NotStatic('exports something of its own');
      // The processor writes both with JSON.stringify (create-processor.js of @astrojs/markdown-satteri):
      // `export const frontmatter = {…}` and `export function getHeadings() { return […]; }`.
      const json = declaration!.type === 'VariableDeclaration'
        ? ((declaration!.declarations as AstNode[])[0]!.init as AstNode)
        : (((declaration!.body as { body: AstNode[] }).body[0] as AstNode | undefined)?.argument as AstNode | undefined);
      if (!json) throw new NotStatic('an export without a value');
      exported[names[0]!] = JSON.parse(code.slice(json.start as number, json.end as number));
    } else if (statement.type === 'ExportDefaultDeclaration') {
      const declaration = statement.declaration as AstNode;
      if (declaration.type !== 'Identifier' || declaration.name !== 'MDXContent') throw new NotStatic('another default export');
    } else {
      throw new NotStatic(`has a top-level ${statement.type}`);
    }
  }
  if (!content) throw new NotStatic('no content function');
  const components = new Map<string, string>(); // local name -> key of props.components
  let result: AstNode | undefined;
  // `_components`: the HTML elements a components map may replace (`const _components =
  // Object.assign({ p: "p", svg: "svg" }, props.components)`), written `_components.p`.
  let overridable: Set<string> | undefined;
  for (const statement of (content.body as { body: AstNode[] }).body) {
    const elements = statement.type === 'VariableDeclaration' && !overridable ? overridableElements(statement) : undefined;
    if (elements) {
      overridable = elements;
    } else if (statement.type === 'VariableDeclaration' && isComponentsDestructuring(statement, !!overridable)) {
      for (const property of ((statement.declarations as AstNode[])[0]!.id as { properties: AstNode[] }).properties) {
        const key = property.key as AstNode;
        const value = property.value as AstNode;
        if (property.type !== 'Property' || property.computed || key.type !== 'Identifier' || value.type !== 'Identifier') throw new NotStatic('reads components another way');
        components.set(value.name as string, key.name as string);
      }
    } else if (statement.type === 'IfStatement' && isMissingReferenceCheck(statement)) {
      // `if (!Note) _missingMdxReference("Note", true)`: the renderer throws the same error.
    } else if (statement.type === 'ReturnStatement' && !result) {
      result = statement.argument as AstNode;
    } else {
      throw new NotStatic(`has a ${statement.type} in its content: ${code.slice(statement.start as number, (statement.start as number) + 300)}`);
    }
  }
  if (!result) throw new NotStatic('returns nothing');
  const tree = value(result, { runtime, components, overridable: overridable ?? new Set() });
  if (!isNode(tree)) throw new NotStatic('does not return an element');
  const { frontmatter, getHeadings: headings } = exported;
  if (typeof frontmatter !== 'object' || frontmatter === null || !Array.isArray(headings)) throw new NotStatic('no frontmatter or headings');
  return { tree, frontmatter: frontmatter as Record<string, unknown>, headings };
}

/** A page as data: its tree, and the frontmatter and headings its module would export. */
export interface StaticPage {
  tree: StaticNode;
  frontmatter: Record<string, unknown>;
  headings: unknown[];
}

function isComponentsDestructuring(statement: AstNode, haveOverridable: boolean): boolean {
  const declarations = statement.declarations as AstNode[];
  if (declarations.length !== 1) return false;
  const { id, init } = declarations[0] as unknown as { id: AstNode; init: AstNode | null };
  if (id.type !== 'ObjectPattern' || !init) return false;
  // `const { A, B } = _components` (after the declaration above: props.components over the elements)
  if (haveOverridable && init.type === 'Identifier' && init.name === '_components') return true;
  // `const { A, B } = props.components || {}`
  return init.type === 'LogicalExpression' && init.operator === '||'
    && isMember(init.left as AstNode, 'props', 'components')
    && (init.right as AstNode).type === 'ObjectExpression' && ((init.right as { properties: unknown[] }).properties.length === 0);
}

/** The element names of `const _components = Object.assign({ p: "p", … }, props.components)`, else undefined. */
function overridableElements(statement: AstNode): Set<string> | undefined {
  const declarations = statement.declarations as AstNode[];
  if (declarations.length !== 1) return undefined;
  const { id, init } = declarations[0] as unknown as { id: AstNode; init: AstNode | null };
  if (id.type !== 'Identifier' || id.name !== '_components' || init?.type !== 'CallExpression') return undefined;
  const callee = init.callee as AstNode;
  const args = init.arguments as AstNode[];
  if (callee.type !== 'MemberExpression' || !isMember(callee, 'Object', 'assign') || args.length !== 2 || !isMember(args[1]!, 'props', 'components') || args[0]!.type !== 'ObjectExpression') return undefined;
  const names = new Set<string>();
  for (const property of args[0]!.properties as AstNode[]) {
    const key = property.key as AstNode;
    const v = property.value as AstNode;
    if (property.type !== 'Property' || property.computed || property.kind !== 'init' || key.type !== 'Identifier' || v.type !== 'Literal' || v.value !== key.name) return undefined;
    names.add(key.name as string);
  }
  return names;
}

function isMember(node: AstNode, object: string, property: string): boolean {
  return node.type === 'MemberExpression' && !node.computed
    && (node.object as AstNode).type === 'Identifier' && (node.object as { name: string }).name === object
    && (node.property as { name?: string }).name === property;
}

function isMissingReferenceCheck(statement: AstNode): boolean {
  const test = statement.test as AstNode;
  const consequent = statement.consequent as AstNode;
  if (statement.alternate || test.type !== 'UnaryExpression' || test.operator !== '!' || (test.argument as AstNode).type !== 'Identifier') return false;
  if (consequent.type !== 'ExpressionStatement') return false;
  const call = consequent.expression as AstNode;
  const args = call.arguments as AstNode[] | undefined;
  // Its arguments are literals (the name and a flag): the call itself is never made.
  return call.type === 'CallExpression' && (call.callee as { name?: string }).name === '_missingMdxReference'
    && !!args && args.every((a) => a.type === 'Literal');
}

const isNode = (v: StaticValue): v is StaticNode => typeof v === 'object' && v !== null && !Array.isArray(v) && 't' in v;

/** A literal value of the module as data, or NotStatic. */
/** What the content function declared: the jsx runtime's names, the page's components, the replaceable elements. */
interface Scope {
  runtime: Map<string, string>;
  components: Map<string, string>;
  overridable: Set<string>;
}

function value(node: AstNode, scope: Scope): StaticValue {
  switch (node.type) {
    case 'Literal': {
      const v = node.value;
      if (v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))) return v;
      throw new NotStatic('a regular expression or big number');
    }
    case 'TemplateLiteral': {
      const quasis = node.quasis as Array<{ value: { cooked: string | null } }>;
      if ((node.expressions as unknown[]).length || quasis.length !== 1 || quasis[0]!.value.cooked === null) throw new NotStatic('a template with expressions');
      return quasis[0]!.value.cooked;
    }
    case 'UnaryExpression': {
      const argument = node.argument as AstNode;
      if (node.operator === '-' && argument.type === 'Literal' && typeof argument.value === 'number') return -argument.value;
      throw new NotStatic(`the operator ${String(node.operator)}`);
    }
    case 'ArrayExpression':
      return (node.elements as Array<AstNode | null>).map((element) => {
        if (!element || element.type === 'SpreadElement') throw new NotStatic('an array with holes or spread');
        return value(element, scope);
      });
    case 'ObjectExpression':
      return { o: object(node, scope) };
    case 'CallExpression':
      return call(node, scope);
    default:
      throw new NotStatic(`a ${node.type}`);
  }
}

function object(node: AstNode, scope: Scope): Record<string, StaticValue> {
  const out: Record<string, StaticValue> = Object.create(null);
  for (const property of node.properties as AstNode[]) {
    if (property.type !== 'Property' || property.kind !== 'init' || property.method || property.shorthand || property.computed) throw new NotStatic('an object that is more than keys and values');
    const key = property.key as AstNode;
    const name = key.type === 'Identifier' ? key.name : key.type === 'Literal' && typeof key.value === 'string' ? key.value : undefined;
    if (typeof name !== 'string' || name === '__proto__' || Object.hasOwn(out, name)) throw new NotStatic('an object key that is not a plain name');
    out[name] = value(property.value as AstNode, scope);
  }
  return out;
}

/** `_jsx(type, {props})` (or `_jsxs`): the only call the tree may hold. */
function call(node: AstNode, scope: Scope): StaticNode {
  const { runtime, components, overridable } = scope;
  const callee = node.callee as AstNode;
  const args = node.arguments as AstNode[];
  const fn = callee.type === 'Identifier' ? runtime.get(callee.name as string) : undefined;
  if ((fn !== 'jsx' && fn !== 'jsxs') || args.length !== 2 || args[1]!.type !== 'ObjectExpression') throw new NotStatic('a call that is not a jsx call');
  const props = object(args[1]!, scope);
  const type = args[0]!;
  if (type.type === 'Literal' && typeof type.value === 'string') return { t: 'e', n: type.value, p: props };
  if (type.type === 'Identifier' && runtime.get(type.name as string) === 'Fragment') return { t: 'f', p: props };
  if (type.type === 'MemberExpression' && !type.computed && (type.object as { name?: string }).name === '_components' && overridable.has((type.property as { name: string }).name)) {
    return { t: 'o', n: (type.property as { name: string }).name, p: props };
  }
  const path: string[] = [];
  let part = type;
  while (part.type === 'MemberExpression' && !part.computed && (part.property as AstNode).type === 'Identifier') {
    path.unshift((part.property as { name: string }).name);
    part = part.object as AstNode;
  }
  const component = part.type === 'Identifier' ? components.get(part.name as string) : undefined;
  if (!component) throw new NotStatic('a jsx call of something that is not a component of the page');
  path.unshift(component);
  return { t: 'c', n: path, p: props };
}

/** The part of @astrojs/mdx's processor the static compile uses (the markdown processor's `createMdxRenderer`). */
interface MdxRenderer {
  process(content: string, filePath: string, frontmatter: Record<string, unknown>): Promise<{ code: string }>;
}
interface MdxProcessor {
  createMdxRenderer?(shared: Record<string, unknown>, mdx: Record<string, unknown>): Promise<MdxRenderer>;
}

/** The same compile @astrojs/mdx runs on a page (its vite plugin: the file's text, frontmatter blanked out). */
async function compileFile(renderer: MdxRenderer, filePath: string): Promise<StaticPage> {
  const text = await fs.promises.readFile(filePath, 'utf8');
  const { frontmatter, content } = parseFrontmatter(text, { frontmatter: 'empty-with-spaces' });
  const { code } = await renderer.process(content, filePath, frontmatter);
  return moduleToTree(code);
}

/**
 * The pages loader, with its MDX pages compiled at sync time into data trees where they can be
 * (`rendered.metadata.folioStaticMdx`), and left to the MDX module path (deferred render) where
 * they cannot. Only for builds without code: a build with code keeps every page on the MDX path.
 */
export function staticMdxPages(loader: Loader): Loader {
  return {
    ...loader,
    load: (context: LoaderContext) => {
      const { entryTypes } = context as LoaderContext & { entryTypes: Map<string, EntryType> };
      const mdx = entryTypes.get('.mdx');
      if (!mdx || mdx.getRenderFunction) return loader.load(context);
      const withStatic = new Map(entryTypes);
      withStatic.set('.mdx', { ...mdx, getRenderFunction: async (config) => staticRenderFunction(config as AstroConfig) });
      const store: LoaderContext['store'] = {
        ...context.store,
        set: (entry) => {
          const metadata = entry.rendered?.metadata as Record<string, unknown> | undefined;
          return context.store.set(metadata?.[FALLBACK] ? { ...entry, rendered: undefined, deferredRender: true } : entry);
        },
      };
      return loader.load({ ...context, store, entryTypes: withStatic } as LoaderContext);
    },
  };
}

/** What staticMdxPages uses of Astro's content entry types (its `ContentEntryType`, not exported from a public module). */
interface EntryType {
  getRenderFunction?: (config: unknown) => Promise<(entry: { id: string; filePath?: string }) => Promise<unknown>>;
}

async function staticRenderFunction(config: AstroConfig) {
  const processor = config.markdown.processor as unknown as MdxProcessor;
  // What @astrojs/mdx resolves for its own compile (its index.js, astro:config:done): the Markdown
  // config, with gfm and smart punctuation from the processor's features.
  const renderer = await processor.createMdxRenderer?.(
    { syntaxHighlight: config.markdown.syntaxHighlight, shikiConfig: config.markdown.shikiConfig, gfm: MARKDOWN_FEATURES.gfm, smartypants: MARKDOWN_FEATURES.smartPunctuation },
    { ...MDX_OPTIONS, srcDir: config.srcDir, sourcemap: false },
  );
  return async (entry: { filePath?: string }) => {
    if (!renderer || !entry.filePath) return { html: '', metadata: { [FALLBACK]: true } };
    try {
      const file = path.resolve(fileURLToPath(config.root), entry.filePath);
      // A page that falls back is compiled again on the MDX path, which logs its warnings then.
      const { tree, headings, frontmatter } = await withHeldWarnings(file, () => compileFile(renderer, file), () => true);
      return { html: '', metadata: { headings, frontmatter, imagePaths: [], folioStaticMdx: JSON.stringify(tree) } };
    } catch {
      // Not data, or refused by the content check: the MDX path compiles it again and reports
      // exactly what it reports today.
      return { html: '', metadata: { [FALLBACK]: true } };
    }
  };
}
