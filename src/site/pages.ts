// The pages of a site and their navigation. A site's pages come from page sources: the MDX
// content collection, and the OpenAPI reference pages generated from the file docs.json names.
// Each source gives a SitePage kind; the catch-all route dispatches on `kind`.
import { getCollection, type CollectionEntry } from 'astro:content';
import type { DocsConfig } from './config/docs-config.ts';
import { docsConfig, siteBuild } from './build-settings.ts';
import { normalizeMethod } from './components/catalog.ts';
import {
  buildOperationPages,
  discoverSpecFiles,
  docsJsonSources,
  findReferencedSpec,
  listedOperations,
  loadOpenApiPages,
  navigationSources,
  operationKey,
  parseOperationReference,
  unreadableReference,
  specLoader,
  type BuildOptions,
  type LoadedDocument,
  type OperationPageModel,
  type PlaygroundDisplay,
  UNTAGGED_GROUP,
} from './openapi/index.ts';
import { humanize, pageHref, readPageMeta, titleOf, type PageMeta } from './page-rules.ts';
import { bodyFacts } from './loaders/rendered-files.ts';
import { resolveNavigation, type NavGroup, type NavItem, type NavLink, type NavPageInfo, type SiteNavigation } from './navigation.ts';
import { navigationErrorMessage } from './navigation-errors.ts';
import { pageFileOf } from './layout.ts';

export type { NavGroup, NavItem, NavLink } from './navigation.ts';

interface PageBase {
  /** Page path without extension: `index`, `guides/install` (docs/decisions.md#pages). */
  path: string;
  title: string;
  description?: string;
  order?: number;
  /** Frontmatter the sidebar reads (docs/decisions.md#docsjson-navigation). */
  sidebarTitle?: string;
  icon?: string;
  tag?: string;
  /** An http(s) URL the sidebar link goes to instead of the page. */
  url?: string;
  /** Built, but in no sidebar. */
  hidden?: boolean;
  /** Frontmatter `noindex: true`: a robots noindex meta tag. */
  noindex?: boolean;
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
  /** The operation its `openapi:` frontmatter names: the page shows its reference, then the page's own content. */
  operation?: OperationPageModel;
}

/** A page generated for one operation of the site's OpenAPI file (docs/decisions.md#openapi-reference-pages). */
export interface OpenApiPage extends PageBase {
  kind: 'openapi';
  operation: OperationPageModel;
  /** Made for docs.json `api.openapi` / `openapi` (not for a navigation entry). */
  fromDocsJson?: boolean;
}

/** Every kind of page a site can have. */
export type SitePage = ContentPage | OpenApiPage;

/**
 * Whether the site's search indexes a page. It is the one rule of every machine-readable listing
 * of pages too (llms.txt, llms-full.txt, and any later one), so a page kept out of search is kept
 * out of all of them: not hidden or noindex (hidden implies noindex), not `searchable: false`, not
 * an x-hidden operation.
 */
export function inSearch(page: SitePage): boolean {
  if (page.operation?.hidden || page.hidden || page.noindex) return false;
  return page.kind !== 'content' || (!page.meta.noindex && page.meta.searchable);
}


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

/** An old address of a page, answered with a page that sends the reader on. */
export interface Redirect {
  from: string;
  to: string;
}

export interface SiteModel {
  pages: SitePage[];
  /** Folio's earlier addresses of generated pages (`/api-reference/<operationId>/`), where nothing else is. */
  redirects: Redirect[];
  byPath: Map<string, SitePage>;
  /** The sidebar of the default section (the 404 page shows it). */
  nav: NavItem[];
  /** Pages in reading order (the sidebars' order), for llms.txt. */
  sequence: SitePage[];
  /** Per page: sidebar, tabs, switchers, language, previous and next (navigation.ts). */
  navigation: SiteNavigation;
}

let cached: Promise<SiteModel> | undefined;

/** All pages and the navigation of the site being built (computed once per build). */
export function siteModel(): Promise<SiteModel> {
  if (import.meta.env.DEV) return buildModel();
  cached ??= buildModel();
  return cached;
}

async function buildModel(): Promise<SiteModel> {
  openApi = undefined;
  const results = await Promise.all(pageSources.map((source) => source()));
  // Set by the sources just awaited (TypeScript cannot see it).
  const state = openApi as OpenApiState | undefined;
  if (state && siteBuild.onlyPages) sayNotValidatedAgain(state.loaded);
  const pages = writtenPagesFirst(results.flatMap((r) => r.pages));
  refuseSameAddress(pages);
  const byPath = new Map(pages.map((p) => [p.path, p]));
  const config = docsConfig;
  const infos = new Map(pages.map((p): [string, NavPageInfo] => [p.path, { path: p.path, link: link(p), hidden: p.hidden }]));
  const navigation = resolveNavigation(config.navigation ?? {}, infos, pageHref, {
    fallbackSidebar: () => derivedNav(pages.filter((p) => p.kind === 'content' && !p.hidden)),
    extraGroups: results.flatMap((r) => r.navGroups ?? []),
    // Navigation entries with `openapi`: the operations their pages name, the groups they get.
    attached: (entry) => {
      const found = openApi?.attached.get(entry);
      return found && { byKey: new Map([...found.byKey].map(([key, page]) => [key, page.path])), items: found.groups };
    },
    operationKey: (entry) => parseOperationReference(entry)?.key,
    // As Mintlify does, an entry naming no page is left out, with a warning naming it in docs.json.
    onMissing: (error) => console.log(`[folio] warning: ${navigationErrorMessage(siteBuild.contentRoot, error, expectedSource)}; it is left out of the navigation`),
  });
  const sequence = navigation.readingOrder().map((p) => byPath.get(p)!);
  return { pages, byPath, nav: navigation.defaultSidebar, sequence, navigation, redirects: legacyRedirects(pages) };
}

/**
 * Says in a fast build's log which OpenAPI documents it did not validate again: those the previous
 * build's record lists (src/builder/build.ts, `validatedSpecs`), its files unchanged since.
 */
function sayNotValidatedAgain(loaded: Set<LoadedDocument>): void {
  for (const document of loaded) if (document.validatedBefore) console.log(`[folio] openapi: ${document.file}: unchanged since the previous build, not validated again`);
}

/** Old `/api-reference/<operationId>/` addresses of docs.json-attached operations, where no page is now. */
function legacyRedirects(pages: SitePage[]): Redirect[] {
  const taken = new Set(pages.map((page) => page.path));
  const redirects: Redirect[] = [];
  for (const page of pages) {
    if (page.kind !== 'openapi' || !page.fromDocsJson || !page.operation.legacySlug) continue;
    const from = `${API_REFERENCE_PREFIX}/${page.operation.legacySlug}`;
    if (taken.has(from)) continue;
    taken.add(from);
    redirects.push({ from, to: page.path });
  }
  return redirects;
}

/**
 * A written page where a generated one goes (`content/api-reference/list-items.mdx` and the
 * operation GET /list-items): the written page is served, as on Mintlify, and the generated one is
 * left out with a warning (docs/decisions.md#what-mintlify-deploys-folio-deploys). Navigation entries
 * naming the operation then lead to the written page, which holds the same address.
 */
function writtenPagesFirst(pages: SitePage[]): SitePage[] {
  const written = new Map(pages.filter((page) => page.kind === 'content').map((page) => [pageHref(page.path), page]));
  return pages.filter((page) => {
    const owner = page.kind === 'openapi' ? written.get(pageHref(page.path)) : undefined;
    if (owner?.kind === 'content') console.log(`[folio] warning: ${contentFile(owner.entry)}:1:1: this page takes the address ${pageHref(page.path)} of ${describePage(page)}, whose generated page is left out`);
    return !owner;
  });
}

/** Two written pages at one address (`a.md` and `a.mdx`) fail the build: neither is the author's obvious choice. */
function refuseSameAddress(pages: SitePage[]) {
  const byHref = new Map<string, SitePage>();
  for (const page of pages) {
    const href = pageHref(page.path);
    const other = byHref.get(href);
    if (other) throw new Error(`${describePage(other)} and ${describePage(page)} would both be served at ${href}`);
    byHref.set(href, page);
  }
}

/** A written page's file, relative to the content root (`api-reference/list.mdx`), as warnings name it. */
function contentFile(entry: CollectionEntry<'pages'>): string {
  const { layout, pageFiles } = siteBuild;
  const inRoot = layout.pagesDir ? `${layout.pagesDir}/${entry.id}` : entry.id;
  return pageFiles.find((f) => f.replace(/\.mdx?$/, '') === inRoot) ?? inRoot;
}

function describePage(page: SitePage): string {
  if (page.kind === 'openapi') return `the OpenAPI operation ${page.operation.method.toUpperCase()} ${page.operation.apiPath}`;
  return `the page content/${page.path}`;
}

async function contentPages(): Promise<PageSourceResult> {
  const entries = await getCollection('pages');
  const pages = await Promise.all(
    entries.map(async (entry: CollectionEntry<'pages'>) => {
      const page = toContentPage(entry);
      const operation = await frontmatterOperation(entry, page);
      if (operation) {
        page.operation = operation;
        page.title = operation.title;
      }
      return page;
    }),
  );
  return { pages };
}

/** What the OpenAPI sources of one build share: each file loaded once, and the pages of navigation entries. */
interface OpenApiState {
  load: (file: string) => Promise<LoadedDocument>;
  /** Spec files an `openapi:` frontmatter without a file name is looked up in, in order. */
  candidates: () => Promise<string[]>;
  /** Generated pages of a navigation entry with `openapi`, by the operation key the entry's pages use. */
  attached: WeakMap<object, { byKey: Map<string, OpenApiPage>; groups: NavItem[] }>;
  /** Addresses already given to generated pages. */
  taken: Set<string>;
  /** Every document loaded (for `sayNotValidatedAgain`). */
  loaded: Set<LoadedDocument>;
}
let openApi: OpenApiState | undefined;

function openApiState(contentRoot: string, config: DocsConfig): OpenApiState {
  if (openApi) return openApi;
  let discovered: Promise<string[]> | undefined;
  const named = [...docsJsonSources(config), ...navigationSources(config).map((n) => n.source)].flatMap((source) => source.files);
  const load = specLoader(contentRoot, { checked: new Set(siteBuild.checkedSpecs) });
  const loaded = new Set<LoadedDocument>();
  openApi = {
    load: (file) => load(file).then((document) => (loaded.add(document), document)),
    loaded,
    candidates: () => (discovered ??= discoverSpecFiles(contentRoot).then((found) => [...new Set([...named, ...found])])),
    attached: new WeakMap(),
    taken: new Set(),
  };
  return openApi;
}

function playgroundDisplay(config: DocsConfig): PlaygroundDisplay | undefined {
  return config.api?.playground?.display;
}

/** docs.json `api.examples`: languages and parameters of the request examples, and the playground's prefill. */
function exampleOptions(config: DocsConfig): Pick<BuildOptions, 'languages' | 'exampleParameters' | 'prefill'> {
  const examples = config.api?.examples;
  return { languages: examples?.languages, exampleParameters: examples?.defaults, prefill: examples?.prefill };
}

// A build's content check has already logged these (check-root.ts); `astro dev` runs no check.
function warn(lines: string[]): void {
  if (import.meta.env.DEV) for (const line of lines) console.log(`[folio] warning: ${line}`);
}

/**
 * The generated OpenAPI pages (docs/decisions.md#openapi-reference-pages): one per operation of
 * the files docs.json names (a sidebar group per tag, appended), and the pages of navigation
 * entries with `openapi` (placed where the entry is). Runs once per build (siteModel is cached);
 * an invalid file throws an OpenApiError naming the file and the location, which fails the build.
 */
async function openApiPages(): Promise<PageSourceResult> {
  const { contentRoot } = siteBuild;
  const config = docsConfig;
  const state = openApiState(contentRoot, config);
  const options = { playground: playgroundDisplay(config), ...exampleOptions(config) };
  const toPage = (operation: OperationPageModel, fromDocsJson: boolean): OpenApiPage => ({
    kind: 'openapi', path: operation.path, title: operation.title, description: operation.webhook !== undefined ? `Webhook ${operation.webhook}` : `${operation.method.toUpperCase()} ${operation.apiPath}`, operation, ...(fromDocsJson ? { fromDocsJson } : {}),
  });
  const pages: OpenApiPage[] = [];
  const navGroups: NavGroup[] = [];
  const files: string[] = [];
  for (const source of docsJsonSources(config)) {
    const loaded = await loadOpenApiPages(contentRoot, source.files, { prefix: source.directory, ...options }, state.load, state.taken);
    warn(loaded.warnings);
    files.push(...source.files);
    const byPath = new Map(loaded.pages.map((operation): [string, OpenApiPage] => [operation.path, toPage(operation, true)]));
    pages.push(...byPath.values());
    navGroups.push(...loaded.groups.map((group): NavGroup => ({ type: 'group', title: group.label, items: group.items.map((item) => link(byPath.get(item.path)!)) })));
  }
  for (const { entry, source } of navigationSources(config)) {
    const byKey = new Map<string, OpenApiPage>();
    const groups: NavGroup[] = [];
    for (const file of source.files) {
      const { document, refNames, file: shown, warnings } = await state.load(file);
      warn(warnings);
      files.push(file);
      // An entry listing operations ("GET /users") gets those pages; one listing none gets them all.
      const only = listedOperations(entry, file);
      const built = buildOperationPages(document, refNames, { prefix: source.directory, file: shown, ...options, ...(only ? { only } : {}) }, state.taken);
      const byPath = new Map<string, OpenApiPage>();
      for (const operation of built.pages) {
        const page = toPage(operation, false);
        byPath.set(page.path, page);
        byKey.set(operationKey(operation), page);
        pages.push(page);
      }
      if (!only) groups.push(...built.groups.map((group): NavGroup => ({ type: 'group', title: group.label, items: group.items.map((item) => link(byPath.get(item.path)!)) })));
    }
    // A document without tags needs no "Other" group inside the entry: its pages go in directly.
    const flat = groups.length === 1 && groups[0].title === UNTAGGED_GROUP;
    state.attached.set(entry, { byKey, groups: flat ? groups[0].items : groups });
  }
  if (!import.meta.env.DEV && files.length) console.log(`[folio] openapi: ${[...new Set(files)].join(', ')}: ${pages.length} operation page(s)`);
  return { pages, navGroups };
}

/** The operation an `openapi:` frontmatter names, as the page's model (the page keeps its own path and title). */
async function frontmatterOperation(entry: CollectionEntry<'pages'>, page: ContentPage): Promise<OperationPageModel | undefined> {
  const value = entry.data.openapi;
  if (value === undefined) return undefined;
  // Named as the content check names it: the page's file under the layout's pages folder.
  const file = contentFile(entry);
  // A reference that names no operation, or one no spec has, leaves the page its own content (the
  // check before the build warned).
  const reference = typeof value === 'string' ? parseOperationReference(value) : undefined;
  if (!reference) {
    warn([`${file}: ${unreadableReference(String(value))}`]);
    return undefined;
  }
  const { contentRoot } = siteBuild;
  const config = docsConfig;
  const state = openApiState(contentRoot, config);
  const { loaded, warning } = await findReferencedSpec(reference, file, state.candidates, state.load);
  if (warning) warn([`${file}: ${warning}`]);
  if (!loaded) return undefined;
  warn(loaded.warnings);
  const display = (entry.data.playground as PlaygroundDisplay | undefined) ?? playgroundDisplay(config);
  const [operation] = buildOperationPages(loaded.document, loaded.refNames, {
    prefix: '', only: [reference.key], file: loaded.file, playground: display, ...exampleOptions(config),
  }).pages;
  // As on Mintlify, the frontmatter title wins, else the operation's summary.
  const title = typeof entry.data.title === 'string' ? entry.data.title : operation.title;
  return { ...operation, path: page.path, slug: page.path.split('/').pop()!, title };
}

function toContentPage(entry: CollectionEntry<'pages'>): ContentPage {
  // Worked out from the body when it was read: building the site model reads no page's body (loaders/rendered-files.ts).
  const facts = bodyFacts(entry);
  return {
    kind: 'content',
    path: entry.id,
    title: titleOf(entry.data.title, facts.heading, entry.id),
    description: entry.data.description,
    order: entry.data.order,
    ...navFrontmatter(entry.data as Record<string, unknown>),
    entry,
    hasOwnTitle: facts.ownTitle,
    // Its warnings were shown by the check before the build.
    meta: readPageMeta(entry.data).meta,
  };
}

const ICON = /^(?:https?:\/\/[^\s"'<>\\]+|[^\s"'<>:\\]+)$/;
const str = (v: unknown, max: number) => (typeof v === 'string' && v.trim() && v.length <= max ? v.trim() : undefined);

/** The frontmatter keys the sidebar reads; values of the wrong type are ignored, as Mintlify does. */
function navFrontmatter(data: Record<string, unknown>): Pick<PageBase, 'sidebarTitle' | 'icon' | 'tag' | 'url' | 'hidden' | 'noindex'> {
  const result: Pick<PageBase, 'sidebarTitle' | 'icon' | 'tag' | 'url' | 'hidden' | 'noindex'> = {};
  const sidebarTitle = str(data.sidebarTitle, 200);
  if (sidebarTitle) result.sidebarTitle = sidebarTitle;
  const icon = str(data.icon, 300);
  if (icon && ICON.test(icon)) result.icon = icon;
  const tag = str(data.tag, 40);
  if (tag) result.tag = tag;
  const url = str(data.url, 2000);
  if (url && /^https?:\/\/[^\s"'<>\\]+$/.test(url)) result.url = url;
  if (data.hidden === true) result.hidden = true;
  if (data.noindex === true) result.noindex = true;
  return result;
}

function link(page: SitePage): NavLink {
  const navLink: NavLink = { type: 'link', title: page.sidebarTitle ?? page.title, path: page.path, href: page.url ?? pageHref(page.path) };
  const operation = page.kind === 'openapi' || page.kind === 'content' ? page.operation : undefined;
  const method = operation && operation.webhook === undefined ? normalizeMethod(operation.method) : undefined;
  if (method) navLink.method = method;
  if (page.icon) navLink.icon = page.icon;
  if (page.tag) navLink.tag = page.tag;
  if (page.url) navLink.external = true;
  return navLink;
}

function expectedSource(path: string): string {
  if (path.startsWith(`${API_REFERENCE_PREFIX}/`)) return 'no operation of the OpenAPI file has this page path';
  return `expected a file ${pageFileOf(path, siteBuild.layout).replace(/\.mdx$/, '')}.mdx or .md`;
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
