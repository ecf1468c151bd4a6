// The pages of a site and their navigation. A site's pages come from page sources: the MDX
// content collection, and the OpenAPI reference pages generated from the file docs.json names.
// Each source gives a SitePage kind; the catch-all route dispatches on `kind`.
import { getCollection, type CollectionEntry } from 'astro:content';
import { loadDocsConfig, type NavGroupConfig } from './docs-config.ts';
import { siteSettings } from './settings.ts';
import { normalizeMethod, type HttpMethod } from './components/catalog.ts';
import { loadOpenApiPages, type OperationPageModel } from './openapi/index.ts';
import { humanize, pageHref, pageTitle, readPageMeta, startsWithTitleHeading, type PageMeta } from './page-rules.ts';
import { navLinks } from './layouts/nav-html.ts';

interface PageBase {
  /** Page path without extension: `index`, `guides/install` (docs/decisions.md#pages). */
  path: string;
  title: string;
  description?: string;
  order?: number;
}

/** A page written by an author: an `.md`/`.mdx` file under `content/`. */
export interface ContentPage extends PageBase {
  kind: 'content';
  entry: CollectionEntry<'pages'>;
  /** True when the body starts with its own `# heading`, so the layout adds no title heading. */
  hasOwnTitle: boolean;
  /**
   * Mintlify's frontmatter keys (sidebarTitle, icon, iconType, tag, mode, hidden, noindex,
   * deprecated, url, keywords, SEO meta), read and validated by readPageMeta.
   */
  meta: PageMeta;
}

/** A page generated for one operation of the site's OpenAPI file (docs/decisions.md#openapi-reference-pages). */
export interface OpenApiPage extends PageBase {
  kind: 'openapi';
  operation: OperationPageModel;
}

/** Every kind of page a site can have. */
export type SitePage = ContentPage | OpenApiPage;

export interface NavLink {
  type: 'link';
  title: string;
  path: string;
  href: string;
  /** Shown as a small ApiMethod badge before the title (generated API reference pages set it). */
  method?: HttpMethod;
}
export interface NavGroup {
  type: 'group';
  title: string;
  items: NavItem[];
}
export type NavItem = NavLink | NavGroup;

/**
 * What a page source contributes: pages, and navigation groups appended after the configured or
 * derived navigation (less the pages docs.json navigation already places elsewhere).
 */
export interface PageSourceResult {
  pages: SitePage[];
  navGroups?: NavGroup[];
}
export type PageSource = () => Promise<PageSourceResult>;

/** The page sources of every site, in order. Generated pages are added by appending a source here. */
export const pageSources: PageSource[] = [contentPages, openApiPages];

/** Where generated API reference pages live: `/api-reference/create-project/`. */
export const API_REFERENCE_PREFIX = 'api-reference';

export interface SiteModel {
  pages: SitePage[];
  byPath: Map<string, SitePage>;
  nav: NavItem[];
  /** Pages in reading order (the sidebar's order), for previous/next links. */
  sequence: SitePage[];
}

let cached: Promise<SiteModel> | undefined;

/** All pages and the navigation of the site being built (computed once per build). */
export function siteModel(): Promise<SiteModel> {
  if (import.meta.env.DEV) return buildModel();
  cached ??= buildModel();
  return cached;
}

async function buildModel(): Promise<SiteModel> {
  const results = await Promise.all(pageSources.map((source) => source()));
  const pages = results.flatMap((r) => r.pages);
  refuseSameAddress(pages);
  const byPath = new Map(pages.map((p) => [p.path, p]));
  const config = loadDocsConfig(siteSettings().contentRoot);
  const nav = config.navigation
    ? config.navigation.map((g, i) => configuredGroup(g, `navigation.${i}`, byPath))
    : derivedNav(pages.filter((p) => p.kind === 'content'));
  const placed = new Set(navLinks(nav).map((l) => l.path));
  for (const r of results) nav.push(...(r.navGroups ?? []).map((g) => withoutPlaced(g, placed)).filter((g) => g.items.length > 0));
  const sequence = navLinks(nav).map((link) => byPath.get(link.path)!);
  return { pages, byPath, nav, sequence };
}

/** A written page where a generated one goes (`content/api-reference/list-items.mdx`) fails the build. */
function refuseSameAddress(pages: SitePage[]) {
  const byHref = new Map<string, SitePage>();
  for (const page of pages) {
    const href = pageHref(page.path);
    const other = byHref.get(href);
    if (other) throw new Error(`${describePage(other)} and ${describePage(page)} would both be served at ${href}`);
    byHref.set(href, page);
  }
}

function describePage(page: SitePage): string {
  if (page.kind === 'openapi') return `the OpenAPI operation ${page.operation.method.toUpperCase()} ${page.operation.apiPath}`;
  return `the page content/${page.path}`;
}

async function contentPages(): Promise<PageSourceResult> {
  const entries = await getCollection('pages');
  return { pages: entries.map(toContentPage) };
}

/**
 * One page per operation of the OpenAPI file(s) docs.json names, and a sidebar group per tag.
 * Runs once per build (siteModel is cached); an invalid file throws an OpenApiError naming the
 * file and the location, which fails the build.
 */
async function openApiPages(): Promise<PageSourceResult> {
  const { contentRoot } = siteSettings();
  const { openapi } = loadDocsConfig(contentRoot);
  if (!openapi) return { pages: [] };
  const { pages, groups } = await loadOpenApiPages(contentRoot, openapi, { prefix: API_REFERENCE_PREFIX });
  if (!import.meta.env.DEV) console.log(`[folio] openapi: ${[openapi].flat().join(', ')}: ${pages.length} operation page(s)`);
  const byPath = new Map(
    pages.map((operation): [string, OpenApiPage] => [
      operation.path,
      { kind: 'openapi', path: operation.path, title: operation.title, description: `${operation.method.toUpperCase()} ${operation.apiPath}`, operation },
    ]),
  );
  return {
    pages: [...byPath.values()],
    navGroups: groups.map((group) => ({ type: 'group', title: group.label, items: group.items.map((item) => link(byPath.get(item.path)!)) })),
  };
}

function toContentPage(entry: CollectionEntry<'pages'>): ContentPage {
  const body = entry.body ?? '';
  return {
    kind: 'content',
    path: entry.id,
    title: pageTitle(entry.data.title, body, entry.id),
    description: entry.data.description,
    order: entry.data.order,
    entry,
    hasOwnTitle: startsWithTitleHeading(body),
    // Its warnings were shown by the check before the build.
    meta: readPageMeta(entry.data).meta,
  };
}

function link(page: SitePage): NavLink {
  const navLink: NavLink = { type: 'link', title: page.title, path: page.path, href: pageHref(page.path) };
  const method = page.kind === 'openapi' ? normalizeMethod(page.operation.method) : undefined;
  if (method) navLink.method = method;
  return navLink;
}

function configuredGroup(group: NavGroupConfig, key: string, byPath: Map<string, SitePage>): NavGroup {
  const items = group.pages.map((item, i): NavItem => {
    if (typeof item !== 'string') return configuredGroup(item, `${key}.pages.${i}`, byPath);
    const path = item.replace(/^\/+|\/+$/g, '') || 'index';
    const page = byPath.get(path) ?? byPath.get(`${path}/index`);
    if (!page) throw new Error(`docs.json: ${key}.pages.${i}: no page "${item}" (${expectedSource(path)})`);
    return link(page);
  });
  return { type: 'group', title: group.group, items };
}

function expectedSource(path: string): string {
  if (path.startsWith(`${API_REFERENCE_PREFIX}/`)) return 'no operation of the OpenAPI file has this page path';
  return `expected a file content/${path}.mdx or .md`;
}

/** Navigation from folders: top-level pages first, then one group per folder; `order`, then title. */
function derivedNav(pages: SitePage[]): NavItem[] {
  const root: NavGroup = { type: 'group', title: '', items: [] };
  const groups = new Map<string, NavGroup>([['', root]]);
  const groupFor = (dir: string): NavGroup => {
    const existing = groups.get(dir);
    if (existing) return existing;
    const parentDir = dir.includes('/') ? dir.slice(0, dir.lastIndexOf('/')) : '';
    const group: NavGroup = { type: 'group', title: humanize(dir.split('/').pop() ?? dir), items: [] };
    groups.set(dir, group);
    groupFor(parentDir).items.push(group);
    return group;
  };
  const sorted = [...pages].sort(comparePages);
  for (const page of sorted) {
    const dir = page.path.includes('/') ? page.path.slice(0, page.path.lastIndexOf('/')) : '';
    const group = groupFor(dir);
    if (page.path.endsWith('/index') && page.title) group.title = page.title;
    group.items.push(link(page));
  }
  // Links before sub-groups, keeping each one's sorted order.
  for (const g of groups.values()) g.items.sort((a, b) => Number(a.type === 'group') - Number(b.type === 'group'));
  return root.items;
}

function comparePages(a: SitePage, b: SitePage): number {
  const ai = /(^|\/)index$/.test(a.path) ? 0 : 1;
  const bi = /(^|\/)index$/.test(b.path) ? 0 : 1;
  if (ai !== bi) return ai - bi;
  const ao = a.order ?? Number.POSITIVE_INFINITY;
  const bo = b.order ?? Number.POSITIVE_INFINITY;
  if (ao !== bo) return ao - bo;
  return a.title.localeCompare(b.title);
}

function withoutPlaced(group: NavGroup, placed: ReadonlySet<string>): NavGroup {
  const items = group.items
    .map((item) => (item.type === 'link' ? item : withoutPlaced(item, placed)))
    .filter((item) => (item.type === 'link' ? !placed.has(item.path) : item.items.length > 0));
  return { ...group, items };
}
