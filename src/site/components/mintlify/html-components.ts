// The components a page of Mintlify content uses most, written as a function of their props that
// returns their markup around their children (MarkupPart[], markup.ts) instead of as .astro files.
// An MDX page kept as data (static-mdx-render.ts) puts that markup straight into the page's JSX,
// with no Astro component instance at all; a page compiled as an MDX module renders each as one
// Astro component made from the same function (htmlComponent). Both give the same HTML, byte for
// byte (test/site/static-mdx.test.ts). A page of components has dozens of them, and each Astro
// component instance cost render time (docs/decisions.md#mintlify-components). Each also carries
// the class name Mintlify documents for custom CSS (`callout`, `card`, `card-group`, `steps`,
// `step`, `accordion`, `field`…) beside Folio's own `mint-*` ones, which alone are styled here
// (docs/decisions.md#custom-css-and-javascript).
import { Fragment, jsx } from 'astro/jsx-runtime';
import { addAttribute, createComponent, escapeHTML, renderJSX, renderSlot, renderTemplate } from 'astro/runtime/server/index.js';
import { CHILDREN, html, iconParts, textParts, type MarkupPart } from './markup.ts';

type Props = Record<string, unknown>;
/** A component's markup: its props and the page's path (named in warnings) to parts. */
export type Markup = (props: Props, page: string) => MarkupPart[];

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

/** An attribute as an Astro template writes it (its own function: nothing for undefined or false, class:list joined). */
const attr = (name: string, value: unknown) => String(addAttribute(value, name));
/** A value written as text in a template (`{value}`), escaped as Astro escapes it. */
const text = (value: unknown) => html(escapeHTML(String(value)));

const CALLOUT_ICONS: Record<string, string> = { note: 'circle-info', tip: 'lightbulb', info: 'circle-info', warning: 'triangle-exclamation', check: 'check', danger: 'circle-exclamation' };

/** Mintlify's callouts (Note, Tip, Info, Warning, Check, Danger): an aside with the kind's icon and colour. */
const calloutBox = (kind: string): Markup => ({ icon, iconType, iconLibrary, color }, page) => [
  html(`<aside${attr('class:list', ['callout', `callout-${kind}`, 'mint-callout'])} role="note"${attr('aria-label', kind.charAt(0).toUpperCase() + kind.slice(1))}${attr('style', color ? `--callout-color: ${String(color)}` : undefined)}>`),
  ...iconParts(icon ?? CALLOUT_ICONS[kind], page, { iconType: iconType as string | undefined, iconLibrary: iconLibrary as string | undefined, className: 'mint-callout-icon' }),
  html('<div class="callout-body">'),
  CHILDREN,
  html('</div></aside>'),
];
export const Note = htmlComponent('Note', calloutBox('note'));
export const Tip = htmlComponent('Tip', calloutBox('tip'));
export const Info = htmlComponent('Info', calloutBox('info'));
export const Warning = htmlComponent('Warning', calloutBox('warning'));
export const Check = htmlComponent('Check', calloutBox('check'));
export const Danger = htmlComponent('Danger', calloutBox('danger'));

/** One API field (ParamField, ResponseField): name, where it goes, type, labels and its description. */
function field(kind: 'param' | 'response', props: Props, name: unknown, location: string | undefined): MarkupPart[] {
  const { type, required, optional, deprecated, placeholder, pre, post, hidden } = props;
  if (hidden) return [];
  const defaultValue = props.default;
  const labels = (v: unknown) => (Array.isArray(v) ? v : v === undefined ? [] : [v]).map((l) => `<span class="mint-field-label">${escapeHTML(String(l))}</span>`).join('');
  const shown = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  const id = props.id ?? (typeof name === 'string' ? `${kind}-${[location, name].filter(Boolean).join('-')}`.toLowerCase().replace(/[^a-z0-9_-]+/g, '-') : undefined);
  return [
    html(`<div${attr('class:list', ['mint-field', `mint-${kind}-field`, deprecated && 'mint-field-deprecated', 'field'])}${attr('id', id)}><div class="mint-field-head">${labels(pre)}<code class="mint-field-name">`),
    ...textParts(name),
    html(`</code>${location ? `<span class="mint-field-location">${escapeHTML(location)}</span>` : ''}`),
    ...(type !== undefined ? [html('<span class="mint-field-type">'), ...textParts(type), html('</span>')] : []),
    html(`${required ? '<span class="mint-field-required">required</span>' : ''}${optional ? '<span class="mint-field-optional">optional</span>' : ''}${deprecated ? '<span class="mint-field-deprecated-label">deprecated</span>' : ''}`),
    ...(defaultValue !== undefined ? [html('<span class="mint-field-default">default: <code>'), text(shown(defaultValue)), html('</code></span>')] : []),
    ...(placeholder !== undefined ? [html('<span class="mint-field-placeholder">example: <code>'), typeof placeholder === 'object' && placeholder !== null ? { node: placeholder } : text(placeholder), html('</code></span>')] : []),
    html(`${labels(post)}</div><div class="mint-field-body">`),
    CHILDREN,
    html('</div></div>'),
  ];
}

const LOCATIONS = ['query', 'path', 'body', 'header'] as const;

/** A request parameter: `query`, `path`, `body` or `header` names it and says where it goes. */
export const ParamField = htmlComponent('ParamField', (props) => {
  const location = LOCATIONS.find((l) => props[l] !== undefined);
  return field('param', { ...props, placeholder: props.placeholder ?? props.initialValue }, location ? props[location] : props.name, location);
});

/** A field of an API response (Mintlify's `defaultOpen` has nothing to open here). */
export const ResponseField = htmlComponent('ResponseField', (props) => field('response', props, props.name, typeof props.location === 'string' ? props.location : undefined));

/** Numbered steps: an ordered list; each <Step> is one item. */
export const Steps = htmlComponent('Steps', ({ className, titleSize }) => [html(`<ol${attr('class:list', ['mint-steps', 'steps', className])}${attr('data-title-size', titleSize)}>`), CHILDREN, html('</ol>')]);

/**
 * One step: its number (or icon) on the rail, then title and content. `stepNumber` sets the number
 * shown (and those of the steps after it).
 */
export const Step = htmlComponent('Step', ({ title, icon, iconType, iconLibrary, stepNumber, titleSize = 'p', id }, page) => {
  const Title = titleSize === 'h2' || titleSize === 'h3' ? titleSize : 'p';
  const number = Number(stepNumber);
  const numbered = Number.isInteger(number);
  return [
    html(`<li class="mint-step step"${attr('id', id)}${attr('value', numbered ? number : undefined)}${attr('style', numbered ? `counter-set: mint-step ${number}` : undefined)}><span${attr('class:list', ['mint-step-marker', icon !== undefined && 'mint-step-marker-icon'])} aria-hidden="true">`),
    ...(icon !== undefined ? iconParts(icon, page, { iconType: iconType as string | undefined, iconLibrary: iconLibrary as string | undefined }) : []),
    html('</span><div class="mint-step-body">'),
    ...(title !== undefined ? [html(`<${Title} class="mint-step-title">`), ...textParts(title), html(`</${Title}>`)] : []),
    html('<div class="mint-step-content">'),
    CHILDREN,
    html('</div></div></li>'),
  ];
});

/** Accordions stacked as one block. */
export const AccordionGroup = htmlComponent('AccordionGroup', ({ className }) => [html(`<div${attr('class:list', ['mint-accordion-group', 'accordion-group', className])}>`), CHILDREN, html('</div>')]);

/** An accordion: a <details> element, so it opens and closes by click and keyboard with no script. */
export const Accordion = htmlComponent('Accordion', ({ title, description, defaultOpen, icon, iconType, iconLibrary, id }, page) => {
  const anchor = id ?? (typeof title === 'string' ? title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') : undefined);
  return [
    html(`<details class="mint-accordion accordion"${attr('id', anchor || undefined)}${attr('open', defaultOpen || undefined)}><summary class="mint-accordion-summary">`),
    ...iconParts(icon, page, { iconType: iconType as string | undefined, iconLibrary: iconLibrary as string | undefined, className: 'mint-accordion-icon' }),
    html('<span class="mint-accordion-heading"><span class="mint-accordion-title">'),
    ...textParts(title),
    html('</span>'),
    ...(description !== undefined ? [html('<span class="mint-accordion-description">'), ...textParts(description), html('</span>')] : []),
    html('</span></summary><div class="mint-accordion-body">'),
    CHILDREN,
    html('</div></details>'),
  ];
});

/** Mintlify's CardGroup and Columns: children side by side in `cols` columns (one on narrow screens). */
const columns = (mintlifyClass?: string): Markup => ({ cols, className }) => {
  const count = Math.min(6, Math.max(1, Math.floor(Number(cols ?? 2)) || 2));
  return [html(`<div${attr('class:list', ['mint-columns', mintlifyClass, className])}${attr('style', `--mint-cols: ${count}`)}>`), CHILDREN, html('</div>')];
};
export const Columns = htmlComponent('Columns', columns());
export const CardGroup = htmlComponent('CardGroup', columns('card-group'));

/**
 * A card: title, icon (or image on top), text, and a link when it has an href (the whole card is
 * the link). Its attributes stand in the order Astro writes them on an element whose tag is chosen
 * at render time: class last.
 */
export const Card = htmlComponent('Card', ({ title, icon, iconType, iconLibrary, color, href, horizontal, img, cta, arrow }, page) => {
  const tag = href ? 'a' : 'div';
  const external = typeof href === 'string' && /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(href);
  return [
    html(`<${tag}${attr('href', href)}${attr('style', color ? `--mint-accent: ${String(color)}` : undefined)}${attr('rel', external ? 'noopener noreferrer' : undefined)}${attr('class:list', ['mint-card', horizontal && 'mint-card-horizontal', href && 'mint-card-link', 'card'])}>`),
    html(img ? `<img class="mint-card-img"${attr('src', img)} alt="">` : ''),
    ...(icon !== undefined ? iconParts(icon, page, { iconType: iconType as string | undefined, iconLibrary: iconLibrary as string | undefined, className: 'mint-card-icon' }) : []),
    html('<div class="mint-card-body">'),
    ...(title !== undefined ? [html('<p class="mint-card-title">'), ...textParts(title), html('</p>')] : []),
    html('<div class="mint-card-content">'),
    CHILDREN,
    html('</div>'),
    ...(cta !== undefined ? [html('<span class="mint-card-cta">'), ...textParts(cta), html(' <span aria-hidden="true">→</span></span>')] : []),
    html(`</div>${arrow ? '<span class="mint-card-arrow" aria-hidden="true">↗</span>' : ''}</${tag}>`),
  ];
});

/** One panel of <Tabs>: Tabs reads its title (and icon) from here to build the tab list. */
export const Tab = htmlComponent('Tab', ({ title = 'Tab', icon, iconType, iconLibrary, id }, page) => [
  html(`<div class="mint-tab-panel tab"${attr('data-mint-tab', String(title))}${attr('data-mint-tab-id', id)}>`),
  ...(icon !== undefined ? [html('<template class="mint-tab-icon">'), ...iconParts(icon, page, { iconType: iconType as string | undefined, iconLibrary: iconLibrary as string | undefined }), html('</template>')] : []),
  CHILDREN,
  html('</div>'),
]);

const BADGE_COLORS = ['gray', 'blue', 'green', 'yellow', 'orange', 'red', 'purple', 'white', 'surface', 'white-destructive', 'surface-destructive'];

/** An inline label: colour, size, shape, icon, outline (stroke) and disabled look. */
export const Badge = htmlComponent('Badge', ({ color = 'gray', size = 'md', shape = 'rounded', icon, iconType, iconLibrary, stroke, disabled, className }, page) => {
  const named = BADGE_COLORS.includes(color as string);
  const sized = ['xs', 'sm', 'md', 'lg'].includes(size as string) ? size : 'md';
  return [
    html(`<span${attr('class:list', ['mint-badge', named && `mint-badge-${String(color)}`, `mint-badge-${String(sized)}`, shape === 'pill' && 'mint-badge-pill', stroke && 'mint-badge-stroke', disabled && 'mint-badge-disabled', className])}${attr('style', named ? undefined : `--mint-badge: ${String(color)}`)}${attr('aria-disabled', disabled ? 'true' : undefined)} data-badge${attr('data-color', color)}${attr('data-size', sized)}>`),
    ...(icon !== undefined ? iconParts(icon, page, { iconType: iconType as string | undefined, iconLibrary: iconLibrary as string | undefined }) : []),
    CHILDREN,
    html('</span>'),
  ];
});

/**
 * Mintlify's <Icon>, and the icon of every other component: a Font Awesome or Lucide name, an
 * image URL or path, or markup written in the page (icon={<svg …/>}), which the content check passed.
 */
export const Icon = htmlComponent('Icon', ({ icon, name, iconType, iconLibrary, color, size, className }, page) =>
  iconParts(icon ?? name, page, { iconType: iconType as string | undefined, iconLibrary: iconLibrary as string | undefined, color: color as string | undefined, size: size as number | string | undefined, className: ['icon', className].filter(Boolean).join(' ') }));
