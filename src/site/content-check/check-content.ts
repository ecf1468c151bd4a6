// The one checker for untrusted MDX/Markdown (shared by the site build and the pages API): reads a
// page or snippet with the build's own parser (Sätteri, with the build's features) and reports every
// problem with file:line:column. The build runs the same checks on the tree it compiles
// (build-check.ts), so a file the check did not see as the build does still fails there.
// MDX is JavaScript: imports, exports and expressions would run on the build machine, so only
// literal values are allowed; components are limited to Folio's own set. A project that allows code
// (`allowCode`) may import its own files (and React) and use any expression, within the other rules.
import path from 'node:path';
import { Parser, parse, tokenizer } from 'acorn';
import acornJsx from 'acorn-jsx';
import { markdownToMdast, mdxToMdast } from 'satteri';
// Astro's own frontmatter reader (YAML or TOML, after blank lines, ending at the first line that
// starts with --- or +++): the check must see the frontmatter and the body the build will compile.
import { parseFrontmatter } from '@astrojs/internal-helpers/frontmatter';
import type { Node as EstreeNode, Pattern, Program } from 'estree';
import { CALLOUT_KINDS, COMPONENT_NAMES, COMPONENTS, BADGE_METHODS, ICON_LIBRARIES, iconLibraryOf, nearest, nearestComponent, normalizeMethod } from '../components/catalog.ts';
import { importedSnippetKey, SNIPPETS_DIR, snippetKey } from '../snippet-paths.ts';
import { readPageMeta } from '../page-rules.ts';
import { PLACEHOLDER_EXPR } from '../markdown/snippet-placeholders.ts';
import { MARKDOWN_FEATURES } from '../markdown/features.ts';
import { isCodeImport, pageImportProblem } from '../code/imports.ts';
import { EMBED_ORIGINS, isEmbedUrl } from '../embeds.ts';
import { containsScriptUrl, EVENT_HANDLER_SOURCE, FORBIDDEN_ELEMENT_SOURCE, FORBIDDEN_ELEMENTS, forbiddenDataAttributesInHtml, isDataUrl, isForbiddenDataAttribute, isForbiddenImageUrl, isForbiddenLinkUrl, isScriptUrl, urlAttributeKind } from './script-urls.ts';
import { pageLinks, type PageLinks } from './page-links.ts';

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

const emptyAnalysis = (problems: Problem[] = []): ContentAnalysis => ({ problems, warnings: [], snippetCalls: [], snippetImports: [], exports: {}, placeholders: [], dropsProps: false, hasEsm: false });

/** Formats a problem the way build logs and API errors show it. */
export function formatProblem(p: Problem): string {
  return p.file ? `${p.file}:${p.line}:${p.column}: ${p.message}` : p.message;
}

/** Every problem of one page or snippet; an empty list means it may be built. */
export function checkContent(text: string, options: CheckOptions): Problem[] {
  return analyzeContent(text, options).problems;
}

/** How a default-policy refusal of code says what would allow it. */
const ENABLE_CODE = 'enable code for this project with allow_code: true (npm run build:site -- --allow-code; see "Code in pages" in the docs) to use it';
/** Astro's template directives (`set:html`, `is:raw`, `define:vars`, `client:load` …). */
export const ASTRO_DIRECTIVE = /^(?:set|is|define|client|server|transition):/i;
// The full list is long (Mintlify's built-in set): the docs page lists them with their props.
const AVAILABLE = 'available components: Mintlify\'s built-in set and ApiMethod, Callout, Snippet (see "Components" in the docs)';

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

interface MdAttribute {
  type: 'mdxJsxAttribute' | 'mdxJsxExpressionAttribute';
  name?: string;
  value?: string | null | { type: string; value: string };
}

/** Where the compiled source sits in the file: its lines move by `lines`, its first line's columns by `firstColumns`. */
export interface SourceShift {
  lines: number;
  firstColumns: number;
}

/** The source the build compiles from a file's text, and how its positions map back to the text. */
export interface CompiledSource {
  source: string;
  shift: SourceShift;
}

// What `---\n---\n` becomes once Astro has blanked it: a body stored after a frontmatter block is
// compiled after blank lines, never at the start of a file (where `+++` would open frontmatter).
const BLANKED_FRONTMATTER = '   \n   \n';

/**
 * The source the build compiles from `text`: the body after Astro's frontmatter reader (lines and
 * columns kept), and for Markdown, trimmed, as Astro's content collections hand `.md` bodies to
 * the renderer. Reports frontmatter problems; undefined when the frontmatter cannot be read.
 */
export function compiledSource(text: string, options: CheckOptions, report: Report = () => undefined, warn: (message: string) => void = () => undefined): CompiledSource | undefined {
  let content: string;
  let lines = 0;
  if (options.frontmatter === false) {
    content = BLANKED_FRONTMATTER + text;
    lines = -2;
  } else {
    const body = readFrontmatter(text, report, warn);
    if (body === undefined) return undefined;
    content = body;
  }
  if (formatOf(options) === 'mdx') return { source: content, shift: { lines, firstColumns: 0 } };
  const removed = content.slice(0, content.length - content.trimStart().length);
  const breaks = removed.match(/\r\n|\r|\n/g)?.length ?? 0;
  const lastBreak = Math.max(removed.lastIndexOf('\n'), removed.lastIndexOf('\r'));
  return { source: content.trim(), shift: { lines: lines + breaks, firstColumns: removed.length - lastBreak - 1 } };
}

function formatOf(options: CheckOptions): 'md' | 'mdx' {
  return options.format ?? (options.file.endsWith('.md') ? 'md' : 'mdx');
}

/** Parses `source` as the build does (Sätteri, the build's features). Throws Sätteri's syntax errors. */
export function parseAsBuilt(source: string, format: 'md' | 'mdx'): MdNode {
  const parseTree = format === 'md' ? markdownToMdast : mdxToMdast;
  return parseTree(source, { features: MARKDOWN_FEATURES, position: true }) as unknown as MdNode;
}

export function analyzeContent(text: string, options: CheckOptions): ContentAnalysis {
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  const compiled = compiledSource(text, options, (_, message) => problems.push({ file: options.file, line: 1, column: 1, message }), (message) => warnings.push({ file: options.file, line: 1, column: 1, message }));
  if (!compiled) return emptyAnalysis(problems);
  let tree: MdNode;
  try {
    tree = parseAsBuilt(compiled.source, formatOf(options));
  } catch (error) {
    // Sätteri's syntax errors read `line:column: reason (rule)`.
    const message = (error as Error).message;
    const m = /^(\d+):(\d+): ([\s\S]*?)(?: \([a-z-]+:[a-z-]+\))?$/.exec(message);
    const at = m ? shifted({ line: Number(m[1]), column: Number(m[2]) }, compiled.shift) : { line: 1, column: 1 };
    problems.push({ file: options.file, ...at, message: `${formatOf(options) === 'md' ? 'Markdown' : 'MDX'} syntax error: ${m ? m[3] : message}` });
    return emptyAnalysis(problems);
  }
  const analysis = analyzeTree(tree, options, compiled.shift);
  analysis.links = pageLinks(tree, compiled.shift, options.file, options.snippetsDir);
  analysis.problems.unshift(...problems);
  analysis.warnings.unshift(...warnings);
  return analysis;
}

function shifted(start: { line: number; column: number }, shift: SourceShift): { line: number; column: number } {
  return { line: Math.max(1, start.line + shift.lines), column: start.line === 1 ? start.column + shift.firstColumns : start.column };
}

/**
 * Every problem of a parsed page or snippet: the tree Sätteri made of its compiled source
 * (`shift` maps positions back to the file). The build calls this on the tree it compiles.
 */
export function analyzeTree(tree: MdNode, options: CheckOptions, shift: SourceShift = { lines: 0, firstColumns: 0 }): ContentAnalysis {
  const result: ContentAnalysis = emptyAnalysis();
  const place = (at: { position?: MdNode['position'] } | undefined) => (at?.position?.start ? shifted(at.position.start, shift) : { line: 1, column: 1 });
  const report: Report = (at, message) => result.problems.push({ file: options.file, ...place(at), message });
  const check: Check = { options, result, report, place, declared: new Set(), hydrated: new Set(), snippetComponents: new Set(), constants: new Set() };
  // ESM is top-level only; components it declares may be used above it.
  for (const node of tree.children ?? []) {
    if (node.type !== 'mdxjsEsm') continue;
    result.hasEsm = true;
    checkEsm(node, check);
  }

  // Every definition of an identifier: Markdown uses the first, so none may be left unchecked.
  const definitions = new Map<string, MdNode[]>();
  const imageReferences = new Set<string>();
  const linkReferences = new Set<string>();
  const visit = (node: MdNode) => {
    switch (node.type) {
      case 'mdxjsEsm':
        return;
      case 'mdxFlowExpression':
      case 'mdxTextExpression':
        checkExpression(node, check);
        return;
      case 'mdxJsxFlowElement':
      case 'mdxJsxTextElement':
        checkElement(node, check);
        break;
      case 'image':
        checkImageFile(node, report);
        checkLocalUrl(node, options.file, report);
        checkLinkUrl(node, 'image', report);
        break;
      case 'definition':
        if (node.identifier) definitions.set(node.identifier, [...(definitions.get(node.identifier) ?? []), node]);
        checkLocalUrl(node, options.file, report);
        // A script URL is refused wherever it is; a data: URL by the references to it (below).
        if (node.url && isScriptUrl(node.url)) checkLinkUrl(node, 'link', report);
        break;
      case 'imageReference':
        if (node.identifier) imageReferences.add(node.identifier);
        break;
      case 'linkReference':
        if (node.identifier) linkReferences.add(node.identifier);
        break;
      case 'link':
        checkLinkUrl(node, 'link', report);
        break;
      case 'html':
        checkRawHtml(node, report);
        break;
      case 'heading':
        checkHeadingAttributes(node, report);
        break;
    }
    for (const child of node.children ?? []) visit(child);
  };
  visit(tree);
  for (const id of imageReferences) {
    for (const definition of definitions.get(id) ?? []) {
      checkImageFile(definition, report);
      checkLinkUrl(definition, 'image', report, true);
    }
  }
  // A definition is an image's address or a link's target depending on what refers to it.
  for (const id of linkReferences) {
    for (const definition of definitions.get(id) ?? []) checkLinkUrl(definition, 'link', report, true);
  }
  return result;
}

type Report = (at: { position?: MdNode['position'] } | undefined, message: string) => void;

/**
 * `## Setup {#setup}` sets the heading's anchor, as on Mintlify. The parser also reads classes and
 * any `key=value` in those braces, which would become attributes of the heading (an `onclick`
 * too): only the id is content.
 */
function checkHeadingAttributes(node: MdNode, report: Report) {
  for (const name of Object.keys(node.data?.hProperties ?? {})) {
    if (name !== 'id') report(node, `heading attribute ${name === 'className' ? '.class' : JSON.stringify(name)} is not allowed: only {#id} may follow a heading (it sets the heading's anchor)`);
  }
}

interface Check {
  options: CheckOptions;
  result: ContentAnalysis;
  report: Report;
  /** Where a node is in the file. */
  place(at: { position?: MdNode['position'] } | undefined): { line: number; column: number };
  /** Names the file imports or defines with `export const` (only with code): usable as components. */
  declared: Set<string>;
  /** Of those, the React components: imported from a code file or react, or defined with `export const`. */
  hydrated: Set<string>;
  /** Snippets imported by default, used as components (`<Intro name="Ada" />`): content, no code. */
  snippetComponents: Set<string>;
  /** Literal values in scope: the file's `export const` literals and those imported from snippets. */
  constants: Set<string>;
}

/**
 * Checks the frontmatter as Astro reads it; returns the body Astro compiles (the frontmatter blanked
 * out, so lines and columns stay), or undefined when the frontmatter cannot be read.
 */
function readFrontmatter(text: string, report: Report, warn: (message: string) => void): string | undefined {
  let parsed: ReturnType<typeof parseFrontmatter>;
  try {
    parsed = parseFrontmatter(text, { frontmatter: 'empty-with-spaces' });
  } catch (error) {
    const language = /^\uFEFF?\s*\+\+\+/.test(text) ? 'TOML' : 'YAML';
    report(undefined, `frontmatter is not valid ${language}: ${(error as { reason?: string }).reason ?? (error as Error).message.split('\n')[0]}`);
    return undefined;
  }
  if (parsed.rawFrontmatter) {
    checkFrontmatter(parsed.frontmatter, report);
    if (!Array.isArray(parsed.frontmatter)) readPageMeta(parsed.frontmatter).warnings.forEach(warn);
  }
  return parsed.content;
}

/** Problems of frontmatter as Astro parsed it (reported at 1:1). */
export function frontmatterProblems(fm: Record<string, unknown>, file: string): Problem[] {
  const problems: Problem[] = [];
  checkFrontmatter(fm, (_, message) => problems.push({ file, line: 1, column: 1, message }));
  return problems;
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

const JS = { ecmaVersion: 'latest', sourceType: 'module' } as const;
const JsxParser = Parser.extend(acornJsx());

/**
 * The expression in braces as JavaScript: null for a comment or nothing (`{/* note *\/}`),
 * undefined when it is not exactly one expression.
 */
export function readExpression(source: string): EstreeNode | null | undefined {
  try {
    if (tokenizer(source, JS).getToken().type.label === 'eof') return null;
    // Parenthesized and on its own line, as a compiler embeds it: `a), (b` stays a sequence.
    const program = parse(`(${source}\n)`, JS) as unknown as Program;
    const statement = program.body[0];
    return program.body.length === 1 && statement?.type === 'ExpressionStatement' ? statement.expression : undefined;
  } catch {
    return undefined;
  }
}

function checkExpression(node: MdNode, check: Check) {
  const { options, result, report } = check;
  const source = String(node.value ?? '');
  const expression = readExpression(source);
  if (expression === null) return;
  if (options.kind === 'snippet') {
    const name = PLACEHOLDER_EXPR.exec(source)?.[1];
    if (name) {
      if (!result.placeholders.includes(name)) result.placeholders.push(name);
      return;
    }
  }
  if (options.allowCode || isLiteral(expression)) return;
  if (expression?.type === 'Identifier' && check.constants.has(expression.name)) return;
  report(node, `expression {${shorten(source)}} is not allowed: only literal values (strings, numbers, objects, arrays) and {/* comments */} may appear in braces${options.kind === 'snippet' ? ', and {name} placeholders in snippets' : ''}; anything else is code: ${ENABLE_CODE}`);
}

/**
 * Import and export. Content may import snippets Mintlify's way (`import Intro from
 * '/snippets/intro.mdx'`, `import { version } from '../snippets/values.mdx'`) and define literal
 * values (`export const version = "2.1"`): none of this is code, the build inlines it
 * (markdown/snippet-imports.ts). Anything else is code: refused by default; with code, imports of
 * the project's own files and `export const`.
 */
function checkEsm(node: MdNode, check: Check) {
  const { options, report } = check;
  const source = String(node.value ?? '');
  let program: Program;
  try {
    program = JsxParser.parse(source, { ...JS, locations: true }) as unknown as Program;
  } catch (error) {
    report(node, `this import or export cannot be read: ${(error as Error).message}`);
    return;
  }
  for (const statement of program.body) {
    const at = statementPlace(node, statement);
    if (!options.allowCode) {
      checkContentEsm(statement, at, check);
      continue;
    }
    switch (statement.type) {
      case 'ImportDeclaration':
        checkImportSource(at, String(statement.source.value), check);
        for (const specifier of statement.specifiers) {
          check.declared.add(specifier.local.name);
          if (isCodeImport(String(statement.source.value))) check.hydrated.add(specifier.local.name);
        }
        break;
      case 'ExportNamedDeclaration':
        if (statement.source) checkImportSource(at, String(statement.source.value), check);
        if (statement.declaration) {
          if (statement.declaration.type === 'VariableDeclaration' && statement.declaration.kind === 'const') {
            for (const declarator of statement.declaration.declarations) for (const name of boundNames(declarator.id)) {
              check.declared.add(name);
              check.hydrated.add(name);
            }
          } else report(at, 'only export const … may define something in a page (export function, class, let and var are not allowed)');
        }
        break;
      case 'ExportAllDeclaration':
        checkImportSource(at, String(statement.source.value), check);
        break;
      default:
        report(at, `${statement.type === 'ExportDefaultDeclaration' ? 'export default' : 'this statement'} is not allowed: pages may import files and export const …`);
    }
  }
}

/** One ESM statement of content without code: a snippet import or an `export const` literal, else refused as code. */
function checkContentEsm(statement: Program['body'][number], at: { position?: MdNode['position'] }, check: Check) {
  const { options, report, result } = check;
  if (statement.type === 'ImportDeclaration') {
    const specifier = String(statement.source.value);
    const key = importedSnippetKey(specifier, options.file, options.snippetsDir ?? SNIPPETS_DIR);
    if (!key) {
      const what = isCodeImport(specifier) ? 'it imports code, run at build time and in readers\' browsers' : `only imports of .md and .mdx snippets under ${options.snippetsDir ?? SNIPPETS_DIR}/ are content`;
      report(at, `import and export are not allowed in Folio content unless they are snippets or literal values (${what}): import … from "${specifier}"; ${ENABLE_CODE}`);
      // Its names are not also reported as unknown components.
      for (const s of statement.specifiers) check.declared.add(s.local.name);
      return;
    }
    const named: string[] = [];
    for (const s of statement.specifiers) {
      if (s.type === 'ImportDefaultSpecifier') check.snippetComponents.add(s.local.name);
      else if (s.type === 'ImportSpecifier' && s.imported.type === 'Identifier' && s.imported.name === s.local.name) {
        named.push(s.imported.name);
        check.constants.add(s.local.name);
      } else {
        report(at, `import "${specifier}": only a default import (the snippet, used as <Name />) and named imports of its export const values, without "as", are content; ${ENABLE_CODE}`);
        return;
      }
    }
    result.snippetImports.push({ specifier, key, named, ...check.place(at) });
    return;
  }
  if (statement.type === 'ExportNamedDeclaration' && !statement.source && statement.declaration?.type === 'VariableDeclaration' && statement.declaration.kind === 'const') {
    for (const declarator of statement.declaration.declarations) {
      if (declarator.id.type === 'Identifier' && isLiteral(declarator.init as EstreeNode | null)) {
        result.exports[declarator.id.name] = literalValue(declarator.init as EstreeNode);
        check.constants.add(declarator.id.name);
        // A snippet's constant is imported by pages into any attribute, a component's href too.
        const problem = check.options.kind === 'snippet' ? urlValueProblem('', '', result.exports[declarator.id.name], true) : undefined;
        if (problem) report(at, `export const ${declarator.id.name} is not allowed: ${problem}`);
      } else {
        const name = declarator.id.type === 'Identifier' ? declarator.id.name : '…';
        report(at, `import and export are not allowed in Folio content unless they are snippets or literal values: export const ${name} is code (export const ${name} = "text" would be content); ${ENABLE_CODE}`);
      }
    }
    return;
  }
  const what = statement.type === 'ExportDefaultDeclaration' ? 'export default' : statement.type.startsWith('Export') ? 'this export' : 'this statement';
  report(at, `import and export are not allowed in Folio content unless they are snippets or literal values: ${what} is code, run at build time; ${ENABLE_CODE}`);
}

/** Where a statement of an ESM block starts in the page (a block holds every line of its imports and exports). */
function statementPlace(node: MdNode, statement: { loc?: { start: { line: number; column: number } } | null }): { position?: MdNode['position'] } {
  const start = node.position?.start;
  const loc = statement.loc?.start;
  if (!start || !loc) return node;
  return { position: { start: { line: start.line + loc.line - 1, column: loc.line === 1 ? start.column + loc.column : loc.column + 1 } } };
}

/** The names a declaration's pattern binds (`const { a, b: [c] } = …` binds a and c). */
export function boundNames(pattern: Pattern): string[] {
  switch (pattern.type) {
    case 'Identifier':
      return [pattern.name];
    case 'ObjectPattern':
      return pattern.properties.flatMap((p) => boundNames(p.type === 'RestElement' ? p.argument : p.value));
    case 'ArrayPattern':
      return pattern.elements.flatMap((e) => (e ? boundNames(e) : []));
    case 'RestElement':
      return boundNames(pattern.argument);
    case 'AssignmentPattern':
      return boundNames(pattern.left);
    default:
      return [];
  }
}

/** An import of a project with code: only its own script and content files, and React (see imports.ts). */
function checkImportSource(node: { position?: MdNode['position'] }, specifier: string, check: Check) {
  const problem = pageImportProblem(specifier, check.options.file);
  if (problem) check.report(node, problem);
}

/** A JSX name MDX compiles as a component reference (`Card`, `Tabs.Tab`, `svg:rect`), not an HTML element. */
export function isComponentName(name: string): boolean {
  return /^[A-Z]/.test(name) || name.includes('.') || name.includes(':');
}

/** A component of Folio's catalog, or one the file itself binds (`declared`: its imports and export const names). */
export function isKnownComponent(name: string, declared: ReadonlySet<string>): boolean {
  return (COMPONENT_NAMES as readonly string[]).includes(name) || declared.has(name.split('.')[0] ?? '');
}

/** An attribute value not known before rendering: a snippet placeholder, or an expression already reported. */
const NOT_LITERAL = Symbol('not literal');

function checkElement(node: MdNode, check: Check) {
  const { options, result, report } = check;
  const name = node.name;
  if (!name) return; // fragment <>…</>
  const isComponent = isComponentName(name);
  // A snippet's import (a default one, or a named one reported above when it is not a literal) is the page's own.
  if (isComponent && !isKnownComponent(name, check.declared) && !check.snippetComponents.has(name) && !check.constants.has(name)) {
    // Mintlify deploys such a page, showing what is between the tags: so does Folio, with a
    // warning (component-props.ts unwraps the element in the build). Its attributes are dropped
    // with it, but still checked below: an expression in one is still code.
    const suggestion = nearestComponent(name);
    result.dropsProps = true;
    result.warnings.push({ file: options.file, ...check.place(node), message: `unknown component <${name}>${suggestion ? ` (did you mean <${suggestion}>?)` : ''}: its content is shown in its place; ${AVAILABLE}${options.allowCode ? ', and those this file imports or defines with export const' : ''}` });
  }
  // <iframe> is an embed from the allow-list (checked below), rendered sandboxed (rich-blocks.ts).
  if (!isComponent && name !== 'iframe' && (FORBIDDEN_ELEMENTS as readonly string[]).includes(name.toLowerCase())) {
    report(node, `the <${name}> element is not allowed in Folio content`);
  }
  // A built-in component takes the props its catalog entry names (one the page itself imports or
  // defines, with code allowed, takes any).
  const spec = check.declared.has(name.split('.')[0] ?? '') ? undefined : COMPONENTS[name];
  const attrs = new Map<string, unknown>();
  for (const attr of node.attributes ?? []) {
    if (attr.type === 'mdxJsxExpressionAttribute') {
      if (!options.allowCode) report(node, `spread attributes are not allowed on <${name}> (only literal values): this is code: ${ENABLE_CODE}`);
      continue;
    }
    const attrName = attr.name ?? '';
    if (!isComponent && /^on/i.test(attrName)) {
      // With code, a handler written as code is React's (the element becomes an island of its own,
      // src/site/code/page-code.ts); a handler written as text is an inline script, never allowed.
      const code = attr.value != null && typeof attr.value !== 'string' ? attr.value.value : undefined;
      if (code === undefined) report(node, `event handler attribute "${attrName}" is not allowed${options.allowCode ? `: write it as code, ${attrName}={() => …}, which React runs` : ''}`);
      else if (!options.allowCode) report(node, `event handler attribute ${attrName}={${shorten(code)}} on <${name}> is code: ${ENABLE_CODE}`);
      if (code === undefined || !options.allowCode) continue;
    }
    if (spec && !Object.hasOwn(spec.props, attrName) && !ASTRO_DIRECTIVE.test(attrName)) {
      // Mintlify's components drop props they do not read (<Frame border shadow> renders), so a
      // real repository's extra props are a warning, and the build removes them before rendering
      // (component-props.ts). Their values are still checked below: an expression is still code.
      result.dropsProps = true;
      const props = Object.keys(spec.props);
      const suggestion = nearest(attrName, props);
      result.warnings.push({ file: options.file, ...check.place(node), message: `<${name}> has no prop "${attrName}"${suggestion ? ` (did you mean ${suggestion}?)` : ''}; it is ignored; its props: ${props.length ? props.join(', ') : 'none'}` });
    }
    // Astro reads these on any element or component: set:html inserts raw HTML (a <script> too).
    // The code rewrite of a build with code (src/site/code/page-code.ts) hydrates each React
    // component with a bare `client:load`; the check inside the build sees it, so it is allowed there.
    const hydration = options.allowCode && isComponent && attrName === 'client:load' && attr.value == null && check.hydrated.has(name.split('.')[0] ?? '');
    if (ASTRO_DIRECTIVE.test(attrName) && !hydration) {
      report(node, `directive ${attrName} on <${name}> is not allowed in Folio content`);
      continue;
    }
    const value = attr.value;
    // Values whose use the check cannot see: a Snippet's vars and a snippet component's props fill
    // the snippet's placeholders, in text or in a link's href.
    const anyUse = check.snippetComponents.has(name) || (name === 'Snippet' && attrName === 'vars');
    if (value == null || typeof value === 'string') {
      attrs.set(attrName, value ?? true);
      if ((!isComponent || spec || anyUse) && typeof value === 'string') checkScriptAttribute(node, name, attrName, value, report, anyUse);
      continue;
    }
    const expression = readExpression(value.value);
    const placeholder = PLACEHOLDER_EXPR.exec(value.value)?.[1];
    if (expression && isLiteral(expression)) {
      const literal = literalValue(expression);
      attrs.set(attrName, literal);
      if (!isComponent || spec || anyUse) checkScriptAttribute(node, name, attrName, literal, report, anyUse);
    } else if (spec && isMarkupProp(spec.props[attrName]) && isMarkup(value.value)) {
      // `icon={<svg …/>}`, `label={<>New <b>API</b></>}`: markup is content, checked as the page is.
      checkMarkupLiteral(node, value.value, check);
      attrs.set(attrName, NOT_LITERAL);
    } else if (expression?.type === 'Identifier' && check.constants.has(expression.name)) {
      // A literal the page defines (export const) or imports from a snippet: inlined by the build.
      const local = Object.hasOwn(result.exports, expression.name) ? result.exports[expression.name] : NOT_LITERAL;
      attrs.set(attrName, local);
      if ((!isComponent || spec || anyUse) && local !== NOT_LITERAL) checkScriptAttribute(node, name, attrName, local, report, anyUse);
    } else if (placeholder && options.kind === 'snippet' && isComponent && name !== 'Snippet') {
      // `<ApiMethod method={verb} />` in a snippet: filled from vars (a Snippet's file and vars
      // stay literal, so the snippet graph is known before the build).
      if (!result.placeholders.includes(placeholder)) result.placeholders.push(placeholder);
      attrs.set(attrName, NOT_LITERAL);
    } else {
      if (!options.allowCode) report(node, `attribute ${attrName}={${shorten(value.value)}} on <${name}> is not allowed: only literal values; anything else is code: ${ENABLE_CODE}`);
      attrs.set(attrName, NOT_LITERAL);
    }
  }
  const library = attrs.get('iconLibrary');
  if (spec && typeof library === 'string' && !iconLibraryOf(library)) {
    // Mintlify also knows libraries Folio has no icons of (tabler): the page still builds.
    result.warnings.push({ file: options.file, ...check.place(node), message: `<${name}> iconLibrary ${JSON.stringify(library)}: Folio renders icons of ${ICON_LIBRARIES.join(' and ')} only; the icon is looked up there as if iconLibrary were not set` });
  }
  if (name === 'iframe') checkEmbed(node, attrs, report);
  if (name === 'ApiMethod') checkApiMethod(node, attrs, report);
  if (name === 'Snippet') checkSnippet(node, attrs, check);
  const calloutKind = attrs.get('kind');
  if (name === 'Callout' && attrs.has('kind') && calloutKind !== NOT_LITERAL && !(CALLOUT_KINDS as readonly unknown[]).includes(calloutKind)) {
    report(node, `Callout kind ${JSON.stringify(calloutKind)} is not one of ${CALLOUT_KINDS.join(', ')}`);
  }
}

/** Props that may hold markup (catalog.ts): those shown as content, and icons. */
function isMarkupProp(kind: string | undefined): boolean {
  return kind === 'markup' || kind === 'icon';
}

type JsxNode = EstreeNode & { start: number; end: number; [key: string]: unknown };

/** The attribute value in braces as one JSX element or fragment, or undefined when it is anything else. */
function readMarkup(source: string): JsxNode | undefined {
  try {
    const program = JsxParser.parse(`(${source}\n)`, JS) as unknown as Program;
    const statement = program.body[0];
    if (program.body.length !== 1 || statement?.type !== 'ExpressionStatement') return undefined;
    const expression = statement.expression as unknown as JsxNode;
    return (expression.type as string) === 'JSXElement' || (expression.type as string) === 'JSXFragment' ? expression : undefined;
  } catch {
    return undefined;
  }
}

function isMarkup(source: string): boolean {
  return readMarkup(source) !== undefined;
}

/**
 * A JSX literal in an attribute is checked as if it were written in the page: it becomes the
 * same mdast nodes (elements, attributes, expressions) and each goes through the page's checks,
 * reported at the element that holds the attribute.
 */
function checkMarkupLiteral(holder: MdNode, source: string, check: Check) {
  const markup = readMarkup(source);
  if (!markup) return;
  // Offsets are into `(${source}\n)`.
  const slice = (n: { start: number; end: number }) => source.slice(n.start - 1, n.end - 1);
  const nameOf = (n: JsxNode | null | undefined): string => {
    if (!n) return '';
    if (n.type as string === 'JSXIdentifier') return String(n.name);
    if (n.type as string === 'JSXNamespacedName') return `${nameOf(n.namespace as JsxNode)}:${nameOf(n.name as JsxNode)}`;
    if (n.type as string === 'JSXMemberExpression') return `${nameOf(n.object as JsxNode)}.${nameOf(n.property as JsxNode)}`;
    return '';
  };
  const convert = (n: JsxNode): MdNode | undefined => {
    switch (n.type as string) {
      case 'JSXElement':
      case 'JSXFragment': {
        const opening = (n.openingElement ?? {}) as { name?: JsxNode; attributes?: JsxNode[] };
        const attributes: MdAttribute[] = (opening.attributes ?? []).map((a) => {
          if (a.type as string === 'JSXSpreadAttribute') return { type: 'mdxJsxExpressionAttribute', value: slice(a) };
          const value = a.value as JsxNode | null;
          return {
            type: 'mdxJsxAttribute',
            name: nameOf(a.name as JsxNode),
            value: value == null ? null : value.type === 'Literal' ? String((value as { value: unknown }).value) : { type: 'mdxJsxAttributeValueExpression', value: value.type as string === 'JSXExpressionContainer' ? slice(value.expression as JsxNode) : slice(value) },
          };
        });
        const children = ((n.children ?? []) as JsxNode[]).map(convert).filter((c): c is MdNode => c !== undefined);
        return { type: 'mdxJsxTextElement', name: n.type as string === 'JSXFragment' ? null : nameOf(opening.name), attributes, children, position: holder.position };
      }
      case 'JSXExpressionContainer':
        return { type: 'mdxTextExpression', value: (n.expression as JsxNode).type as string === 'JSXEmptyExpression' ? '' : slice(n.expression as JsxNode), position: holder.position };
      default:
        return undefined; // JSXText is text
    }
  };
  const walk = (node: MdNode) => {
    if (node.type === 'mdxTextExpression') checkExpression(node, check);
    else checkElement(node, check);
    for (const child of node.children ?? []) walk(child);
  };
  const root = convert(markup);
  if (root) walk(root);
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
  for (const { element, attribute } of forbiddenDataAttributesInHtml(html)) report(node, dataAttributeMessage(element, attribute));
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

/** Why a data: URL may not be a link's target, and what to write instead. */
const DATA_LINK = 'a data: URL as a link target opens a page of its own (HTML, or SVG that runs script) on the site; link to a page, a file in the content root or an https address instead';
/** Why a data: URL that is not an image may not be an image's address. */
const DATA_IMAGE = 'an inline image must be a data:image/… URL; use one, a file in the content root or an https address instead';

function dataAttributeMessage(element: string, attribute: string): string {
  return `attribute ${attribute} on <${element}> is not allowed: ${urlAttributeKind(element, attribute) === 'media' ? DATA_IMAGE : DATA_LINK}`;
}

/**
 * A Markdown link (or autolink), image or link definition may not point to a script URL, nor a
 * link to a data: URL; an image may be a `data:image/…` URL. `onlyData`: the script URL was
 * already reported (a definition is checked again as a link target).
 */
function checkLinkUrl(node: MdNode, as: 'link' | 'image', report: Report, onlyData = false) {
  const url = node.url;
  if (!url) return;
  if (isScriptUrl(url)) {
    if (!onlyData) report(node, `URL "${shorten(url)}" is not allowed: javascript: URLs run script in the reader's browser`);
  } else if (as === 'link' ? isForbiddenLinkUrl(url) : isForbiddenImageUrl(url)) {
    report(node, `URL "${shorten(url)}" is not allowed: ${as === 'link' ? DATA_LINK : DATA_IMAGE}`);
  }
}

/**
 * No attribute of an HTML element may carry a script URL (href, src, action, SVG animation values …),
 * nor a link target a data: URL (urlAttributeKind in script-urls.ts). `anyUse`: a value whose use
 * the check cannot see (a Snippet's vars, a snippet component's props, a snippet's export const)
 * may be no data: URL but a raster image.
 */
function checkScriptAttribute(at: { position?: MdNode['position'] }, element: string, attrName: string, value: unknown, report: Report, anyUse = false) {
  const problem = urlValueProblem(element, attrName, value, anyUse);
  if (problem) report(at, `attribute ${attrName} on <${element}> is not allowed: ${problem}`);
}

/** Why `value` may not be `attribute`'s value on `element` (see checkScriptAttribute), if it may not. */
function urlValueProblem(element: string, attrName: string, value: unknown, anyUse: boolean): string | undefined {
  // Arrays and objects reach the HTML as text too (nested arrays flattened): all of it is checked.
  if (containsScriptUrl(typeof value === 'string' ? value : JSON.stringify(value) ?? '')) return 'javascript: URLs run script in the reader\'s browser';
  if (anyUse) {
    const dataUrl = stringsOf(value).some((v) => isDataUrl(v) && !/^\s*data:image\/(?!svg)/i.test(v));
    return dataUrl ? `a snippet's value may end up as a link target, and ${DATA_LINK}` : undefined;
  }
  // An array reaches an attribute as its items joined by commas.
  const text = typeof value === 'string' ? value : Array.isArray(value) ? String(value) : undefined;
  if (text !== undefined && isForbiddenDataAttribute(element, attrName, text)) return urlAttributeKind(element, attrName) === 'media' ? DATA_IMAGE : DATA_LINK;
  return undefined;
}

/** Every string in a literal value (an object's values, an array's items, nested). */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

/** An `<iframe>` embeds a page of an allowed player or tool (embeds.ts), given as a plain address. */
function checkEmbed(node: MdNode, attrs: Map<string, unknown>, report: Report) {
  const src = attrs.get('src');
  if (attrs.has('srcdoc') || attrs.has('srcDoc')) report(node, 'the srcdoc attribute of <iframe> is not allowed (it would put a page of its own on the site)');
  else if (!isEmbedUrl(src)) {
    report(node, `<iframe src=${JSON.stringify(typeof src === 'string' ? src : '…')}> is not allowed: an iframe may embed only pages of ${EMBED_ORIGINS.map((o) => new URL(o).host).join(', ')} (https)`);
  }
}

function checkApiMethod(node: MdNode, attrs: Map<string, unknown>, report: Report) {
  if (!attrs.has('method')) {
    report(node, `ApiMethod needs a method: one of ${BADGE_METHODS.join(', ')}`);
    return;
  }
  const method = attrs.get('method');
  if (method !== NOT_LITERAL && !normalizeMethod(method)) {
    report(node, `ApiMethod method ${JSON.stringify(method)} is not one of ${BADGE_METHODS.join(', ')} (case-insensitive)`);
  }
}

function checkSnippet(node: MdNode, attrs: Map<string, unknown>, { result, report, place, options }: Check) {
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
  result.snippetCalls.push({ file, key: snippetKey(file, options.snippetsDir), ...place(node) });
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
