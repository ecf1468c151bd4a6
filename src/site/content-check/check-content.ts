// The one checker for untrusted MDX/Markdown (shared by the site build and the pages API):
// parses a page or snippet and reports every problem with file:line:column.
// MDX is JavaScript: imports, exports and expressions would run on the build machine, so only
// literal values are allowed; components are limited to Folio's own set.
import path from 'node:path';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkMdx from 'remark-mdx';
// Astro's own frontmatter reader (YAML or TOML, after blank lines, ending at the first line that
// starts with --- or +++): the check must see the frontmatter and the body the build will compile.
import { parseFrontmatter } from '@astrojs/internal-helpers/frontmatter';
import type { Node as EstreeNode, Program } from 'estree';
import { CALLOUT_KINDS, COMPONENT_NAMES, HTTP_METHODS, normalizeMethod } from '../components/catalog.ts';
import { snippetKey } from '../snippet-paths.ts';
import { PLACEHOLDER_EXPR } from '../markdown/snippet-placeholders.ts';
import { pageImportProblem } from '../code/imports.ts';
import { containsScriptUrl, EVENT_HANDLER_SOURCE, FORBIDDEN_ELEMENT_SOURCE, FORBIDDEN_ELEMENTS, isScriptUrl } from './script-urls.ts';

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
   * The project has code enabled: imports of code and content files inside the content root,
   * `export const`, expressions and components that are not Folio's are allowed; every other rule
   * stays.
   */
  allowCode?: boolean;
}

/** A `<Snippet file="…">` without children: the snippet it needs at build time. */
export interface SnippetCall {
  file: string;
  /** Key in the gathered snippet set, or undefined when the path leaves `_snippets/`. */
  key: string | undefined;
  line: number;
  column: number;
}

export interface ContentAnalysis {
  problems: Problem[];
  snippetCalls: SnippetCall[];
  /** `{name}` placeholders of a snippet body. */
  placeholders: string[];
}

/** Formats a problem the way build logs and API errors show it. */
export function formatProblem(p: Problem): string {
  return p.file ? `${p.file}:${p.line}:${p.column}: ${p.message}` : p.message;
}

/** Every problem of one page or snippet; an empty list means it may be built. */
export function checkContent(text: string, options: CheckOptions): Problem[] {
  return analyzeContent(text, options).problems;
}

// Frontmatter is taken off first, as Astro does; these parse what Astro compiles.
const mdxParser = unified().use(remarkParse).use(remarkMdx);
const mdParser = unified().use(remarkParse);

/** Astro's template directives (`set:html`, `is:raw`, `define:vars`, `client:load` …). */
const ASTRO_DIRECTIVE = /^(?:set|is|define|client|server|transition):/i;
const AVAILABLE = `available components: ${COMPONENT_NAMES.join(', ')}`;
/** How an author whose page holds code gets it built. */
export const ENABLE_CODE = 'to use code, enable it for the project with allow_code: true (see "Code in pages" in the docs; npm run build:site -- <root> <out> --allow-code)';

interface MdNode {
  type: string;
  name?: string | null;
  value?: unknown;
  url?: string;
  identifier?: string;
  children?: MdNode[];
  attributes?: MdAttribute[];
  data?: { estree?: Program | null };
  position?: { start: { line: number; column: number } };
}

interface MdAttribute {
  type: 'mdxJsxAttribute' | 'mdxJsxExpressionAttribute';
  name?: string;
  value?: string | null | { type: string; value: string; data?: { estree?: Program | null } };
  position?: { start: { line: number; column: number } };
}

export function analyzeContent(text: string, options: CheckOptions): ContentAnalysis {
  const format = options.format ?? (options.file.endsWith('.md') ? 'md' : 'mdx');
  const result: ContentAnalysis = { problems: [], snippetCalls: [], placeholders: [] };
  const report = (at: { position?: MdNode['position'] } | undefined, message: string) => {
    const start = at?.position?.start ?? { line: 1, column: 1 };
    result.problems.push({ file: options.file, line: start.line, column: start.column, message });
  };

  const body = options.frontmatter === false ? text : readFrontmatter(text, report);
  if (body === undefined) return result;
  let tree: MdNode;
  try {
    tree = (format === 'md' ? mdParser : mdxParser).parse(body) as MdNode;
  } catch (error) {
    const e = error as ParseError;
    const at = syntaxErrorPlace(e);
    result.problems.push({ file: options.file, line: at.line, column: at.column, message: `MDX syntax error: ${e.reason ?? e.message}` });
    return result;
  }

  const definitions = new Map<string, MdNode>();
  const imageReferences = new Set<string>();
  const visit = (node: MdNode) => {
    switch (node.type) {
      case 'mdxjsEsm':
        if (options.allowCode) checkCodeImports(node, options.file, report);
        else report(node, `import and export are not allowed in Folio content (they would run code at build time): ${shorten(String(node.value ?? '').split('\n')[0] ?? '')}; ${ENABLE_CODE}`);
        return;
      case 'mdxFlowExpression':
      case 'mdxTextExpression':
        if (!options.allowCode) checkExpression(node, options.kind, result, report);
        return;
      case 'mdxJsxFlowElement':
      case 'mdxJsxTextElement':
        checkElement(node, options, result, report);
        break;
      case 'image':
        checkImageFile(node, report);
        checkLocalUrl(node, options.file, report);
        checkScriptUrl(node, report);
        break;
      case 'definition':
        if (node.identifier) definitions.set(node.identifier, node);
        checkLocalUrl(node, options.file, report);
        checkScriptUrl(node, report);
        break;
      case 'imageReference':
        if (node.identifier) imageReferences.add(node.identifier);
        break;
      case 'link':
        checkScriptUrl(node, report);
        break;
      case 'html':
        checkRawHtml(node, report);
        break;
    }
    for (const child of node.children ?? []) visit(child);
  };
  visit(tree);
  for (const id of imageReferences) {
    const definition = definitions.get(id);
    if (definition) checkImageFile(definition, report);
  }
  return result;
}

/** What micromark and remark-mdx throw (a VFileMessage): `place` is a point or a position. */
interface ParseError {
  message: string;
  reason?: string;
  line?: number;
  column?: number;
  place?: { line: number; column: number } | { start: { line: number; column: number } };
}

/**
 * Where a syntax error is. A tag left open at the end of the file is thrown without a place, its
 * opening tag's position only in the reason (`… for \`<Callout>\` (5:1-5:22)`): read from there.
 */
function syntaxErrorPlace(e: ParseError): { line: number; column: number } {
  const place = e.place && 'start' in e.place ? e.place.start : e.place;
  if (place) return { line: place.line, column: place.column };
  if (e.line && e.column) return { line: e.line, column: e.column };
  const inReason = /\((\d+):(\d+)-\d+:\d+\)/.exec(e.reason ?? e.message);
  if (inReason) return { line: Number(inReason[1]), column: Number(inReason[2]) };
  return { line: 1, column: 1 };
}

type Report = (at: { position?: MdNode['position'] } | undefined, message: string) => void;

/**
 * Checks the frontmatter as Astro reads it; returns the body Astro compiles (the frontmatter blanked
 * out, so lines and columns stay), or undefined when the frontmatter cannot be read.
 */
function readFrontmatter(text: string, report: Report): string | undefined {
  let parsed: ReturnType<typeof parseFrontmatter>;
  try {
    parsed = parseFrontmatter(text, { frontmatter: 'empty-with-spaces' });
  } catch (error) {
    const language = /^\uFEFF?\s*\+\+\+/.test(text) ? 'TOML' : 'YAML';
    report(undefined, `frontmatter is not valid ${language}: ${(error as { reason?: string }).reason ?? (error as Error).message.split('\n')[0]}`);
    return undefined;
  }
  if (parsed.rawFrontmatter) checkFrontmatter(parsed.frontmatter, report);
  return parsed.content;
}

function checkFrontmatter(fm: Record<string, unknown>, report: Report) {
  const node = undefined; // frontmatter problems are reported at 1:1
  if (Array.isArray(fm)) {
    report(node, 'frontmatter must be a mapping of keys to values');
    return;
  }
  if ('layout' in fm) report(node, 'frontmatter key "layout" is not allowed (it would import code at build time)');
  for (const key of ['title', 'description'] as const) {
    if (key in fm && typeof fm[key] !== 'string') report(node, `frontmatter "${key}" must be a string`);
  }
  if ('order' in fm && (typeof fm.order !== 'number' || !Number.isFinite(fm.order))) {
    report(node, 'frontmatter "order" must be a number');
  }
}

function checkExpression(node: MdNode, kind: CheckOptions['kind'], result: ContentAnalysis, report: Report) {
  const source = String(node.value ?? '');
  const program = node.data?.estree;
  if (!program || program.body.length === 0) return; // `{/* comment */}` or `{}`
  if (kind === 'snippet') {
    const name = PLACEHOLDER_EXPR.exec(source)?.[1];
    if (name) {
      if (!result.placeholders.includes(name)) result.placeholders.push(name);
      return;
    }
  }
  const statement = program.body[0];
  if (program.body.length === 1 && statement?.type === 'ExpressionStatement' && isLiteral(statement.expression)) return;
  report(node, `expression {${shorten(source)}} is not allowed: only literal values (strings, numbers, objects, arrays) and {/* comments */} may appear in braces${kind === 'snippet' ? ', and {name} placeholders in snippets' : ''}; ${ENABLE_CODE}`);
}

/** With code enabled, ESM may import only files inside the content root (and React); no re-exports from elsewhere. */
function checkCodeImports(node: MdNode, file: string, report: Report) {
  for (const statement of node.data?.estree?.body ?? []) {
    const source = 'source' in statement && statement.source ? String(statement.source.value) : undefined;
    if (source !== undefined) {
      const problem = pageImportProblem(source, file);
      if (problem) report(positionOf(node, statement), problem);
    } else if (statement.type === 'ExportDefaultDeclaration') {
      report(positionOf(node, statement), 'export default is not allowed: it would replace the page\'s layout');
    }
  }
}

/** Where an ESM statement starts, for a problem's line and column. */
function positionOf(node: MdNode, statement: { loc?: { start: { line: number; column: number } } | null }): { position?: MdNode['position'] } {
  const start = statement.loc?.start;
  return start ? { position: { start: { line: start.line, column: start.column + 1 } } } : node;
}

/** An attribute value not known before rendering: a snippet placeholder, or an expression already reported. */
const NOT_LITERAL = Symbol('not literal');

function checkElement(node: MdNode, options: CheckOptions, result: ContentAnalysis, report: Report) {
  const { kind, allowCode } = options;
  const name = node.name;
  if (!name) return; // fragment <>…</>
  const isComponent = /^[A-Z]/.test(name) || name.includes('.') || name.includes(':');
  if (isComponent && !(COMPONENT_NAMES as readonly string[]).includes(name) && !allowCode) {
    report(node, `unknown component <${name}>; ${AVAILABLE}`);
    return;
  }
  if (!isComponent && (FORBIDDEN_ELEMENTS as readonly string[]).includes(name.toLowerCase())) {
    report(node, `the <${name}> element is not allowed in Folio content`);
  }
  const attrs = new Map<string, unknown>();
  for (const attr of node.attributes ?? []) {
    if (attr.type === 'mdxJsxExpressionAttribute') {
      if (!allowCode) report(attr.position ? attr : node, `spread attributes are not allowed on <${name}> (only literal values)`);
      continue;
    }
    const attrName = attr.name ?? '';
    if (!isComponent && /^on/i.test(attrName)) report(attr.position ? attr : node, `event handler attribute "${attrName}" is not allowed`);
    // Astro reads these on any element or component: set:html inserts raw HTML (a <script> too).
    if (ASTRO_DIRECTIVE.test(attrName)) {
      report(attr.position ? attr : node, `directive ${attrName} on <${name}> is not allowed in Folio content`);
      continue;
    }
    const value = attr.value;
    if (value == null || typeof value === 'string') {
      attrs.set(attrName, value ?? true);
      if (!isComponent && typeof value === 'string') checkScriptAttribute(attr.position ? attr : node, name, attrName, value, report);
      continue;
    }
    const expr = value.data?.estree?.body[0];
    const placeholder = PLACEHOLDER_EXPR.exec(value.value)?.[1];
    if (expr?.type === 'ExpressionStatement' && isLiteral(expr.expression)) {
      const literal = literalValue(expr.expression);
      attrs.set(attrName, literal);
      if (!isComponent) checkScriptAttribute(attr.position ? attr : node, name, attrName, literal, report);
    } else if (placeholder && kind === 'snippet' && isComponent && name !== 'Snippet') {
      // `<ApiMethod method={verb} />` in a snippet: filled from vars (a Snippet's file and vars
      // stay literal, so the snippet graph is known before the build).
      if (!result.placeholders.includes(placeholder)) result.placeholders.push(placeholder);
      attrs.set(attrName, NOT_LITERAL);
    } else {
      if (!allowCode) report(attr.position ? attr : node, `attribute ${attrName}={${shorten(value.value)}} on <${name}> is not allowed: only literal values`);
      attrs.set(attrName, NOT_LITERAL);
    }
  }
  if (name === 'ApiMethod') checkApiMethod(node, attrs, report);
  if (name === 'Snippet') checkSnippet(node, attrs, result, report);
  const calloutKind = attrs.get('kind');
  if (name === 'Callout' && attrs.has('kind') && calloutKind !== NOT_LITERAL && !(CALLOUT_KINDS as readonly unknown[]).includes(calloutKind)) {
    report(node, `Callout kind ${JSON.stringify(calloutKind)} is not one of ${CALLOUT_KINDS.join(', ')}`);
  }
}

/** Raw HTML in Markdown pages follows the same element rules as JSX in MDX. */
function checkRawHtml(node: MdNode, report: Report) {
  const html = String(node.value ?? '');
  const element = new RegExp(FORBIDDEN_ELEMENT_SOURCE, 'i').exec(html)?.[1];
  if (element) report(node, `the <${element.toLowerCase()}> element is not allowed in Folio content`);
  const handler = new RegExp(EVENT_HANDLER_SOURCE, 'i').exec(html)?.[1];
  if (handler) report(node, `event handler attribute "${handler}" is not allowed`);
  const component = new RegExp(`<(${COMPONENT_NAMES.join('|')})\\b`).exec(html)?.[1];
  if (component) report(node, `<${component}> works in .mdx files only: rename this file to .mdx`);
  if (containsScriptUrl(html)) report(node, 'javascript: URLs are not allowed in Folio content (they run script in the reader\'s browser)');
  if (endsInsideTag(html)) {
    report(node, 'raw HTML must close the tags it opens: this block ends inside a tag, so the browser would read the text after it as attributes');
  }
}

/**
 * True when a browser reading `html` would still be inside a tag at its end (an open `<a title="`).
 * Markdown output after it (text keeps its quotes) would then become that tag's attributes.
 */
function endsInsideTag(html: string): boolean {
  let i = 0;
  while (i < html.length) {
    if (html.startsWith('<!--', i)) {
      // As browsers close comments: `<!-->` and `<!--->` are whole comments, `--!>` closes one too.
      const end = /-->|--!>/.exec(html.slice(i + 2));
      if (!end) return false; // an open comment only hides what follows
      i += 2 + end.index + end[0].length;
    } else if (/^<(?:\/?[a-z]|[!?])/i.test(html.slice(i, i + 3))) {
      i = tagEnd(html, i + 1);
      if (i < 0) return true;
    } else i++;
  }
  return false;
}

/** The index after the `>` closing the tag that starts before `from`, or -1 when it never closes. */
function tagEnd(html: string, from: number): number {
  let i = from;
  while (i < html.length) {
    const c = html[i];
    if (c === '>') return i + 1;
    if (c === '=') {
      i++;
      while (/\s/.test(html[i] ?? '')) i++;
      const quote = html[i];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, i + 1);
        if (close < 0) return -1;
        i = close + 1;
        continue;
      }
      continue;
    }
    i++;
  }
  return -1;
}

/** A Markdown link, image or link definition may not point to a script URL. */
function checkScriptUrl(node: MdNode, report: Report) {
  if (node.url && isScriptUrl(node.url)) report(node, `URL "${shorten(node.url)}" is not allowed: javascript: URLs run script in the reader's browser`);
}

/** No attribute of an HTML element may carry a script URL (href, src, action, SVG animation values …). */
function checkScriptAttribute(at: { position?: MdNode['position'] }, element: string, attrName: string, value: unknown, report: Report) {
  // Arrays and objects reach the HTML as text too (nested arrays flattened): all of it is checked.
  if (containsScriptUrl(typeof value === 'string' ? value : JSON.stringify(value) ?? '')) {
    report(at, `attribute ${attrName} on <${element}> is not allowed: javascript: URLs run script in the reader's browser`);
  }
}

function checkApiMethod(node: MdNode, attrs: Map<string, unknown>, report: Report) {
  if (!attrs.has('method')) {
    report(node, `ApiMethod needs a method: one of ${HTTP_METHODS.join(', ')}`);
    return;
  }
  const method = attrs.get('method');
  if (method !== NOT_LITERAL && !normalizeMethod(method)) {
    report(node, `ApiMethod method ${JSON.stringify(method)} is not one of ${HTTP_METHODS.join(', ')} (case-insensitive)`);
  }
}

function checkSnippet(node: MdNode, attrs: Map<string, unknown>, result: ContentAnalysis, report: Report) {
  const hasChildren = (node.children ?? []).length > 0;
  const file = attrs.get('file');
  if (attrs.has('vars') && attrs.get('vars') !== NOT_LITERAL) {
    const vars = attrs.get('vars');
    const ok =
      typeof vars === 'object' && vars !== null && !Array.isArray(vars) &&
      Object.values(vars).every((v) => ['string', 'number', 'boolean'].includes(typeof v));
    if (!ok) report(node, 'Snippet vars must be an object of strings, as in vars={{ name: "Ada" }}');
  }
  if (hasChildren || file === NOT_LITERAL) return; // children take precedence: no lookup, no error for a missing file
  if (file === undefined) {
    report(node, 'Snippet needs a file (a path under _snippets/) or children');
    return;
  }
  if (typeof file !== 'string' || !file.trim()) {
    report(node, `Snippet file must be a path under _snippets/, got ${JSON.stringify(file)}`);
    return;
  }
  const start = node.position?.start ?? { line: 1, column: 1 };
  result.snippetCalls.push({ file, key: snippetKey(file), line: start.line, column: start.column });
}

const IMAGE_FILE = /^[^?#]*\.(?:jpe?g|png|apng|gif|webp|avif|svg|tiff?)$/i;

/**
 * Astro imports every local image of a page (a URL that is not absolute and has no scheme) as a
 * module, as it decodes it: a `./run.mjs`, an extensionless name or a `?worker` query would run
 * code at build time. Only image files are allowed.
 */
function checkImageFile(node: MdNode, report: Report) {
  const url = node.url ?? '';
  if (!url || URL.canParse(url) || url.startsWith('/')) return;
  let decoded: string;
  try {
    decoded = decodeURI(url);
  } catch {
    decoded = url;
  }
  if (IMAGE_FILE.test(decoded) && !decoded.startsWith('/') && !URL.canParse(decoded)) return;
  report(node, `image "${shorten(url)}" is not allowed: a local image must be a .jpg, .jpeg, .png, .apng, .gif, .webp, .avif, .svg or .tiff file (without ? or #)`);
}

/** A relative image or link-definition URL must stay inside the content root. */
function checkLocalUrl(node: MdNode, file: string, report: Report) {
  const url = node.url ?? '';
  if (!url || /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//') || url.startsWith('#')) return;
  if (url.startsWith('/')) return; // served from public/
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURIComponentSafe(url.split(/[?#]/)[0] ?? '')));
  if (target === '..' || target.startsWith('../')) report(node, `path "${url}" points outside the content root`);
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** True for the literal values Folio content may hold in braces: no identifiers, calls or spreads. */
export function isLiteral(node: EstreeNode | null | undefined): boolean {
  if (!node) return false;
  switch (node.type) {
    case 'Literal':
      return !('regex' in node && node.regex);
    case 'TemplateLiteral':
      return node.expressions.length === 0;
    case 'UnaryExpression':
      return (node.operator === '-' || node.operator === '+') && node.argument.type === 'Literal' && typeof node.argument.value === 'number';
    case 'ArrayExpression':
      return node.elements.every((e) => e !== null && e.type !== 'SpreadElement' && isLiteral(e));
    case 'ObjectExpression':
      return node.properties.every(
        (p) =>
          p.type === 'Property' && p.kind === 'init' && !p.computed && !p.method && !p.shorthand &&
          (p.key.type === 'Identifier' || p.key.type === 'Literal') && isLiteral(p.value as EstreeNode),
      );
    default:
      return false;
  }
}

/** The value of a literal expression (see isLiteral). */
export function literalValue(node: EstreeNode): unknown {
  switch (node.type) {
    case 'Literal':
      return node.value;
    case 'TemplateLiteral':
      return node.quasis.map((q) => q.value.cooked).join('');
    case 'UnaryExpression':
      return (node.operator === '-' ? -1 : 1) * Number((node.argument as { value: unknown }).value);
    case 'ArrayExpression':
      return node.elements.map((e) => literalValue(e as EstreeNode));
    case 'ObjectExpression':
      return Object.fromEntries(
        node.properties.map((p) => {
          const prop = p as { key: EstreeNode; value: EstreeNode };
          const key = prop.key.type === 'Identifier' ? prop.key.name : String((prop.key as { value: unknown }).value);
          return [key, literalValue(prop.value)];
        }),
      );
    default:
      return undefined;
  }
}

function shorten(s: string): string {
  const one = s.trim().replace(/\s+/g, ' ');
  return one.length > 60 ? `${one.slice(0, 57)}...` : one;
}
