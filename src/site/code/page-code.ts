// How a page of a project with code becomes something Astro renders the way Mintlify does (React):
//
// - `export const Counter = () => …` in an MDX page would be compiled with Astro's JSX runtime,
//   where React hooks cannot run. The page's export declarations (with the page's imports of code
//   files and of react, which they may use) are moved to a companion module, `<page>.mdx` +
//   COMPANION_SUFFIX, compiled as React JSX; the page imports them back from it.
// - Mintlify authors never write `client:` directives: every element whose component comes from a
//   code file (.js/.jsx/.ts/.tsx) or from the page's own export declarations is given
//   `client:load`, so it is rendered to HTML at build time and hydrated as soon as the page loads.
// - An element with an event handler written as code (`<button onClick={() => …}>`) becomes a React
//   island of its own: the element moves into the companion as a component (`FolioIsland1`) that
//   renders the page's children of the element, and the page renders that component with
//   `client:load` in its place. Only these elements are hydrated, not the page around them
//   (docs/decisions.md, "React code in pages").
// - `/`-rooted import paths (`/snippets/x.jsx`) mean the content root, as in Mintlify: they are made
//   absolute paths inside the content root, so Astro's hydration metadata names the real file.
//
// Positions come from remark's MDX parser; the rewrite keeps every line where it was, so build errors
// still point at the author's lines.
import path from 'node:path';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkMdx from 'remark-mdx';
import remarkGfm from 'remark-gfm';
import { parseFrontmatter } from '@astrojs/internal-helpers/frontmatter';
import type { Program } from 'estree';
import { CODE_FILE, REACT_PACKAGES, importTarget } from './imports.ts';
import { boundNames } from '../content-check/literals.ts';

/** Appended to a page's absolute path to name its companion module of React components. */
export const COMPANION_SUFFIX = '.folio-components.jsx';

const parser = unified().use(remarkParse).use(remarkGfm).use(remarkMdx);

interface Node {
  type: string;
  name?: string | null;
  children?: Node[];
  attributes?: Array<{ type: string; name?: string; value?: unknown }>;
  data?: { estree?: Program | null };
  position?: { start: { offset?: number }; end: { offset?: number } };
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

export interface PageCode {
  /** The page as the MDX compiler should read it. */
  page: string;
  /** The companion module's source, when the page declares exports. */
  companion?: string;
  /** The names the page's export declarations define (now exported by the companion). */
  declared: string[];
}

/**
 * Rewrites one MDX page (`file`, its absolute path inside `contentRoot`) for a build with code.
 * Returns the page unchanged when it holds no code. `exportsOf` gives the declared exports of
 * another MDX file of the content root: a component a page imports from an MDX snippet
 * (`import { Chart } from '/snippets/chart.mdx'`, as Mintlify documents) is imported from that
 * snippet's companion instead, and hydrated like any other.
 */
export function pageCode(text: string, file: string, contentRoot: string, exportsOf?: (mdxFile: string) => string[]): PageCode {
  const relFile = path.relative(contentRoot, file).split(path.sep).join('/');
  // Frontmatter blanked out with spaces, so offsets are offsets in `text`.
  let tree: Node;
  try {
    tree = parser.parse(parseFrontmatter(text, { frontmatter: 'empty-with-spaces' }).content) as Node;
  } catch {
    return { page: text, declared: [] }; // left as it is: the MDX compiler reports the error, with its place
  }
  const edits: Edit[] = [];
  const codeNames = new Set<string>();
  /** Local names of MDX snippets imported as components (`import Intro from '/snippets/intro.mdx'`). */
  const mdxComponents = new Set<string>();
  const companionImports: string[] = [];
  const declarations: string[] = [];
  const declared: string[] = [];
  let firstDeclaration: Edit | undefined;

  for (const node of tree.children ?? []) {
    if (node.type !== 'mdxjsEsm') continue;
    for (const statement of node.data?.estree?.body ?? []) {
      const { start, end } = statement as unknown as { start: number; end: number };
      if (statement.type === 'ImportDeclaration') {
        const specifier = String(statement.source.value);
        const source = statement.source as unknown as { start: number; end: number };
        const target = importTarget(specifier, relFile);
        const written = target && specifier.startsWith('/') ? path.join(contentRoot, target) : specifier;
        const fromSnippet = target?.endsWith('.mdx') && exportsOf ? new Set(exportsOf(path.join(contentRoot, target))) : undefined;
        if (fromSnippet?.size) {
          const edit = snippetComponentImport(text, statement, written, path.join(contentRoot, target!) + COMPANION_SUFFIX, fromSnippet);
          if (edit) {
            edits.push(edit.edit);
            edit.names.forEach((n) => codeNames.add(n));
            companionImports.push(edit.companionImport);
            continue;
          }
        }
        if (written !== specifier) edits.push({ start: source.start, end: source.end, text: JSON.stringify(written) });
        if (target?.endsWith('.mdx')) for (const s of statement.specifiers) if (s.type === 'ImportDefaultSpecifier') mdxComponents.add(s.local.name);
        const isCode = REACT_PACKAGES.has(specifier) || (target !== undefined && CODE_FILE.test(target));
        if (!isCode) continue;
        for (const s of statement.specifiers) codeNames.add(s.local.name);
        // The companion sits beside the page: relative paths mean the same file from there.
        companionImports.push(text.slice(start, source.start) + JSON.stringify(written) + text.slice(source.end, end));
      } else if (statement.type === 'ExportNamedDeclaration' && statement.declaration) {
        const names = declaredNames(statement.declaration);
        if (!names.length) continue;
        names.forEach((n) => codeNames.add(n));
        declared.push(...names);
        declarations.push(text.slice(start, end));
        const edit = { start, end, text: blank(text.slice(start, end)) };
        firstDeclaration ??= edit;
        edits.push(edit);
      }
    }
  }

  const islands = handlerIslands(text, tree, edits);

  let companion: string | undefined;
  if (firstDeclaration) {
    const line = `import { ${[...declared, ...islands.names].join(', ')} } from ${JSON.stringify(file + COMPANION_SUFFIX)};`;
    // On the first declaration's first line; the lines it spanned stay (blank).
    firstDeclaration.text = line + firstDeclaration.text.slice(firstDeclaration.text.indexOf('\n') < 0 ? firstDeclaration.text.length : firstDeclaration.text.indexOf('\n'));
  } else if (islands.names.length) {
    edits.push(leadingImport(tree, `import { ${islands.names.join(', ')} } from ${JSON.stringify(file + COMPANION_SUFFIX)};`, islands.first));
  }
  if (firstDeclaration || islands.names.length) companion = [...companionImports, ...declarations, ...islands.components].join('\n') + '\n';

  if (mdxComponents.size) {
    // An imported MDX module renders with only the components it is given: the page hands on its
    // own (Mintlify's built-in set), so a snippet's <Note> or <ResponseField> renders as on the page.
    const visit = (node: Node) => {
      if ((node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') && node.name && mdxComponents.has(node.name)) {
        const at = node.position?.start.offset;
        if (at !== undefined && !node.attributes?.some((a) => a.name === 'components')) {
          const nameEnd = text.indexOf(node.name, at) + node.name.length;
          edits.push({ start: nameEnd, end: nameEnd, text: ' components={props.components}' });
        }
      }
      for (const child of node.children ?? []) visit(child);
    };
    visit(tree);
  }

  if (codeNames.size) {
    const visit = (node: Node) => {
      if ((node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') && node.name) {
        const root = node.name.split('.')[0] ?? '';
        const hasClient = node.attributes?.some((a) => a.name?.startsWith('client:'));
        const at = node.position?.start.offset;
        if (codeNames.has(root) && !hasClient && at !== undefined) {
          const nameEnd = text.indexOf(node.name, at) + node.name.length;
          edits.push({ start: nameEnd, end: nameEnd, text: ' client:load' });
        }
      }
      for (const child of node.children ?? []) visit(child);
    };
    visit(tree);
  }

  edits.sort((a, b) => b.start - a.start);
  let page = text;
  for (const edit of edits) page = page.slice(0, edit.start) + edit.text + page.slice(edit.end);
  return { page, companion, declared };
}

/**
 * `line`, an import, placed before the page's first island: Astro reads a hydrated component's
 * import only if it stands before the component, and an import must be a block of its own (blank
 * lines around it). Before the page's first import or export, on its line, when that comes first,
 * so no line of the page moves; else on lines of its own before the first block, which moves the
 * page's lines by two (the check before the build reports the lines the author wrote).
 */
function leadingImport(tree: Node, line: string, firstIsland: number): Edit {
  const esm = tree.children?.find((n) => n.type === 'mdxjsEsm')?.position?.start.offset;
  if (esm !== undefined && esm < firstIsland) return { start: esm, end: esm, text: `${line} ` };
  const at = tree.children?.[0]?.position?.start.offset ?? firstIsland;
  return { start: at, end: at, text: `${line}\n\n` };
}

/** An element's attribute that is an event handler written as code (`onClick={…}`). */
const isHandler = (a: { type: string; name?: string; value?: unknown }) => a.type === 'mdxJsxAttribute' && /^on[A-Z]/.test(a.name ?? '') && typeof a.value === 'object' && a.value !== null;

/**
 * Every HTML element of the page with an event handler written as code, as a React component of
 * the companion (`components`, named `names`) that the page renders, hydrated, in its place (the
 * element's children stay the page's, rendered as the page renders them). Lines are kept.
 */
function handlerIslands(text: string, tree: Node, edits: Edit[]): { names: string[]; components: string[]; first: number } {
  const names: string[] = [];
  const components: string[] = [];
  let firstStart = text.length;
  const visit = (node: Node) => {
    const isElement = (node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') && node.name && /^[a-z]/.test(node.name) && !node.name.includes('.');
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (isElement && start !== undefined && end !== undefined && node.attributes?.some(isHandler)) {
      const name = `FolioIsland${names.length + 1}`;
      firstStart = Math.min(firstStart, start);
      const source = text.slice(start, end);
      const firstChild = node.children?.[0]?.position?.start.offset;
      const selfClosing = !node.children?.length && /\/\s*>$/.test(source);
      // The opening tag ends at the last `>` before the first child (or the element's end).
      const openEnd = selfClosing ? end : text.lastIndexOf('>', firstChild ?? text.lastIndexOf('</', end - 1) - 1) + 1;
      const closeStart = selfClosing ? end : text.lastIndexOf('</', end - 1);
      const open = text.slice(start, openEnd);
      const lineBreaks = (s: string) => '\n'.repeat(s.split('\n').length - 1);
      const element = selfClosing ? open : `${open}{children}${text.slice(closeStart, end)}`;
      components.push(`export const ${name} = ({ children }) => (${element});`);
      names.push(name);
      if (selfClosing) edits.push({ start, end, text: `<${name} client:load />${lineBreaks(open)}` });
      else {
        edits.push({ start, end: openEnd, text: `<${name} client:load>${lineBreaks(open)}` });
        edits.push({ start: closeStart, end, text: `</${name}>${lineBreaks(text.slice(closeStart, end))}` });
      }
    }
    for (const child of node.children ?? []) visit(child);
  };
  visit(tree);
  return { names, components, first: firstStart };
}

type Import = Extract<Program['body'][number], { type: 'ImportDeclaration' }>;

/**
 * The import of an MDX snippet split in two: the snippet's own components (its export
 * declarations) from its companion, anything else (its default export, the content) from the
 * snippet as written. Lines are kept.
 */
function snippetComponentImport(text: string, statement: Import, written: string, companion: string, exported: ReadonlySet<string>) {
  const name = (s: Import['specifiers'][number]) => (s.type === 'ImportSpecifier' ? (s.imported.type === 'Identifier' ? s.imported.name : String(s.imported.value)) : '');
  const components = statement.specifiers.filter((s) => s.type === 'ImportSpecifier' && exported.has(name(s)));
  if (!components.length) return undefined;
  const rest = statement.specifiers.filter((s) => !components.includes(s));
  const named = (list: typeof rest) => `{ ${list.map((s) => (name(s) === s.local.name ? s.local.name : `${name(s)} as ${s.local.name}`)).join(', ')} }`;
  const restParts = [
    ...rest.filter((s) => s.type === 'ImportDefaultSpecifier').map((s) => s.local.name),
    ...rest.filter((s) => s.type === 'ImportNamespaceSpecifier').map((s) => `* as ${s.local.name}`),
    ...(rest.some((s) => s.type === 'ImportSpecifier') ? [named(rest.filter((s) => s.type === 'ImportSpecifier'))] : []),
  ];
  const companionImport = `import ${named(components)} from ${JSON.stringify(companion)};`;
  const replacement = (restParts.length ? `import ${restParts.join(', ')} from ${JSON.stringify(written)}; ` : '') + companionImport;
  const { start, end } = statement as unknown as { start: number; end: number };
  const lineBreaks = text.slice(start, end).split('\n').length - 1;
  return {
    edit: { start, end, text: replacement + '\n'.repeat(lineBreaks) },
    names: components.map((s) => s.local.name),
    companionImport,
  };
}

/** Spaces for every character but line breaks, so what follows keeps its line and column. */
function blank(s: string): string {
  return s.replace(/[^\n]/g, ' ');
}

type Declaration = NonNullable<Extract<Program['body'][number], { type: 'ExportNamedDeclaration' }>['declaration']>;

function declaredNames(declaration: Declaration): string[] {
  if (declaration.type === 'VariableDeclaration') return declaration.declarations.flatMap((d) => patternNames(d.id));
  return declaration.id ? [declaration.id.name] : [];
}

/** The names a declaration's pattern binds (`const { a, b: [c] } = …` binds a and c). */
export const patternNames = boundNames;
