// The sidebar as an HTML string. Small sites show every link. On big sites (more than
// FULL_NAV_LIMIT links) groups that do not hold the current page collapse to one link to their
// first page: a 1,000-page sidebar on every page made the HTML ten times larger and the build and
// search indexing several seconds slower. Collapsed groups are rendered once and reused.
import type { NavGroup, NavItem, NavLink } from '../pages.ts';
import { METHOD_TOKENS } from '../components/catalog.ts';

const FULL_NAV_LIMIT = 150;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const hrefsCache = new WeakMap<NavGroup, Set<string>>();
const collapsedCache = new WeakMap<NavGroup, string>();
const fullCache = new WeakMap<NavItem[], string>();
const linkCountCache = new WeakMap<NavItem[], number>();

/** The links of a navigation tree, in order. */
export function navLinks(items: NavItem[]): NavLink[] {
  return items.flatMap((item) => (item.type === 'link' ? [item] : navLinks(item.items)));
}

function hrefsOf(group: NavGroup): Set<string> {
  let hrefs = hrefsCache.get(group);
  if (!hrefs) {
    hrefs = new Set(navLinks(group.items).map((l) => l.href));
    hrefsCache.set(group, hrefs);
  }
  return hrefs;
}

function collapsedHtml(group: NavGroup): string {
  let html = collapsedCache.get(group);
  if (html === undefined) {
    const first = navLinks(group.items)[0];
    html = first ? `<li><a class="group-link" href="${escapeHtml(first.href)}">${escapeHtml(group.title || first.title)}</a></li>` : '';
    collapsedCache.set(group, html);
  }
  return html;
}

function listHtml(items: NavItem[], current: string | undefined, collapse: boolean): string {
  const lis = items.map((item) => {
    if (item.type === 'link') {
      const mark = item.href === current ? ' aria-current="page"' : '';
      const badge = item.method
        ? `<span class="api-method nav-method" style="--method-color: var(${METHOD_TOKENS[item.method]})" data-method="${item.method}">${item.method}</span> `
        : '';
      return `<li><a href="${escapeHtml(item.href)}"${mark}>${badge}${escapeHtml(item.title)}</a></li>`;
    }
    if (collapse && item.title && !(current && hrefsOf(item).has(current))) return collapsedHtml(item);
    const title = item.title ? `<p class="group-title">${escapeHtml(item.title)}</p>` : '';
    return `<li>${title}${listHtml(item.items, current, collapse)}</li>`;
  });
  return `<ul>${lis.join('')}</ul>`;
}

/** The sidebar's HTML with the link to `currentHref` marked as the current page. */
export function navHtml(nav: NavItem[], currentHref: string | undefined): string {
  let count = linkCountCache.get(nav);
  if (count === undefined) {
    count = navLinks(nav).length;
    linkCountCache.set(nav, count);
  }
  if (count > FULL_NAV_LIMIT) return listHtml(nav, currentHref, true);
  let full = fullCache.get(nav);
  if (full === undefined) {
    full = listHtml(nav, undefined, false);
    fullCache.set(nav, full);
  }
  if (!currentHref) return full;
  const link = `<a href="${escapeHtml(currentHref)}">`;
  return full.replace(link, `<a href="${escapeHtml(currentHref)}" aria-current="page">`);
}
