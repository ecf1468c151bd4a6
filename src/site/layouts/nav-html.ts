// The sidebar as an HTML string, from the navigation model (navigation.ts). Small sites show every
// link. On big sites (more than FULL_NAV_LIMIT links) groups that do not hold the current page
// collapse to one link to their first page: a 1,000-page sidebar on every page made the HTML ten
// times larger and the build and search indexing several seconds slower. Collapsed groups are
// rendered once and reused, and so is the whole sidebar of the pages in the same groups: it is
// rendered once with a slot in each link, which each page fills with its own current-page mark.
//
// Markup (the theme styles these classes; docs/decisions.md#docsjson-navigation). The outer list is
// ul#sidebar-content and groups carry .sidebar-group and .sidebar-group-header too, the names
// Mintlify documents for custom CSS (docs/decisions.md#custom-css-and-javascript):
//   top-level group   <li class="nav-group sidebar-group"><p class="group-title sidebar-group-header">[icon] Title [tag]</p><ul>…</ul></li>
//                     (with docs.json `root`: <a class="group-title sidebar-group-header" href=…> instead of <p>)
//   nested group      <li class="nav-group nested sidebar-group"><details data-nav-group="N" [open]>
//                       <summary class="group-title sidebar-group-header">…</summary><ul>…</ul></details></li>
//                     open when docs.json says `expanded: true` or it holds the current page
//   link              <li [data-active]><a href=… [aria-current="page"]>[method badge][icon] Title [tag]</a></li>
//                     (a page's frontmatter `url`: class="external", target _blank, rel noopener)
//   icon              <span class="nav-icon" data-icon="rocket" aria-hidden="true"><svg…></span>, or
//                     <img class="nav-icon" src=… alt=""> for a path or URL
//   tag               <span class="nav-tag">NEW</span>
import type { NavGroup, NavItem, NavLink } from '../navigation.ts';
import { navLinks } from '../navigation.ts';
import { namedIconSvg } from '../components/mintlify/icons.ts';
import { METHOD_TOKENS } from '../components/catalog.ts';

const FULL_NAV_LIMIT = 150;

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const hrefsCache = new WeakMap<NavGroup, Set<string>>();
const collapsedCache = new WeakMap<NavGroup, string>();
const fullCache = new WeakMap<NavItem[], { html: string; groupsOf: Map<string, number[]> }>();
const linkCountCache = new WeakMap<NavItem[], number>();
/** Collapsed sidebars by the groups that hold the current page: the HTML with slots, and the href of each slot. */
const slottedCache = new WeakMap<NavItem[], Map<string, { html: string; hrefs: string[] }>>();
const groupIds = new WeakMap<NavGroup, number>();
let nextGroupId = 0;

/**
 * Where a link's current-page mark goes in a shared sidebar. Nothing else in the sidebar can
 * contain it: every text and attribute from the content is escaped (no `<`), and the markup
 * and icons never write `<@`.
 */
const SLOT = '<@>';
/** Where the mark of a link's list item (`data-active`) goes, likewise. */
const ITEM_SLOT = '<%>';

export { navLinks };

function hrefsOf(group: NavGroup): Set<string> {
  let hrefs = hrefsCache.get(group);
  if (!hrefs) {
    hrefs = new Set(navLinks(group.items).map((l) => l.href));
    hrefsCache.set(group, hrefs);
  }
  return hrefs;
}

/** An icon name (`rocket`), or an image when it is a path or URL. */
export function iconHtml(icon: string | undefined): string {
  if (!icon) return '';
  if (/[/.]/.test(icon)) return `<img class="nav-icon" src="${escapeHtml(icon)}" alt="" aria-hidden="true" loading="lazy" />`;
  // The SVG inline (Font Awesome, else Lucide: components/mintlify/icons.ts). A name neither has
  // (a Font Awesome Pro icon, a typo) gets no icon at all: an empty span showed as an empty box
  // where anchors frame their icons (docs/decisions.md, "Site quality").
  const svg = namedIconSvg(icon);
  return svg ? `<span class="nav-icon" data-icon="${escapeHtml(icon)}" aria-hidden="true">${svg}</span>` : '';
}

const tagHtml = (tag: string | undefined) => (tag ? ` <span class="nav-tag">${escapeHtml(tag)}</span>` : '');

function collapsedHtml(group: NavGroup): string {
  let html = collapsedCache.get(group);
  if (html === undefined) {
    const first = navLinks(group.items)[0];
    html = first ? `<li><a class="group-link" href="${escapeHtml(group.rootHref ?? first.href)}">${iconHtml(group.icon)}${escapeHtml(group.title || first.title)}</a></li>` : '';
    collapsedCache.set(group, html);
  }
  return html;
}

function linkHtml(item: NavLink, state: RenderState): string {
  let mark = item.href === state.current ? ' aria-current="page"' : '';
  let itemMark = mark && ' data-active';
  if (state.slots) {
    state.slots.push(item.href);
    mark = SLOT;
    itemMark = ITEM_SLOT;
  }
  const badge = item.method
    ? `<span class="api-method nav-method" style="--method-color: var(${METHOD_TOKENS[item.method]})" data-method="${item.method}">${item.method}</span> `
    : '';
  const external = item.external ? ' class="external" target="_blank" rel="noopener noreferrer"' : '';
  return `<li${itemMark}><a href="${escapeHtml(item.href)}"${external}${mark}>${badge}${iconHtml(item.icon)}${escapeHtml(item.title)}${tagHtml(item.tag)}</a></li>`;
}

interface RenderState {
  current: string | undefined;
  collapse: boolean;
  nextId: number;
  /** For each link href, the ids of the nested groups around it. */
  groupsOf: Map<string, number[]>;
  /** When set, each link gets a SLOT for its mark instead, and its href is added here. */
  slots?: string[];
}

function listHtml(items: NavItem[], state: RenderState, depth: number, around: number[]): string {
  const lis = items.map((item) => {
    if (item.type === 'link') {
      if (!state.groupsOf.has(item.href)) state.groupsOf.set(item.href, around);
      return linkHtml(item, state);
    }
    const holdsCurrent = !!state.current && hrefsOf(item).has(state.current);
    if (state.collapse && item.title && !holdsCurrent) return collapsedHtml(item);
    const label = `${iconHtml(item.icon)}${escapeHtml(item.title)}${tagHtml(item.tag)}`;
    if (depth === 0 || !item.title) {
      const title = !item.title ? '' : item.rootHref ? `<a class="group-title sidebar-group-header" href="${escapeHtml(item.rootHref)}">${label}</a>` : `<p class="group-title sidebar-group-header">${label}</p>`;
      return `<li class="nav-group sidebar-group">${title}${listHtml(item.items, state, depth + 1, around)}</li>`;
    }
    const id = state.nextId++;
    const open = item.expanded || holdsCurrent ? ' open' : '';
    const summary = item.rootHref ? `<a href="${escapeHtml(item.rootHref)}">${label}</a>` : label;
    return `<li class="nav-group nested sidebar-group"><details data-nav-group="${id}"${open}><summary class="group-title sidebar-group-header">${summary}</summary>${listHtml(item.items, state, depth + 1, [...around, id])}</details></li>`;
  });
  return `<ul${depth === 0 ? ' id="sidebar-content"' : ''}>${lis.join('')}</ul>`;
}

/** Ids of the groups a collapsed sidebar shows open around `current`: those the rendering walks into that hold it. */
function holdingGroups(items: NavItem[], current: string | undefined, out: number[] = []): number[] {
  for (const item of items) {
    if (item.type === 'link') continue;
    const holds = !!current && hrefsOf(item).has(current);
    if (holds) {
      let id = groupIds.get(item);
      if (id === undefined) groupIds.set(item, (id = nextGroupId++));
      out.push(id);
    }
    // listHtml walks into every group but the titled ones that do not hold the page.
    if (holds || !item.title) holdingGroups(item.items, current, out);
  }
  return out;
}

/** The sidebar's HTML with the link to `currentHref` marked as the current page. */
export function navHtml(nav: NavItem[], currentHref: string | undefined): string {
  let count = linkCountCache.get(nav);
  if (count === undefined) {
    count = navLinks(nav).length;
    linkCountCache.set(nav, count);
  }
  if (count > FULL_NAV_LIMIT) {
    // The collapsed sidebar differs between pages only by the groups holding the page and its mark.
    let byGroups = slottedCache.get(nav);
    if (!byGroups) slottedCache.set(nav, (byGroups = new Map()));
    const key = holdingGroups(nav, currentHref).join(' ');
    let slotted = byGroups.get(key);
    if (!slotted) {
      const state: RenderState = { current: currentHref, collapse: true, nextId: 0, groupsOf: new Map(), slots: [] };
      slotted = { html: listHtml(nav, state, 0, []), hrefs: state.slots! };
      byGroups.set(key, slotted);
    }
    const { hrefs } = slotted;
    let slot = 0;
    // Each link's item slot comes just before its own slot.
    return slotted.html.replace(/<[@%]>/g, (found) => {
      if (found === ITEM_SLOT) return hrefs[slot] === currentHref ? ' data-active' : '';
      return hrefs[slot++] === currentHref ? ' aria-current="page"' : '';
    });
  }
  let full = fullCache.get(nav);
  if (full === undefined) {
    const state: RenderState = { current: undefined, collapse: false, nextId: 0, groupsOf: new Map() };
    full = { html: listHtml(nav, state, 0, []), groupsOf: state.groupsOf };
    fullCache.set(nav, full);
  }
  if (!currentHref) return full.html;
  let html = full.html.replace(`<li><a href="${escapeHtml(currentHref)}">`, `<li data-active><a href="${escapeHtml(currentHref)}" aria-current="page">`);
  // The nested groups around the current page are open.
  for (const id of full.groupsOf.get(currentHref) ?? []) html = html.replace(`<details data-nav-group="${id}">`, `<details data-nav-group="${id}" open>`);
  return html;
}
