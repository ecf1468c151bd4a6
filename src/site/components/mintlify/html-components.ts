// The components written as markup functions (component-markup.ts) as Astro components, for pages
// compiled as MDX modules, and as the JSX a page kept as data puts in their place (static-mdx-render.ts).
// Both give the same HTML, byte for byte (test/site/static-mdx.test.ts).
import { Fragment, jsx } from 'astro/jsx-runtime';
import { createComponent, renderJSX, renderSlot, renderTemplate } from 'astro/runtime/server/index.js';
import { CHILDREN } from './markup.ts';
import * as markups from './component-markup.ts';
import type { Markup } from './component-markup.ts';

export type { Markup } from './component-markup.ts';
type Props = Record<string, unknown>;

/** Marks a component made by htmlComponent; its value is the component's markup. */
export const MARKUP = Symbol.for('folio.markup');

interface AstroResult {
  createAstro(props: Props, slots: Props): { url: URL };
}

/** The Astro component of `markup`, for pages compiled as MDX modules (and shown as `name` in Astro's messages). */
export function htmlComponent(name: string, markup: Markup) {
  const factory = createComponent((result: AstroResult, props: Props | undefined, slots: Record<string, unknown> | undefined) => {
    const page = result.createAstro(props ?? {}, slots ?? {}).url.pathname;
    const expressions = markup(props ?? {}, page).map((part) => {
      if (part === CHILDREN) return slots?.default ? renderSlot(result as never, slots.default as never) : '';
      return typeof part === 'object' && 'node' in part ? renderJSX(result as never, part.node) : part;
    });
    return renderTemplate(Object.assign(['', ...expressions.map(() => '')], { raw: [] }) as unknown as TemplateStringsArray, ...expressions);
  });
  Object.defineProperty(factory, 'name', { value: name });
  return Object.assign(factory, { [MARKUP]: markup });
}

/** The JSX a page kept as data renders for a component with markup (static-mdx-render.ts). */
export function expandMarkup(markup: Markup, props: Props, page: string): unknown {
  // The props an Astro component gets from JSX on the MDX path: Astro's JSX renderer takes
  // `children` and any object prop with `$$slot` as slots, which the markup never shows.
  const own: Props = {};
  for (const [key, value] of Object.entries(props)) if (key !== 'children' && !(value && typeof value === 'object' && '$$slot' in value && (value as Props).$$slot)) own[key] = value;
  return jsx(Fragment, { children: markup(own, page).map((part) => (part === CHILDREN ? props.children : typeof part === 'object' && 'node' in part ? part.node : part)) });
}

export const Note = htmlComponent('Note', markups.Note);
export const Tip = htmlComponent('Tip', markups.Tip);
export const Info = htmlComponent('Info', markups.Info);
export const Warning = htmlComponent('Warning', markups.Warning);
export const Check = htmlComponent('Check', markups.Check);
export const Danger = htmlComponent('Danger', markups.Danger);
export const ParamField = htmlComponent('ParamField', markups.ParamField);
export const ResponseField = htmlComponent('ResponseField', markups.ResponseField);
export const Steps = htmlComponent('Steps', markups.Steps);
export const Step = htmlComponent('Step', markups.Step);
export const AccordionGroup = htmlComponent('AccordionGroup', markups.AccordionGroup);
export const Accordion = htmlComponent('Accordion', markups.Accordion);
export const Columns = htmlComponent('Columns', markups.Columns);
export const CardGroup = htmlComponent('CardGroup', markups.CardGroup);
export const Card = htmlComponent('Card', markups.Card);
export const Tab = htmlComponent('Tab', markups.Tab);
export const Badge = htmlComponent('Badge', markups.Badge);
export const Icon = htmlComponent('Icon', markups.Icon);
export const Column = htmlComponent('Column', markups.Column);
export const Panel = htmlComponent('Panel', markups.Panel);
export const Frame = htmlComponent('Frame', markups.Frame);
export const Expandable = htmlComponent('Expandable', markups.Expandable);
export const Tile = htmlComponent('Tile', markups.Tile);
export const Tooltip = htmlComponent('Tooltip', markups.Tooltip);
export const Update = htmlComponent('Update', markups.Update);
export const View = htmlComponent('View', markups.View);
export const Visibility = htmlComponent('Visibility', markups.Visibility);
export const Tree = htmlComponent('Tree', markups.Tree);
export const TreeFile = htmlComponent('Tree.File', markups.TreeFile);
export const TreeFolder = htmlComponent('Tree.Folder', markups.TreeFolder);
export const Color = htmlComponent('Color', markups.Color);
export const ColorRow = htmlComponent('Color.Row', markups.ColorRow);
export const ColorItem = htmlComponent('Color.Item', markups.ColorItem);
export const Callout = htmlComponent('Callout', markups.Callout);
export const ApiMethod = htmlComponent('ApiMethod', markups.ApiMethod);
export const GitHubRepo = htmlComponent('GitHub.Repo', markups.GitHubRepo);
/** Prompt.astro renders it, with the script of its copy button. */
export const Prompt = htmlComponent('Prompt', markups.Prompt);
