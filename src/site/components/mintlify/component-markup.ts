// Folio's built-in components, written as a function of their props that returns their markup
// around their children (MarkupPart[], markup.ts) instead of as .astro files; those that build their
// markup from their children (Tabs, code groups, Latex, Mermaid) take what was gathered from them
// (GatheredMarkup, below).
// One definition serves every way a page is rendered: an MDX page kept as data (static-mdx-render.ts)
// puts that markup straight into the page's JSX; a page compiled as an MDX module renders each as one
// Astro component made from it (html-components.ts); React code of a project with code renders each
// as a React component made from it (react-components.ts). All give the same HTML
// (test/site/static-mdx.test.ts, test/site/code-components.test.ts). A page of components has
// dozens of them, and each Astro component instance cost render time
// (docs/decisions.md#mintlify-components). This module imports no Astro renderer, so a browser
// bundle of React code can carry it.
import { addAttribute } from 'astro/runtime/server/render/util.js';
import { escapeHTML } from 'astro/runtime/server/escape.js';
import { CHILDREN, html, iconParts, textParts, type MarkupPart } from './markup.ts';
import { escapeHtml, uniqueId } from './html-parts.ts';
import { namedIconSvg } from './icons.ts';
import { latexHtml } from './latex.ts';
import { tabSetParts, type TabItem } from './tabs-html.ts';
import { KATEX_CSS, MERMAID_JS } from './vendor-paths.ts';
import { BADGE_METHODS, METHOD_TOKENS, normalizeMethod } from '../catalog.ts';

type Props = Record<string, unknown>;
/** A component's markup: its props and the page's path (named in warnings) to parts. */
export type Markup = (props: Props, page: string) => MarkupPart[];

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
export const Note: Markup = calloutBox('note');
export const Tip: Markup = calloutBox('tip');
export const Info: Markup = calloutBox('info');
export const Warning: Markup = calloutBox('warning');
export const Check: Markup = calloutBox('check');
export const Danger: Markup = calloutBox('danger');

/**
 * Folio's callout: `kind` (note by default) and a title shown above the text; Mintlify's form
 * (`icon`, `iconType`, `color`, no kind or title) shows that icon in that colour instead, labelled by its kind.
 */
export const Callout: Markup = (props, page) => {
  const { title, icon, iconType, iconLibrary, color } = props;
  const kind = String(props.kind ?? 'note');
  const showTitle = title !== undefined || props.kind !== undefined || (icon === undefined && color === undefined);
  const label = title ?? kind.charAt(0).toUpperCase() + kind.slice(1);
  return [
    html(`<aside${attr('class:list', ['callout', `callout-${kind}`, icon !== undefined && 'mint-callout'])} role="note"${attr('aria-label', showTitle ? undefined : label)}${attr('style', color ? `--callout-color: ${String(color)}` : undefined)}>`),
    ...(icon !== undefined ? iconParts(icon, page, { iconType: iconType as string | undefined, iconLibrary: iconLibrary as string | undefined, className: 'mint-callout-icon' }) : []),
    ...(showTitle ? [html('<p class="callout-title">'), ...shown(label), html('</p>')] : []),
    html('<div class="callout-body">'),
    CHILDREN,
    html('</div></aside>'),
  ];
};

/** Folio's HTTP method badge (docs/decisions.md#content-root): the upper-case name, coloured by its theme token. */
export const ApiMethod: Markup = (props, page) => {
  const method = normalizeMethod(props.method as string);
  // The content check reports this with page and line before the build; this guards direct use.
  if (!method) throw new Error(`ApiMethod method ${JSON.stringify(props.method)} on page ${page} is not one of ${BADGE_METHODS.join(', ')}`);
  return [html(`<span${attr('class:list', ['api-method', `api-method-${method.toLowerCase()}`])}${attr('style', `--method-color: var(${METHOD_TOKENS[method]})`)}${attr('data-method', method)}>${escapeHTML(method)}</span>`)];
};

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
export const ParamField: Markup = (props) => {
  const location = LOCATIONS.find((l) => props[l] !== undefined);
  return field('param', { ...props, placeholder: props.placeholder ?? props.initialValue }, location ? props[location] : props.name, location);
};

/** A field of an API response (Mintlify's `defaultOpen` has nothing to open here). */
export const ResponseField: Markup = (props) => field('response', props, props.name, typeof props.location === 'string' ? props.location : undefined);

/** Numbered steps: an ordered list; each <Step> is one item. */
export const Steps: Markup = ({ className, titleSize }) => [html(`<ol${attr('class:list', ['mint-steps', 'steps', className])}${attr('data-title-size', titleSize)}>`), CHILDREN, html('</ol>')];

/**
 * One step: its number (or icon) on the rail, then title and content. `stepNumber` sets the number
 * shown (and those of the steps after it).
 */
export const Step: Markup = ({ title, icon, iconType, iconLibrary, stepNumber, titleSize = 'p', id }, page) => {
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
};

/** Accordions stacked as one block. */
export const AccordionGroup: Markup = ({ className }) => [html(`<div${attr('class:list', ['mint-accordion-group', 'accordion-group', className])}>`), CHILDREN, html('</div>')];

/** An accordion: a <details> element, so it opens and closes by click and keyboard with no script. */
export const Accordion: Markup = ({ title, description, defaultOpen, icon, iconType, iconLibrary, id }, page) => {
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
};

/** Mintlify's CardGroup and Columns: children side by side in `cols` columns (one on narrow screens). */
const columns = (mintlifyClass?: string): Markup => ({ cols, className }) => {
  const count = Math.min(6, Math.max(1, Math.floor(Number(cols ?? 2)) || 2));
  return [html(`<div${attr('class:list', ['mint-columns', mintlifyClass, className])}${attr('style', `--mint-cols: ${count}`)}>`), CHILDREN, html('</div>')];
};
export const Columns: Markup = columns();
export const CardGroup: Markup = columns('card-group');

/**
 * A card: title, icon (or image on top), text, and a link when it has an href (the whole card is
 * the link). Its attributes stand in the order Astro writes them on an element whose tag is chosen
 * at render time: class last.
 */
export const Card: Markup = ({ title, icon, iconType, iconLibrary, color, href, horizontal, img, cta, arrow }, page) => {
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
};

/** One panel of <Tabs>: Tabs reads its title (and icon) from here to build the tab list. */
export const Tab: Markup = ({ title = 'Tab', icon, iconType, iconLibrary, id }, page) => [
  html(`<div class="mint-tab-panel tab"${attr('data-mint-tab', String(title))}${attr('data-mint-tab-id', id)}>`),
  ...(icon !== undefined ? [html('<template class="mint-tab-icon">'), ...iconParts(icon, page, { iconType: iconType as string | undefined, iconLibrary: iconLibrary as string | undefined }), html('</template>')] : []),
  CHILDREN,
  html('</div>'),
];

const BADGE_COLORS = ['gray', 'blue', 'green', 'yellow', 'orange', 'red', 'purple', 'white', 'surface', 'white-destructive', 'surface-destructive'];

/** An inline label: colour, size, shape, icon, outline (stroke) and disabled look. */
export const Badge: Markup = ({ color = 'gray', size = 'md', shape = 'rounded', icon, iconType, iconLibrary, stroke, disabled, className }, page) => {
  const named = BADGE_COLORS.includes(color as string);
  const sized = ['xs', 'sm', 'md', 'lg'].includes(size as string) ? size : 'md';
  return [
    html(`<span${attr('class:list', ['mint-badge', named && `mint-badge-${String(color)}`, `mint-badge-${String(sized)}`, shape === 'pill' && 'mint-badge-pill', stroke && 'mint-badge-stroke', disabled && 'mint-badge-disabled', className])}${attr('style', named ? undefined : `--mint-badge: ${String(color)}`)}${attr('aria-disabled', disabled ? 'true' : undefined)} data-badge${attr('data-color', color)}${attr('data-size', sized)}>`),
    ...(icon !== undefined ? iconParts(icon, page, { iconType: iconType as string | undefined, iconLibrary: iconLibrary as string | undefined }) : []),
    CHILDREN,
    html('</span>'),
  ];
};

/**
 * Mintlify's <Icon>, and the icon of every other component: a Font Awesome or Lucide name, an
 * image URL or path, or markup written in the page (icon={<svg …/>}), which the content check passed.
 */
export const Icon: Markup = ({ icon, name, iconType, iconLibrary, color, size, className }, page) =>
  iconParts(icon ?? name, page, { iconType: iconType as string | undefined, iconLibrary: iconLibrary as string | undefined, color: color as string | undefined, size: size as number | string | undefined, className: ['icon', className].filter(Boolean).join(' ') });

/** A value written as text in a template (`{value}`): nothing for undefined, null or false, as Astro writes it. */
const shown = (value: unknown): MarkupPart[] => (value === undefined || value === null || value === false ? [] : [text(value)]);

/** One column of <Columns>. */
export const Column: Markup = ({ className }) => [html(`<div${attr('class:list', ['mint-column', className])}>`), CHILDREN, html('</div>')];

/** Side content of a page (Mintlify shows it in the right column): an aside beside the text on wide screens. */
export const Panel: Markup = () => [html('<aside class="mint-panel panel" aria-label="Side panel">'), CHILDREN, html('</aside>')];

/** A frame around an image or other content, with an optional hint above and caption below. */
export const Frame: Markup = ({ caption, hint, className }) => [
  html(`<figure${attr('class:list', ['mint-frame', 'frame', className])}>`),
  ...(hint !== undefined ? [html('<p class="mint-frame-hint">'), ...textParts(hint), html('</p>')] : []),
  html('<div class="mint-frame-body">'),
  CHILDREN,
  html('</div>'),
  ...(caption !== undefined ? [html('<figcaption class="mint-frame-caption">'), ...textParts(caption), html('</figcaption>')] : []),
  html('</figure>'),
];

/** Nested fields (of a ParamField or ResponseField) shown on demand: a <details> element. */
export const Expandable: Markup = ({ title = 'properties', defaultOpen }) => [
  html(`<details class="mint-expandable expandable"${attr('open', defaultOpen || undefined)}><summary class="mint-expandable-summary">Show `),
  ...textParts(title),
  html('</summary><div class="mint-expandable-body">'),
  CHILDREN,
  html('</div></details>'),
];

/** A tile: a preview (its children, usually an image) above a title and description, linked. */
export const Tile: Markup = ({ href, title, description }) => {
  const tag = href ? 'a' : 'div';
  return [
    html(`<${tag} class="mint-tile"${attr('href', href)}><div class="mint-tile-preview">`),
    CHILDREN,
    html('</div>'),
    ...(title !== undefined ? [html('<p class="mint-tile-title">'), ...textParts(title), html('</p>')] : []),
    ...(description !== undefined ? [html('<p class="mint-tile-description">'), ...textParts(description), html('</p>')] : []),
    html(`</${tag}>`),
  ];
};

/** Text with a tip shown on hover and on keyboard focus (CSS only): headline, tip and a link. */
export const Tooltip: Markup = ({ tip, headline, cta, href }) => {
  const id = uniqueId('mint-tip');
  return [
    html(`<span class="mint-tooltip tooltip"><span class="mint-tooltip-trigger" tabindex="0"${attr('aria-describedby', id)}>`),
    CHILDREN,
    html(`</span><span class="mint-tooltip-bubble" role="tooltip"${attr('id', id)}>`),
    ...(headline !== undefined ? [html('<strong class="mint-tooltip-headline">'), ...textParts(headline), html('</strong>')] : []),
    ...(tip !== undefined ? [html('<span class="mint-tooltip-tip">'), ...textParts(tip), html('</span>')] : []),
    ...(cta !== undefined && href ? [html(`<a class="mint-tooltip-cta"${attr('href', href)}>`), ...textParts(cta), html('</a>')] : []),
    html('</span></span>'),
  ];
};

/** A changelog entry: its label (a date or version, also its anchor), description and tags beside the content. */
export const Update: Markup = ({ label, description, tags, id: givenId }) => {
  const id = givenId ?? (typeof label === 'string' ? label.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') : undefined);
  const tagList = Array.isArray(tags) ? tags.map(String) : [];
  return [
    html(`<section class="mint-update update"${attr('id', id || undefined)}><div class="mint-update-meta">`),
    ...(label !== undefined ? [html(`<p class="mint-update-label">${id ? `<a${attr('href', `#${String(id)}`)}>` : ''}`), ...textParts(label), html(`${id ? '</a>' : ''}</p>`)] : []),
    ...(description !== undefined ? [html('<p class="mint-update-description">'), ...textParts(description), html('</p>')] : []),
    ...(tagList.length > 0 ? [html('<ul class="mint-update-tags">'), ...tagList.flatMap((t) => [html('<li>'), text(t), html('</li>')]), html('</ul>')] : []),
    html('</div><div class="mint-update-body">'),
    CHILDREN,
    html('</div></section>'),
  ];
};

/** One view of a page's content (for a language or a product): a titled section. */
export const View: Markup = ({ title, icon, iconType, iconLibrary }, page) => [
  html(`<section class="mint-view"${attr('data-view', typeof title === 'string' ? title : undefined)}>`),
  ...(title !== undefined
    ? [
        html('<p class="mint-view-title">'),
        ...(icon !== undefined ? iconParts(icon, page, { iconType: iconType as string | undefined, iconLibrary: iconLibrary as string | undefined }) : []),
        html('<span>'),
        ...textParts(title),
        html('</span></p>'),
      ]
    : []),
  CHILDREN,
  html('</section>'),
];

/**
 * Content for one audience: `for="humans"` is shown on the page; `for="agents"` is left out of it
 * (it is meant for the Markdown that AI tools read).
 */
export const Visibility: Markup = (props) => {
  const audience = props.for ?? 'humans';
  return audience === 'agents' ? [] : [html(`<div class="mint-visibility"${attr('data-for', audience)}>`), CHILDREN, html('</div>')];
};

/** A file tree: folders open and close (<details>), files are list items. */
export const Tree: Markup = () => [html('<div class="mint-tree"><ul class="mint-tree-list">'), CHILDREN, html('</ul></div>')];

/** A file of <Tree>. */
export const TreeFile: Markup = ({ name, highlight }, page) => [
  html(`<li${attr('class:list', ['mint-tree-file', highlight && 'mint-tree-highlight'])}><span class="mint-tree-name">`),
  ...iconParts('file', page, { iconType: 'regular' }),
  html('<span>'),
  ...shown(name),
  html('</span></span></li>'),
];

/** A folder of <Tree>: closed unless defaultOpen; openable={false} keeps it always open. */
export const TreeFolder: Markup = ({ name, defaultOpen, openable = true, highlight }, page) => {
  const label: MarkupPart[] = [html('<span>'), ...shown(name), html('</span>')];
  const folder: MarkupPart[] = openable
    ? [html(`<details${attr('open', defaultOpen || undefined)}><summary>`), ...iconParts('folder', page), ...label, html('</summary><ul class="mint-tree-list">'), CHILDREN, html('</ul></details>')]
    : [html('<span class="mint-tree-name">'), ...iconParts('folder-open', page), ...label, html('</span><ul class="mint-tree-list">'), CHILDREN, html('</ul>')];
  return [html(`<li${attr('class:list', ['mint-tree-folder', highlight && 'mint-tree-highlight'])}>`), ...folder, html('</li>')];
};

/**
 * Mintlify's <CodeBlock>, for React code (Markdown pages write code fences): the code in a
 * `div.code-block` with its title bar, as a fence gives it (markdown/code-blocks.ts), not highlighted
 * (the highlighter runs on the page's Markdown only).
 */
export const CodeBlock: Markup = ({ language, filename, icon, lines, wrap, expandable }, page) => {
  const label = typeof filename === 'string' && filename ? filename : typeof language === 'string' ? language : '';
  return [
    html(`<div${attr('class:list', ['code-block', lines && 'lines', wrap && 'wrap', expandable && 'expandable'])}${attr('data-title', filename || undefined)}${attr('data-language', language || undefined)}><div class="code-block-bar">`),
    ...(typeof icon === 'string' && icon ? iconParts(icon, page) : []),
    html(`<span class="code-block-title">${escapeHTML(label)}</span>${expandable ? '<button type="button" class="code-block-expand" aria-expanded="false">Expand</button>' : ''}<button type="button" class="code-block-copy"${attr('aria-label', label ? `Copy ${label}` : 'Copy code')}>Copy</button></div><pre class="astro-code"><code>`),
    CHILDREN,
    html('</code></pre></div>'),
  ];
};

/** A palette: swatches with names and values, compact (a grid) or as a table (rows of <Color.Row>). */
export const Color: Markup = ({ variant }) => [html(`<div${attr('class:list', ['mint-color', `mint-color-${variant === 'table' ? 'table' : 'compact'}`])}>`), CHILDREN, html('</div>')];

/** A titled row of swatches in a table palette. */
export const ColorRow: Markup = ({ title }) => [
  html('<div class="mint-color-row">'),
  ...(title !== undefined ? [html('<p class="mint-color-row-title">'), ...textParts(title), html('</p>')] : []),
  html('<div class="mint-color-row-items">'),
  CHILDREN,
  html('</div></div>'),
];

/** A plain CSS colour; any other value is shown as text only, never put into a style. */
const CSS_COLOR = /^(?:#[0-9a-f]{3,8}|(?:rgb|rgba|hsl|hsla|oklch|oklab|lab|lch)\([0-9a-z.,%\s/+-]*\)|[a-z]+)$/i;

/** One swatch: a colour (or a light and a dark one), its name and value. */
export const ColorItem: Markup = ({ name, value }) => {
  const entries = (typeof value === 'object' && value !== null ? Object.entries(value as Record<string, unknown>) : [['', value]]).map(([mode, v]) => [String(mode), String(v ?? '')] as const);
  return [
    html(
      `<div class="mint-color-item"><span class="mint-color-swatches">${entries
        .map(([mode, v]) => `<span${attr('class:list', ['mint-color-swatch', mode && `mint-color-swatch-${mode}`])}${attr('style', CSS_COLOR.test(v) ? `background: ${v}` : undefined)}${attr('title', mode || undefined)}></span>`)
        .join('')}</span><span class="mint-color-name">`,
    ),
    ...shown(name),
    html(`</span><span class="mint-color-values">${entries.map(([mode, v]) => `<code>${escapeHTML(mode ? `${mode}: ` : '')}${escapeHTML(v)}</code>`).join('')}</span></div>`),
  ];
};

/**
 * The components that build their markup from their children: what each gathered from them (the
 * .astro file from the rendered children of a page, react-components.ts from the React elements of
 * React code) goes in here, so both paths write the same markup.
 */
export type GatheredMarkup<T> = (props: Props, gathered: T, page: string) => MarkupPart[];

/** What Tabs and CodeGroup gather: one tab per panel, and whatever else stood between them (kept after them). */
export interface TabSet {
  items: TabItem[];
  rest: MarkupPart[];
}

/** A tab's label: its icon (the Tab's `icon`), then its title. */
export const tabLabel = (title: string, icon: MarkupPart[]): MarkupPart[] => [...icon, html(`<span>${escapeHtml(title)}</span>`)];

/** Tabs: a tab list built from its <Tab> panels; the first (or defaultTabIndex) is shown. */
export const Tabs: GatheredMarkup<TabSet> = ({ defaultTabIndex, sync, borderBottom, className }, { items, rest }) => [
  html(`<div${attr('class:list', ['mint-tabs', borderBottom && 'mint-tabs-border', 'tabs', className])} data-mint-tabs${attr('data-mint-sync', sync === false ? 'false' : undefined)}>`),
  ...tabSetParts(items, { selected: Math.floor(Number(defaultTabIndex ?? 0)) || 0 }),
  ...rest,
  html('</div>'),
];

/** A code group's tab for one code block: named by the block's title, else its language. */
export const codeTabName = (title: string | undefined, language: string | undefined, index: number) => title || language || `Example ${index + 1}`;

/** CodeGroup: its code blocks as tabs, or a dropdown. `label` is set by RequestExample and ResponseExample. */
export const CodeGroup: GatheredMarkup<TabSet> = ({ dropdown, sync, label }, { items, rest }) => [
  html(`<div${attr('class:list', ['mint-code-group', dropdown && 'mint-code-group-dropdown', 'code-group'])} data-mint-tabs${attr('data-mint-sync', sync === false ? 'false' : undefined)}>${label ? `<p class="mint-code-group-label">${escapeHTML(String(label))}</p>` : ''}`),
  ...tabSetParts(items, { dropdown: Boolean(dropdown), label: typeof label === 'string' ? label : 'Code examples' }),
  ...rest,
  html('</div>'),
];

/** The examples of an API page (RequestExample, ResponseExample): a code group labelled as such. */
const example = (kind: 'request' | 'response'): GatheredMarkup<TabSet> => ({ dropdown }, tabSet, page) => [
  html(`<div class="mint-example mint-${kind}-example" id="${kind}-example">`),
  ...CodeGroup({ dropdown, label: kind === 'request' ? 'Request' : 'Response' }, tabSet, page),
  html('</div>'),
];
export const RequestExample = example('request');
export const ResponseExample = example('response');

/** The link to KaTeX's stylesheet that a formula's markup starts with. */
export const KATEX_STYLESHEET = `<link rel="stylesheet"${attr('href', KATEX_CSS)}>`;

/** Math written in TeX (`source`), rendered at build time by KaTeX; `display` shows it as a block. */
export const Latex: GatheredMarkup<{ source: string; display: boolean }> = (_props, { source, display }) => [
  html(KATEX_STYLESHEET),
  html(`${display ? '<div class="mint-latex mint-latex-block">' : '<span class="mint-latex">'}${latexHtml(source, display)}${display ? '</div>' : '</span>'}`),
];

/**
 * A Mermaid diagram, drawn in the browser by Mermaid's script served from the site itself (only
 * pages with a diagram load it): the `chart` prop, else the text of the children.
 */
export const Mermaid: GatheredMarkup<{ text: string }> = ({ chart }, { text: childrenText }) => [
  html(`<div class="mermaid mint-mermaid">${escapeHTML(String(chart ?? childrenText))}</div><script defer${attr('src', MERMAID_JS)}></script>`),
];

/** A prompt to give an AI tool: its description, the prompt text, and a copy button (tab-sets.ts copies). */
export const Prompt: Markup = ({ description, actions, icon, iconType, iconLibrary }, page) => {
  const id = uniqueId('mint-prompt');
  const canCopy = !Array.isArray(actions) || actions.map(String).includes('copy');
  return [
    html('<div class="mint-prompt"><div class="mint-prompt-head">'),
    ...(icon !== undefined ? iconParts(icon, page, { iconType: iconType as string | undefined, iconLibrary: iconLibrary as string | undefined }) : []),
    ...(description !== undefined ? [html('<p class="mint-prompt-description">'), ...textParts(description), html('</p>')] : []),
    html(`${canCopy ? `<button type="button" class="mint-prompt-copy"${attr('data-mint-copy', id)}>Copy prompt</button>` : ''}</div><div class="mint-prompt-text"${attr('id', id)}>`),
    CHILDREN,
    html('</div></div>'),
  ];
};

const REPO_SLUG = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
/** `owner/name` from a slug or a github.com address; undefined for anything else. */
function repoSlug(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim().replace(/\.git$/, '');
  if (REPO_SLUG.test(text)) return text;
  if (!URL.canParse(text)) return undefined;
  const url = new URL(text);
  if (url.protocol !== 'https:' || !['github.com', 'www.github.com'].includes(url.hostname)) return undefined;
  const parts = url.pathname.split('/').filter(Boolean).slice(0, 2).join('/');
  return REPO_SLUG.test(parts) ? parts : undefined;
}

/**
 * A card linking to a GitHub repository (`<GitHub.Repo repo="owner/name" />`). Mintlify's card
 * fetches the description and star and fork counts from GitHub's API in the reader's browser;
 * Folio's sites call no third party (their Content-Security-Policy allows only their own origin),
 * so the card shows the repository's name and links to it.
 */
export const GitHubRepo: Markup = ({ repo, variant, className }, page) => {
  const slug = repoSlug(repo);
  if (repo !== undefined && !slug) console.warn(`[folio] warning: page ${page}: <GitHub.Repo repo=${JSON.stringify(repo)}>: not an owner/name or https://github.com/owner/name address; shown as text`);
  if (!slug) return [html(`<span class="mint-github-repo">${escapeHTML(String(repo ?? ''))}</span>`)];
  const [owner, name] = slug.split('/');
  return [
    html(
      `<a${attr('class:list', ['mint-github-repo', variant === 'flat' ? 'mint-github-repo-flat' : 'mint-github-repo-inset', className])}${attr('href', `https://github.com/${slug}`)}><span class="mint-github-repo-icon">${namedIconSvg('github', 'brands') ?? ''}</span><span class="mint-github-repo-name"><span class="mint-github-repo-owner">${escapeHTML(String(owner))}/</span><strong>${escapeHTML(String(name))}</strong></span></a>`,
    ),
  ];
};
