// The component family: JSX elements of MDX pages. HTML elements that run script or change the
// page are refused, an `<iframe>` only embeds allowed players; components are Folio's catalog
// (catalog.ts) or, with code, the page's own; attribute values are literals (markup where a prop
// shows markup), without script URLs, event handlers written as text or Astro directives; some
// components check their values (ApiMethod, Callout, Snippet). Unknown components and props build,
// with a warning, as on Mintlify.
import type { Node as EstreeNode, Program } from 'estree';
import { CALLOUT_KINDS, COMPONENT_NAMES, COMPONENTS, BADGE_METHODS, ICON_LIBRARIES, iconLibraryOf, nearest, nearestComponent, normalizeMethod } from '../../components/catalog.ts';
import { snippetKey } from '../../snippet-paths.ts';
import { PLACEHOLDER_EXPR } from '../../markdown/snippet-placeholders.ts';
import { EMBED_ORIGINS, isEmbedUrl } from '../../embeds.ts';
import { FORBIDDEN_ELEMENTS } from '../script-urls.ts';
import { isLiteral, JS, JsxParser, literalValue, readExpression } from '../literals.ts';
import { ENABLE_CODE, shorten, type CheckFamily, type MdAttribute, type MdNode, type PageCheck, type Report } from '../analysis.ts';
import { checkScriptAttribute } from './urls.ts';

/** Astro's template directives (`set:html`, `is:raw`, `define:vars`, `client:load` …). */
export const ASTRO_DIRECTIVE = /^(?:set|is|define|client|server|transition):/i;
// The full list is long (Mintlify's built-in set): the docs page lists them with their props.
const AVAILABLE = 'available components: Mintlify\'s built-in set and ApiMethod, Callout, Snippet (see "Components" in the docs)';

export function componentFamily(check: PageCheck): CheckFamily {
  const element = (node: MdNode) => checkElement(node, check);
  return { nodes: { mdxJsxFlowElement: element, mdxJsxTextElement: element } };
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

function checkElement(node: MdNode, check: PageCheck) {
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
 * same mdast nodes (elements, attributes, expressions) and the walker visits them as the page's
 * own, reported at the element that holds the attribute.
 */
function checkMarkupLiteral(holder: MdNode, source: string, check: PageCheck) {
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
  const root = convert(markup);
  if (root) check.visit(root);
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

function checkSnippet(node: MdNode, attrs: Map<string, unknown>, { result, report, place, options }: PageCheck) {
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
