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
import { Children, Fragment, createElement, type ReactNode } from 'react';
import * as markups from './mintlify/component-markup.ts';
import { CHILDREN, type MarkupPart } from './mintlify/markup.ts';
import { decodeEntities } from './mintlify/html-parts.ts';
import type { Markup } from './mintlify/component-markup.ts';

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

/** The React component of a markup function (named `name` in React's messages). */
export function reactComponent(name: string, markup: Markup) {
  const component = ({ children, ...props }: Props) => {
    const nodes = tree(markup(props, IN_REACT), children);
    return nodes.length ? createElement(Fragment, null, ...nodes.map(reactNode)) : null;
  };
  Object.defineProperty(component, 'name', { value: name });
  return component;
}

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

/**
 * A built-in component whose markup is still an .astro file (Tabs and code groups read their
 * rendered children, Latex and Mermaid their text; the others are not yet markup functions): in
 * React code it renders its children, with a warning in the build log, rather than failing the
 * page (what Mintlify deploys, Folio deploys).
 */
function childrenOnly(name: string) {
  let warned = false;
  const component = ({ children }: Props) => {
    if (!warned && typeof window === 'undefined') {
      warned = true;
      console.warn(`[folio] warning: <${name}> inside React code renders its children only (Folio renders it in full in the page itself)`);
    }
    return createElement(Fragment, null, ...Children.toArray(children));
  };
  Object.defineProperty(component, 'name', { value: name });
  return component;
}

export const Snippet = childrenOnly('Snippet');
export const Tabs = childrenOnly('Tabs');
export const CodeGroup = childrenOnly('CodeGroup');
export const RequestExample = childrenOnly('RequestExample');
export const ResponseExample = childrenOnly('ResponseExample');
export const GitHub = { Repo: childrenOnly('GitHub.Repo') };
export const Prompt = childrenOnly('Prompt');
export const Latex = childrenOnly('Latex');
export const Mermaid = childrenOnly('Mermaid');
