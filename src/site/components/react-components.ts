// Folio's built-in components as React components, for the React code of a project with code
// (`allow_code`): a component an author defines in a page or snippet (`export const X = () => <Note>…`)
// or in a .jsx/.tsx/.js file uses them without an import, as on Mintlify (src/site/code/integration.ts
// adds the import). Each is made from the same markup function as its Astro component
// (mintlify/component-markup.ts), so it gives the same HTML; the markup is Folio's own (its values
// escaped), read here into React elements around the children.
//
// In the reader's browser (hydration) the icon library is not shipped: icons.ts is replaced by a stub
// there (src/site/code/integration.ts) and an element whose content is only Folio's markup (an icon's
// <svg>) is rendered with dangerouslySetInnerHTML, whose server HTML React keeps when it hydrates.
// KaTeX is a stub there too (mintlify/latex.ts): a formula is such an element.
//
// The components that build their markup from their children (Tabs, CodeGroup, the API examples,
// Latex, Mermaid) gather here from the React elements what their .astro file reads from a page's
// rendered children, and give it to the same markup function. Those whose page script does
// something (tab switching, Prompt's copy button) bind the same script after hydration.
import { Children, Fragment, createElement, isValidElement, useEffect, type ReactNode } from 'react';
import * as markups from './mintlify/component-markup.ts';
import { CHILDREN, html, iconParts, type MarkupPart } from './mintlify/markup.ts';
import { decodeEntities, escapeHtml } from './mintlify/html-parts.ts';
import { enhanceTabSets } from './mintlify/tab-sets.ts';
import { KATEX_CSS } from './mintlify/vendor-paths.ts';
import type { GatheredMarkup, Markup, TabSet } from './mintlify/component-markup.ts';
import type { TabItem } from './mintlify/tabs-html.ts';

type Props = Record<string, unknown> & { children?: ReactNode };

/** What the page's warnings name when an icon is unknown in React code (React gives no page path). */
const IN_REACT = 'React code';

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const TOKEN = /<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)((?:\s+[^\s"'=/>]+(?:="[^"]*")?)*)\s*(\/?)>|<!--[\s\S]*?-->|[^<]+|</g;
const ATTRIBUTE = /([^\s"'=/>]+)(?:="([^"]*)")?/g;

interface Element {
  tag: string;
  attributes: Record<string, string | true>;
  children: Node[];
  /** The HTML between the opening and closing tags, as written. */
  inner: string;
  /** True when a child, a prop's markup or the component's children stand inside. */
  live: boolean;
}
type Node = Element | { text: string } | { slot: ReactNode };

/** A component's parts as a tree of elements, text and slots (the children, markup from props). */
function tree(parts: MarkupPart[], children: ReactNode): Node[] {
  const root: Element = { tag: '', attributes: {}, children: [], inner: '', live: false };
  const stack: Element[] = [root];
  const top = () => stack[stack.length - 1]!;
  const addRaw = (raw: string) => stack.forEach((e) => (e.inner += raw));
  const addSlot = (slot: ReactNode) => {
    stack.forEach((e) => (e.live = true));
    top().children.push({ slot });
  };
  for (const part of parts) {
    if (part === CHILDREN) addSlot(children);
    else if (typeof part === 'object' && part !== null && 'node' in part) addSlot(part.node as ReactNode);
    else {
      for (const m of String(part).matchAll(TOKEN)) {
        const [raw, closing, tag, attributeText, selfClosing] = m;
        if (!tag) {
          if (!raw.startsWith('<!--')) top().children.push({ text: decodeEntities(raw) });
          addRaw(raw);
        } else if (closing) {
          if (stack.length > 1) stack.pop();
          addRaw(raw);
        } else {
          addRaw(raw);
          const attributes: Element['attributes'] = {};
          for (const a of (attributeText ?? '').matchAll(ATTRIBUTE)) attributes[a[1]!] = a[2] === undefined ? valueless(a[1]!) : decodeEntities(a[2]);
          const element: Element = { tag: tag.toLowerCase(), attributes, children: [], inner: '', live: false };
          top().children.push(element);
          if (!selfClosing && !VOID.has(element.tag)) stack.push(element);
        }
      }
    }
  }
  return root.children;
}

/**
 * A valueless attribute as React writes it back the same: `true` for HTML's boolean attributes
 * (`open`, `hidden`; React writes `open=""`), the empty string for data attributes (React would
 * write `true` as the text "true"; `<span data-badge>` stays `data-badge=""`).
 */
const valueless = (name: string): string | true => (name.startsWith('data-') ? '' : true);

const REACT_NAMES: Record<string, string> = { class: 'className', for: 'htmlFor', tabindex: 'tabIndex' };

/** An inline style as React takes it: `--mint-cols: 2; color: red` → { '--mint-cols': '2', color: 'red' }. */
function styleObject(style: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const declaration of style.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    const name = declaration.slice(0, colon).trim();
    const key = name.startsWith('--') ? name : name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    if (key) out[key] = declaration.slice(colon + 1).trim();
  }
  return out;
}

function reactNode(node: Node): ReactNode {
  if ('text' in node) return node.text;
  if ('slot' in node) return Children.toArray(node.slot);
  const props: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(node.attributes)) {
    props[REACT_NAMES[name] ?? name] = name === 'style' && typeof value === 'string' ? styleObject(value) : value;
  }
  if (VOID.has(node.tag)) return createElement(node.tag, props);
  // Folio's own markup with nothing of the author's inside (an icon's <svg>): kept as written, and
  // never compared when React hydrates it (in the browser, where icons.ts is a stub, it is empty).
  if (!node.live) return createElement(node.tag, { ...props, dangerouslySetInnerHTML: { __html: node.inner } });
  return createElement(node.tag, props, ...node.children.map(reactNode));
}

/** The React component rendering `parts` (named `name` in React's messages); `script`: binds tab sets and copy buttons once hydrated. */
function partsComponent(name: string, parts: (props: Props, children: ReactNode) => MarkupPart[], script = false) {
  const render = ({ children, ...props }: Props) => {
    const nodes = tree(parts(props, children), children);
    return nodes.length ? createElement(Fragment, null, ...nodes.map(reactNode)) : null;
  };
  const component = script
    ? (props: Props) => {
        // The page's tabs.ts binds what is on the page when it loads; this binds what React renders.
        useEffect(() => enhanceTabSets(document), []);
        return render(props);
      }
    : render;
  Object.defineProperty(component, 'name', { value: name });
  return component;
}

/** The React component of a markup function (named `name` in React's messages). */
export function reactComponent(name: string, markup: Markup, script = false) {
  return partsComponent(name, (props) => markup(props, IN_REACT), script);
}

/** The React component of a markup function that reads its children (`gather` reads them from the React elements). */
function gatheredComponent<T>(name: string, markup: GatheredMarkup<T>, gather: (children: ReactNode, props: Props) => T, script = false) {
  return partsComponent(name, (props, children) => markup(props, gather(children, props), IN_REACT), script);
}

/** A component's parts with its children (CHILDREN) put in. */
const filled = (parts: MarkupPart[], children: unknown): MarkupPart[] => parts.map((part) => (part === CHILDREN ? { node: children } : part));

/** The text of React children, as a page's Markdown gives the text of its rendered children. */
function textOf(children: ReactNode): string {
  return Children.toArray(children)
    .map((child) => (typeof child === 'string' || typeof child === 'number' ? String(child) : isValidElement(child) ? textOf((child.props as Props).children) : ''))
    .join('');
}

/** The tab set of React children: one tab per element of `type`, the rest kept after them. */
function tabSet(children: ReactNode, type: unknown, item: (props: Props, index: number) => TabItem): TabSet {
  const items: TabItem[] = [];
  const rest: MarkupPart[] = [];
  for (const child of Children.toArray(children)) {
    if (isValidElement(child) && child.type === type) items.push(item(child.props as Props, items.length));
    else rest.push({ node: child });
  }
  return { items, rest };
}

/** Tabs' tabs: each <Tab> child, its title and icon in the tab list, its panel without the icon. */
const tabsOf = (children: ReactNode): TabSet =>
  tabSet(children, Tab, (props) => {
    const { title = 'Tab', icon, iconType, iconLibrary } = props;
    const label = icon !== undefined ? iconParts(icon, IN_REACT, { iconType: iconType as string | undefined, iconLibrary: iconLibrary as string | undefined }) : [];
    return { label: markups.tabLabel(String(title), label), text: String(title), panel: filled(markups.Tab({ ...props, icon: undefined }, IN_REACT), props.children) };
  });

/** A code group's tabs: each <CodeBlock> child, named by its filename, else its language. */
const codeBlocksOf = (children: ReactNode): TabSet =>
  tabSet(children, CodeBlock, (props, i) => {
    const { filename, language } = props;
    const name = markups.codeTabName(typeof filename === 'string' ? filename : undefined, typeof language === 'string' ? language : undefined, i);
    return { label: [html(escapeHtml(name))], text: name, panel: filled(markups.CodeBlock(props, IN_REACT), props.children) };
  });

export const Note = reactComponent('Note', markups.Note);
export const Tip = reactComponent('Tip', markups.Tip);
export const Info = reactComponent('Info', markups.Info);
export const Warning = reactComponent('Warning', markups.Warning);
export const Check = reactComponent('Check', markups.Check);
export const Danger = reactComponent('Danger', markups.Danger);
export const Callout = reactComponent('Callout', markups.Callout);
export const ApiMethod = reactComponent('ApiMethod', markups.ApiMethod);
export const ParamField = reactComponent('ParamField', markups.ParamField);
export const ResponseField = reactComponent('ResponseField', markups.ResponseField);
export const Steps = reactComponent('Steps', markups.Steps);
export const Step = reactComponent('Step', markups.Step);
export const AccordionGroup = reactComponent('AccordionGroup', markups.AccordionGroup);
export const Accordion = reactComponent('Accordion', markups.Accordion);
export const Columns = reactComponent('Columns', markups.Columns);
export const CardGroup = reactComponent('CardGroup', markups.CardGroup);
export const Card = reactComponent('Card', markups.Card);
export const Tab = reactComponent('Tab', markups.Tab);
export const Badge = reactComponent('Badge', markups.Badge);
export const Icon = reactComponent('Icon', markups.Icon);
export const Column = reactComponent('Column', markups.Column);
export const Panel = reactComponent('Panel', markups.Panel);
export const Frame = reactComponent('Frame', markups.Frame);
export const Expandable = reactComponent('Expandable', markups.Expandable);
export const Tile = reactComponent('Tile', markups.Tile);
export const Tooltip = reactComponent('Tooltip', markups.Tooltip);
export const Update = reactComponent('Update', markups.Update);
export const View = reactComponent('View', markups.View);
export const Visibility = reactComponent('Visibility', markups.Visibility);
export const CodeBlock = reactComponent('CodeBlock', markups.CodeBlock);
export const Color = Object.assign(reactComponent('Color', markups.Color), { Row: reactComponent('Color.Row', markups.ColorRow), Item: reactComponent('Color.Item', markups.ColorItem) });
export const Tree = Object.assign(reactComponent('Tree', markups.Tree), { Folder: reactComponent('Tree.Folder', markups.TreeFolder), File: reactComponent('Tree.File', markups.TreeFile) });

export const Tabs = gatheredComponent('Tabs', markups.Tabs, tabsOf, true);
export const CodeGroup = gatheredComponent('CodeGroup', markups.CodeGroup, codeBlocksOf, true);
export const RequestExample = gatheredComponent('RequestExample', markups.RequestExample, codeBlocksOf, true);
export const ResponseExample = gatheredComponent('ResponseExample', markups.ResponseExample, codeBlocksOf, true);
export const Prompt = reactComponent('Prompt', markups.Prompt, true);
/**
 * Latex: a formula written on its own line of a page is a paragraph, shown as a block; in React, a
 * <p> child. Astro's React renderer removes every stylesheet link from React's HTML
 * (node_modules/@astrojs/react/dist/server.js), so the formula's markup goes without its link to
 * KaTeX's stylesheet, which the component adds to the page's head once hydrated (the site serves
 * the file: vendor.ts copies it for a page with a formula).
 */
const latexMarkup: GatheredMarkup<{ source: string; display: boolean }> = (props, gathered, page) =>
  markups.Latex(props, gathered, page).filter((part) => String(part) !== markups.KATEX_STYLESHEET);
const LatexFormula = gatheredComponent('Latex', latexMarkup, (children) => ({
  source: textOf(children).trim(),
  display: Children.toArray(children).some((child) => isValidElement(child) && child.type === 'p'),
}));
export const Latex = (props: Props) => {
  useEffect(() => {
    if (document.querySelector(`link[rel="stylesheet"][href="${KATEX_CSS}"]`)) return;
    document.head.append(Object.assign(document.createElement('link'), { rel: 'stylesheet', href: KATEX_CSS }));
  }, []);
  return LatexFormula(props);
};
export const Mermaid = gatheredComponent('Mermaid', markups.Mermaid, (children, props) => ({ text: props.chart === undefined ? textOf(children).trim() : '' }));
export const GitHub = { Repo: reactComponent('GitHub.Repo', markups.GitHubRepo) };

/**
 * Folio's Snippet (`<Snippet file=…/>`) reads a snippet of the content collection, which React code
 * cannot render: there it renders its children, with a warning in the build log, rather than
 * failing the page (what Mintlify deploys, Folio deploys).
 */
let snippetWarned = false;
export const Snippet = ({ children }: Props) => {
  if (!snippetWarned && typeof window === 'undefined') {
    snippetWarned = true;
    console.warn('[folio] warning: <Snippet> inside React code renders its children only (Folio renders it in full in the page itself)');
  }
  return createElement(Fragment, null, ...Children.toArray(children));
};
