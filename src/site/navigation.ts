// The navigation model (docs/decisions.md#docsjson-navigation): docs.json `navigation` resolved
// against the site's pages into sections. A section is a sidebar (groups and links) reached
// through divisions: languages, versions, products, dropdowns, tabs and anchors, nested in any
// order. Every page belongs to the first section that lists it; what a page shows (its sidebar,
// the tabs and switchers above it with the current one marked, its language, its previous and
// next pages, its hreflang alternates) is worked out once per page from its section.
import type { NavChromeOverrides, NavContainerConfig, NavEntryConfig, NavGroupConfig, NavigationConfig } from './config/docs-config.ts';

export interface NavLink {
  type: 'link';
  title: string;
  /** Page path (`guides/install`); empty for a link outside the site. */
  path: string;
  href: string;
  /** Shown as a small ApiMethod badge before the title (generated API reference pages set it). */
  method?: import('./components/catalog.ts').BadgeMethod;
  icon?: string;
  tag?: string;
  /** An http(s) URL outside the site (a page's frontmatter `url`). */
  external?: boolean;
}
export interface NavGroup {
  type: 'group';
  title: string;
  items: NavItem[];
  icon?: string;
  tag?: string;
  /** docs.json `expanded`: a nested group starts open. */
  expanded?: boolean;
  /** docs.json `root`: the page the group's title links to. */
  rootHref?: string;
}
export type NavItem = NavLink | NavGroup;

/** The links of a navigation tree, in order. */
export function navLinks(items: NavItem[]): NavLink[] {
  return items.flatMap((item) => (item.type === 'link' ? [item] : navLinks(item.items)));
}

/** The kinds of division, outermost first when one container has several. */
export const DIVISION_KINDS = ['languages', 'versions', 'products', 'dropdowns', 'tabs', 'anchors'] as const;
export type DivisionKind = (typeof DIVISION_KINDS)[number];

/** One choice of a division as a page shows it: a tab, a version in the switcher, … */
export interface DivisionLink {
  label: string;
  href: string;
  /** The page is in this tab / version / language. */
  current: boolean;
  /** A link outside the site (a division with only an `href`). */
  external: boolean;
  icon?: string;
  tag?: string;
  description?: string;
  /** Languages: the language tag (`es`). */
  language?: string;
  color?: { light?: string; dark?: string };
}

export interface PageNavigation {
  sidebar: NavItem[];
  /** Each division level above the page's section, outermost first (global anchors and tabs are added to theirs). */
  levels: Array<{ kind: DivisionKind; links: DivisionLink[] }>;
  /** The language of the page (the `language` of its division), if the site has languages. */
  language?: string;
  /** The version of the page (the `version` of its division), if the site has versions. */
  version?: string;
  /** The same page in each language that has it (hreflang), with the default one as `x-default`. */
  alternates: Array<{ hreflang: string; href: string }>;
  /** Previous and next page in the sidebar's order (page paths). */
  prev?: string;
  next?: string;
  /** Whether the page appears in some sidebar (seo.indexing "navigable" indexes only those). */
  listed: boolean;
  /**
   * The header links, footer and banner of the page's language or version when it sets its own
   * (the innermost wins, key by key); the layout uses the site's for the keys not here.
   */
  overrides: NavChromeOverrides;
}

/** What navigation needs to know of a page. */
export interface NavPageInfo {
  path: string;
  /** The page as a sidebar link (title, href, badge, icon, tag, external URL). */
  link: NavLink;
  /** Frontmatter `hidden: true`: never in a sidebar. */
  hidden?: boolean;
}

export class NavigationError extends Error {
  override name = 'NavigationError';
  /** Key path in the model (`navigation.tabs.0.groups.1.pages.2`). */
  readonly key: string;
  /** What the entry names (the page path as written). */
  readonly entry: string;
  constructor(key: string, entry: string, message: string) {
    super(message);
    this.key = key;
    this.entry = entry;
  }
}

interface Section {
  sidebar: NavItem[];
  /** The options chosen from the root to here. */
  trail: Option[];
  node: ContainerNode;
  order: string[];
  /** Each page of `order` once, and its index there (computed once, on first use: every page reads it). */
  reading?: { pages: string[]; index: Map<string, number> };
}
/** `order` with each page once (its first place), and each page's index in that list. */
function readingOf(order: string[]): NonNullable<Section['reading']> {
  const pages = [...new Set(order)];
  return { pages, index: new Map(pages.map((p, i) => [p, i])) };
}
interface ContainerNode {
  levels: Level[];
  section?: Section;
}
interface Level {
  kind: DivisionKind;
  options: Option[];
  /** Only links (an `href` each): shown, never switching section. */
}
interface Option {
  level: Level;
  kind: DivisionKind;
  label: string;
  config: Record<string, unknown>;
  node: ContainerNode;
  /** Page paths of every section below, in order, and as a set (looked up once per page and option). */
  pages: string[];
  pageSet?: Set<string>;
  /** Common folder of those pages (`es/`, `v2/`), for finding the same page in another option. */
  prefix: string;
}

const LABEL_KEY: Record<DivisionKind, string> = { languages: 'language', versions: 'version', products: 'product', dropdowns: 'dropdown', tabs: 'tab', anchors: 'anchor' };

/**
 * Resolves `navigation` against the pages. An entry that names no page is given to `onMissing`
 * and left out (as Mintlify leaves it out); without `onMissing` it throws NavigationError. Pages
 * no sidebar lists belong to the default section (the first, or `default: true`).
 */
export function resolveNavigation(
  navigation: NavigationConfig,
  pages: ReadonlyMap<string, NavPageInfo>,
  pageHref: (path: string) => string,
  options: {
    /** The sidebar when `navigation` lists no pages at all (derived from folders). */
    fallbackSidebar?: () => NavItem[];
    /** Groups of generated pages, added to the default section less the pages already placed. */
    extraGroups?: NavGroup[];
    /**
     * The generated pages of a navigation entry with `openapi` (a group or a division): the page
     * paths of the operations its `pages` may name (by operation key), and the groups it gets when
     * it names none.
     */
    attached?: (entry: object) => { byKey: Map<string, string>; items: NavItem[] } | undefined;
    /** The operation key of an entry such as "GET /users" (undefined for a page path). */
    operationKey?: (entry: string) => string | undefined;
    /** An entry (or a group's `root`) that names no page: left out of the navigation. */
    onMissing?: (error: NavigationError) => void;
  } = {},
): SiteNavigation {
  const sections: Section[] = [];
  const placedIn = new Map<string, Section>();
  const missing = (error: NavigationError): undefined => {
    if (!options.onMissing) throw error;
    options.onMissing(error);
    return undefined;
  };

  const findPage = (entry: string): NavPageInfo | undefined => {
    const p = entry.replace(/^\/+|\/+$/g, '') || 'index';
    return pages.get(p) ?? pages.get(`${p}/index`);
  };

  type Attached = ReturnType<NonNullable<typeof options.attached>>;
  /** Places the links of generated groups and answers them. */
  const attachedItems = (attached: Attached, section: Section): NavItem[] => {
    if (!attached) return [];
    for (const l of navLinks(attached.items)) if (pages.has(l.path)) place(pages.get(l.path)!, section);
    return attached.items;
  };

  const groupItems = (group: NavGroupConfig, key: string, depth: number, section: Section, scope: Attached): NavGroup => {
    const attached = options.attached?.(group) ?? undefined;
    // The root page comes first in reading order, then the group's pages.
    const root = group.root === undefined ? undefined : (findPage(group.root) ?? missing(new NavigationError(`${key}.root`, group.root, `no page "${group.root}"`)));
    if (root) place(root, section);
    const g: NavGroup = { type: 'group', title: group.group, items: entries(group.pages, `${key}.pages`, depth + 1, section, attached ?? scope) };
    g.items.push(...attachedItems(attached, section));
    if (group.icon) g.icon = group.icon;
    if (group.tag) g.tag = group.tag;
    if (group.expanded !== undefined) g.expanded = group.expanded;
    if (root) g.rootHref = pageHref(root.path);
    return g;
  };

  const place = (page: NavPageInfo, section: Section) => {
    if (!placedIn.has(page.path)) placedIn.set(page.path, section);
    section.order.push(page.path);
  };

  const entries = (list: NavEntryConfig[], key: string, depth: number, section: Section, scope: Attached): NavItem[] => {
    const items: NavItem[] = [];
    list.forEach((entry, i) => {
      if (typeof entry !== 'string') {
        const group = groupItems(entry, `${key}.${i}`, depth, section, scope);
        if (!entry.hidden && group.items.length + (group.rootHref ? 1 : 0) > 0) items.push(group);
        return;
      }
      let page = findPage(entry);
      const operation = page ? undefined : options.operationKey?.(entry);
      if (operation !== undefined) {
        const path = scope?.byKey.get(operation);
        if (path === undefined) {
          const why = scope ? "the entry's OpenAPI file has no such operation" : 'no entry around it has an "openapi" file';
          return missing(new NavigationError(`${key}.${i}`, entry, `"${entry}" names an operation, but ${why}`));
        }
        page = pages.get(path);
      }
      if (!page) return missing(new NavigationError(`${key}.${i}`, entry, `no page "${entry}"`));
      place(page, section);
      if (!page.hidden) items.push(page.link);
    });
    return items;
  };

  const container = (config: NavContainerConfig, key: string, trail: Option[], scope: Attached): ContainerNode => {
    const node: ContainerNode = { levels: [] };
    const attached = options.attached?.(config) ?? undefined;
    const inner = attached ?? scope;
    if (config.pages || config.groups || attached) {
      const section: Section = { sidebar: [], trail, node, order: [] };
      sections.push(section);
      node.section = section;
      if (config.pages) section.sidebar.push(...entries(config.pages, `${key}.pages`, 0, section, inner));
      if (config.groups) {
        config.groups.forEach((group, i) => {
          const g = groupItems(group, `${key}.groups.${i}`, 0, section, inner);
          if (!group.hidden) section.sidebar.push(g);
        });
      }
      section.sidebar.push(...attachedItems(attached, section));
    }
    for (const kind of DIVISION_KINDS) {
      const list = config[kind] as Array<NavContainerConfig & Record<string, unknown>> | undefined;
      if (!list?.length) continue;
      const level: Level = { kind, options: [] };
      node.levels.push(level);
      list.forEach((child, i) => {
        const option: Option = { level, kind, label: String(child[LABEL_KEY[kind]]), config: child, node: { levels: [] }, pages: [], prefix: '' };
        option.node = container(child, `${key}.${kind}.${i}`, [...trail, option], inner);
        level.options.push(option);
      });
    }
    return node;
  };

  const root = container(navigation, 'navigation', [], undefined);
  const placeLinks = (items: NavItem[], section: Section) => {
    for (const l of navLinks(items)) if (l.path && pages.has(l.path)) place(pages.get(l.path)!, section);
  };
  if (!sections.length && options.fallbackSidebar) {
    const section: Section = { sidebar: options.fallbackSidebar(), trail: [], node: root, order: [] };
    root.section = section;
    sections.push(section);
    placeLinks(section.sidebar, section);
  }
  const home = defaultSectionOf(root) ?? sections[0];
  if (home && options.extraGroups?.length) {
    const extra = options.extraGroups.map((g) => withoutPlaced(g, placedIn)).filter((g) => g.items.length > 0);
    home.sidebar.push(...extra);
    placeLinks(extra, home);
  }
  // Pages below each option, and their common folder.
  for (const section of sections) {
    for (const option of section.trail) option.pages.push(...section.order);
  }
  const allOptions = (node: ContainerNode): Option[] => node.levels.flatMap((l) => l.options.flatMap((o) => [o, ...allOptions(o.node)]));
  for (const option of allOptions(root)) option.prefix = commonFolder(option.pages);

  return new SiteNavigation(navigation, root, sections, placedIn, pages, pageHref);
}

function withoutPlaced(group: NavGroup, placed: ReadonlyMap<string, unknown>): NavGroup {
  const items = group.items
    .map((item) => (item.type === 'link' ? item : withoutPlaced(item, placed)))
    .filter((item) => (item.type === 'link' ? !placed.has(item.path) : item.items.length > 0));
  return { ...group, items };
}

/** The longest folder (`es/`, `v2/guides/`) every path starts with; '' when none. */
export function commonFolder(paths: string[]): string {
  if (!paths.length) return '';
  let common = paths[0]!.split('/').slice(0, -1);
  for (const p of paths) {
    const dirs = p.split('/').slice(0, -1);
    let n = 0;
    while (n < common.length && n < dirs.length && common[n] === dirs[n]) n++;
    common = common.slice(0, n);
  }
  return common.length ? `${common.join('/')}/` : '';
}

export class SiteNavigation {
  private readonly cache = new Map<string, PageNavigation>();
  readonly defaultSection: Section | undefined;

  private readonly config: NavigationConfig;
  private readonly root: ContainerNode;
  private readonly sections: Section[];
  private readonly placedIn: Map<string, Section>;
  private readonly pages: ReadonlyMap<string, NavPageInfo>;
  private readonly pageHref: (path: string) => string;

  constructor(config: NavigationConfig, root: ContainerNode, sections: Section[], placedIn: Map<string, Section>, pages: ReadonlyMap<string, NavPageInfo>, pageHref: (path: string) => string) {
    this.config = config;
    this.root = root;
    this.sections = sections;
    this.placedIn = placedIn;
    this.pages = pages;
    this.pageHref = pageHref;
    this.defaultSection = defaultSectionOf(root) ?? sections[0];
  }

  /** The sidebar of the default section (the 404 page shows it). */
  get defaultSidebar(): NavItem[] {
    return this.defaultSection?.sidebar ?? [];
  }

  /** Every page a sidebar lists, in reading order (each once). */
  readingOrder(): string[] {
    return [...new Set(this.sections.flatMap((s) => s.order))];
  }

  /** Whether a page appears in a sidebar. */
  isListed(pagePath: string): boolean {
    return this.placedIn.has(pagePath);
  }

  /** What the page at `pagePath` shows; pages no sidebar lists get the default section's. */
  forPage(pagePath: string | undefined): PageNavigation {
    const key = pagePath ?? '';
    let result = this.cache.get(key);
    if (!result) {
      result = this.compute(pagePath);
      this.cache.set(key, result);
    }
    return result;
  }

  private compute(pagePath: string | undefined): PageNavigation {
    const placed = pagePath === undefined ? undefined : this.placedIn.get(pagePath);
    const section = placed ?? this.defaultSection;
    const result: PageNavigation = { sidebar: section?.sidebar ?? [], levels: [], alternates: [], listed: !!placed, overrides: {} };
    if (!section) return this.withGlobals(result);
    for (const option of section.trail) {
      if (option.kind !== 'languages' && option.kind !== 'versions') continue;
      for (const key of ['navbar', 'footer', 'banner'] as const) {
        if (option.config[key] !== undefined) (result.overrides as Record<string, unknown>)[key] = option.config[key];
      }
    }
    const chosen = new Set(section.trail);
    // Levels from the root down the trail, then the section's own (links only, none current).
    const nodes = [this.root, ...section.trail.map((o) => o.node)];
    for (const node of nodes) {
      for (const level of node.levels) {
        const current = level.options.find((o) => chosen.has(o));
        const links = level.options
          .filter((o) => o === current || o.config.hidden !== true)
          .map((o) => this.linkTo(o, current, pagePath));
        result.levels.push({ kind: level.kind, links });
        if (current && level.kind === 'languages') result.language = current.label;
        if (current && level.kind === 'versions') result.version = current.label;
      }
    }
    section.reading ??= readingOf(section.order);
    const order = section.reading.pages;
    const index = pagePath === undefined ? -1 : (section.reading.index.get(pagePath) ?? -1);
    if (index > 0) result.prev = order[index - 1];
    if (index >= 0 && index + 1 < order.length) result.next = order[index + 1];
    result.alternates = this.alternates(section, pagePath);
    return this.withGlobals(result);
  }

  /** The link to option `o` from the page at `pagePath`, in the option `current` of the same level. */
  private linkTo(o: Option, current: Option | undefined, pagePath: string | undefined): DivisionLink {
    const config = o.config;
    const link: DivisionLink = { label: o.label, href: '', current: o === current, external: false };
    for (const key of ['icon', 'tag', 'description'] as const) if (typeof config[key] === 'string') link[key] = config[key] as string;
    if (config.color && typeof config.color === 'object') link.color = config.color as DivisionLink['color'];
    if (o.kind === 'languages') link.language = o.label;
    const same = (o.kind === 'languages' || o.kind === 'versions') && current && pagePath !== undefined ? this.samePage(current, o, pagePath) : undefined;
    const first = o.pages[0] ?? firstPageOf(o.node);
    if (same) link.href = this.pageHref(same);
    else if (first) link.href = this.pageHref(first);
    else if (typeof config.href === 'string') {
      link.href = config.href;
      link.external = /^https?:\/\//.test(config.href);
    } else link.href = '/';
    return link;
  }

  /** The page in option `to` that matches `pagePath` in option `from`, when `to` lists one. */
  private samePage(from: Option, to: Option, pagePath: string): string | undefined {
    if (from === to) return pagePath;
    const rel = pagePath.startsWith(from.prefix) ? pagePath.slice(from.prefix.length) : pagePath;
    const candidate = to.prefix + rel;
    to.pageSet ??= new Set(to.pages);
    return to.pageSet.has(candidate) ? candidate : undefined;
  }

  private alternates(section: Section, pagePath: string | undefined): PageNavigation['alternates'] {
    if (pagePath === undefined) return [];
    const current = section.trail.find((o) => o.kind === 'languages');
    if (!current) return [];
    const result: PageNavigation['alternates'] = [];
    let fallback: string | undefined;
    for (const o of current.level.options) {
      const same = this.samePage(current, o, pagePath);
      if (!same) continue;
      result.push({ hreflang: o.label, href: this.pageHref(same) });
      if (o.config.default === true || (fallback === undefined && o === current.level.options[0])) fallback = this.pageHref(same);
    }
    if (result.length < 2) return [];
    if (fallback) result.push({ hreflang: 'x-default', href: fallback });
    return result;
  }

  /** `navigation.global` anchors and tabs: added to the page's anchors and tabs (or levels of their own). */
  private withGlobals(result: PageNavigation): PageNavigation {
    for (const kind of ['tabs', 'anchors'] as const) {
      const globals = this.config.global?.[kind];
      if (!globals?.length) continue;
      const links = globals
        .filter((g) => !g.hidden)
        .map((g): DivisionLink => {
          const label = 'tab' in g ? g.tab : g.anchor;
          const link: DivisionLink = { label, href: '/', current: false, external: false };
          const firstEntryPath = [...(g.pages ?? []), ...(g.groups ?? [])].map(firstEntry).find((e) => e !== undefined);
          const first = firstEntryPath === undefined ? undefined : this.findPage(firstEntryPath)?.path;
          if (g.href) {
            link.href = g.href;
            link.external = /^https?:\/\//.test(g.href);
          } else if (first) link.href = this.pageHref(first);
          if (g.icon) link.icon = g.icon;
          return link;
        });
      const own = [...result.levels].reverse().find((l) => l.kind === kind);
      if (own) own.links.push(...links);
      else result.levels.push({ kind, links });
    }
    return result;
  }

  private findPage(entry: string): NavPageInfo | undefined {
    const p = entry.replace(/^\/+|\/+$/g, '') || 'index';
    return this.pages.get(p) ?? this.pages.get(`${p}/index`);
  }
}

function firstEntry(entry: NavEntryConfig): string | undefined {
  if (typeof entry === 'string') return entry;
  for (const e of entry.pages) {
    const found = firstEntry(e);
    if (found !== undefined) return found;
  }
  return undefined;
}

function firstPageOf(node: ContainerNode): string | undefined {
  if (node.section?.order.length) return node.section.order[0];
  for (const level of node.levels) {
    for (const option of level.options) {
      const found = option.pages[0] ?? firstPageOf(option.node);
      if (found) return found;
    }
  }
  return undefined;
}

/** The section a reader starts in: down the default (or first) option of each level. */
function defaultSectionOf(node: ContainerNode): Section | undefined {
  if (node.section) return node.section;
  for (const level of node.levels) {
    const pick = level.options.find((o) => o.config.default === true) ?? level.options[0];
    const found = pick && defaultSectionOf(pick.node);
    if (found) return found;
  }
  return undefined;
}

/** Every page a navigation names (entries of `pages`, group `root`s), with its key path, in order. */
export function navigationEntries(navigation: NavigationConfig): Array<{ key: string; entry: string }> {
  const found: Array<{ key: string; entry: string }> = [];
  const entries = (list: NavEntryConfig[], key: string) =>
    list.forEach((e, i) => {
      if (typeof e === 'string') found.push({ key: `${key}.${i}`, entry: e });
      else group(e, `${key}.${i}`);
    });
  const group = (g: NavGroupConfig, key: string) => {
    if (g.root !== undefined) found.push({ key: `${key}.root`, entry: g.root });
    entries(g.pages, `${key}.pages`);
  };
  const container = (c: NavContainerConfig, key: string) => {
    if (c.pages) entries(c.pages, `${key}.pages`);
    c.groups?.forEach((g, i) => group(g, `${key}.groups.${i}`));
    for (const kind of DIVISION_KINDS) (c[kind] as NavContainerConfig[] | undefined)?.forEach((child, i) => container(child, `${key}.${kind}.${i}`));
  };
  container(navigation, 'navigation');
  return found;
}
