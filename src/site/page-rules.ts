// How a page file becomes what readers see: its title and its address on the site (docs/decisions.md#pages).
// Plain functions without Astro imports, so the pages API answers with the very title and
// URL the site build gives a page.

/** The site URL path of a page: `/` for `index`, `/guides/` for `guides/index`, `/guides/install/`. */
export function pageHref(path: string): string {
  if (path === 'index') return '/';
  return `/${path.replace(/\/index$/, '').split('/').map(encodeURIComponent).join('/')}/`;
}

/** The catch-all route param of a page (undefined for the home page). */
export function pageSlug(path: string): string | undefined {
  if (path === 'index') return undefined;
  return path.replace(/\/index$/, '');
}

/**
 * A page's title: the frontmatter `title`, else the first `# heading` outside code and comments,
 * else the file name (the folder's name for an `index` page).
 */
export function pageTitle(frontmatterTitle: unknown, body: string, path: string): string {
  return titleOf(frontmatterTitle, firstHeading(body), path);
}

/** The text of the body's first `# heading`, outside code and comments, if it has one. */
export function firstHeading(body: string): string | undefined {
  return /^#[ \t]+(.+?)[ \t#]*$/m.exec(stripCodeAndComments(body))?.[1]?.trim() || undefined;
}

/** pageTitle, given the body's first heading (firstHeading) rather than the body. */
export function titleOf(frontmatterTitle: unknown, heading: string | undefined, path: string): string {
  if (typeof frontmatterTitle === 'string') return frontmatterTitle;
  if (heading) return heading;
  const parts = path.split('/');
  const fileName = parts.at(-1) ?? path;
  return humanize(fileName === 'index' ? (parts.at(-2) ?? 'Home') : fileName);
}

/** True when the body starts with its own `# heading` (the layout then adds no title heading). */
export function startsWithTitleHeading(body: string): boolean {
  // Imports (of snippets or components) at the top of an MDX page come before its first heading.
  return /^#\s/.test(stripCodeAndComments(body).trimStart().replace(LEADING_IMPORTS, ''));
}

const LEADING_IMPORTS = /^(?:import\s[^\n]*(?:\n|$)\s*)+/;

/** A file or folder name as a title: `getting-started` → `Getting started`. */
export function humanize(name: string): string {
  const words = name.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function stripCodeAndComments(body: string): string {
  return body.replace(/^---\n[\s\S]*?\n---\n/, '').replace(/^(```|~~~)[\s\S]*?^\1/gm, '').replace(/\{\/\*[\s\S]*?\*\/\}/g, '');
}

/** Mintlify's page layouts (`mode` in frontmatter); the layout sets `mode-<name>` as a class on `<main>`. */
export const PAGE_MODES = ['default', 'wide', 'custom', 'frame', 'center'] as const;
export type PageMode = (typeof PAGE_MODES)[number];

/**
 * What a page's frontmatter says beyond its title and description: Mintlify's documented keys
 * (https://mintlify.com/docs/organize/pages, https://mintlify.com/docs/optimize/seo). The page model
 * carries them (pages.ts); navigation reads sidebarTitle, icon, iconType, tag, url, hidden and
 * deprecated; the layout writes the meta tags and the mode.
 */
export interface PageMeta {
  sidebarTitle?: string;
  icon?: string;
  iconType?: string;
  tag?: string;
  mode: PageMode;
  /** Built and reachable at its address, but not in the navigation; implies noindex. */
  hidden: boolean;
  /** Robots `noindex`, left out of sitemap.xml and of search. */
  noindex: boolean;
  deprecated: boolean;
  /** A sidebar entry that links out instead of to the page. */
  url?: string;
  /** False leaves the page out of the site's search (it stays in the sitemap and search engines). */
  searchable: boolean;
  /**
   * Search ranking weight of the page's words (Mintlify's `boost`, a multiplier; below 1 lowers
   * it). Pagefind weighs words, not whole results, within 0–10, so it is clamped to that range.
   */
  boost?: number;
  /** Search keywords: in `<meta name="keywords">` and in the search index, not shown. */
  keywords: string[];
  /** Canonical URL of the page, overriding the site's. */
  canonical?: string;
  /** `robots` meta value given as is (`noindex` adds `noindex`). */
  robots?: string;
  /** Open Graph, Twitter and other social meta tags (`og:image` → `<meta property="og:image">`). */
  social: Record<string, string>;
}

/** Frontmatter keys with a meaning for Folio (title/description/order are checked as content rules). */
const USED_KEYS = new Set([
  'title', 'description', 'order', 'sidebarTitle', 'icon', 'iconType', 'tag', 'mode', 'hidden', 'noindex',
  'deprecated', 'url', 'keywords', 'canonical', 'robots', 'searchable', 'boost',
  // The operation reference of an API page (src/site/openapi/sources.ts) and its playground display (pages.ts).
  'openapi', 'playground',
]);

/** Keys Mintlify documents that Folio does not do: named in a warning, so nothing is ignored silently. */
const NOT_SUPPORTED: Record<string, string> = {
  groups: 'pages restricted to groups of signed-in users need authentication, which Folio sites do not have: the page is public',
  timestamp: 'Folio does not show "last modified" dates',
  rss: 'RSS feeds are not generated',
  api: 'API playground pages are not generated from frontmatter; this page is built from its own content',
  asyncapi: 'AsyncAPI pages are not supported',
  'openapi-schema': 'OpenAPI schema pages are not generated from frontmatter',
  public: 'pages are all public in Folio',
};

/** Pagefind's largest content weight (https://pagefind.app/docs/weighting/). */
const MAX_BOOST = 10;

/** Social meta prefixes Mintlify passes through as meta tags. */
const SOCIAL_KEY = /^(?:og|twitter|article|book|profile|music|video):[A-Za-z0-9_:.-]+$/;

export interface PageMetaResult {
  meta: PageMeta;
  /** Keys that are ignored, with why. */
  warnings: string[];
}

/** Reads and validates the Mintlify frontmatter keys of one page. A bad value is a warning and is left out. */
export function readPageMeta(fm: Record<string, unknown>): PageMetaResult {
  const warnings: string[] = [];
  const meta: PageMeta = { mode: 'default', hidden: false, noindex: false, deprecated: false, searchable: true, keywords: [], social: {} };
  const str = (key: string): string | undefined => {
    if (!(key in fm) || fm[key] == null) return undefined;
    const v = fm[key];
    if (typeof v === 'string') return v;
    if (typeof v === 'number') return String(v);
    warnings.push(`frontmatter "${key}" must be a string; it is ignored`);
    return undefined;
  };
  const bool = (key: string): boolean => {
    if (!(key in fm) || fm[key] == null) return false;
    const v = fm[key];
    if (typeof v === 'boolean') return v;
    if (v === 'true' || v === 'false') return v === 'true';
    warnings.push(`frontmatter "${key}" must be true or false; it is ignored`);
    return false;
  };
  for (const key of ['sidebarTitle', 'icon', 'iconType', 'tag', 'canonical', 'robots'] as const) {
    const v = str(key);
    if (v !== undefined) meta[key] = v;
  }
  const mode = str('mode');
  if (mode !== undefined) {
    if ((PAGE_MODES as readonly string[]).includes(mode)) meta.mode = mode as PageMode;
    else warnings.push(`frontmatter "mode" ${JSON.stringify(mode)} is not one of ${PAGE_MODES.join(', ')}; the default layout is used`);
  }
  meta.hidden = bool('hidden');
  meta.noindex = bool('noindex') || meta.hidden;
  meta.deprecated = bool('deprecated');
  if ('searchable' in fm && fm.searchable != null) {
    if (typeof fm.searchable === 'boolean' || fm.searchable === 'true' || fm.searchable === 'false') meta.searchable = fm.searchable === true || fm.searchable === 'true';
    else warnings.push('frontmatter "searchable" must be true or false; it is ignored');
  }
  if ('boost' in fm && fm.boost != null) {
    const boost = typeof fm.boost === 'number' ? fm.boost : typeof fm.boost === 'string' && fm.boost.trim() !== '' ? Number(fm.boost) : NaN;
    if (Number.isFinite(boost) && boost >= 0) meta.boost = Math.min(boost, MAX_BOOST);
    else warnings.push('frontmatter "boost" must be a number, 0 or more; it is ignored');
    if (boost > MAX_BOOST) warnings.push(`frontmatter "boost" ${boost} is more than the search index can weigh; ${MAX_BOOST} is used`);
  }
  const url = str('url');
  if (url !== undefined) {
    if (/^(?:https?:\/\/|mailto:|\/)/i.test(url)) meta.url = url;
    else warnings.push(`frontmatter "url" must be an http(s) or mailto: address or a path starting with /; it is ignored`);
  }
  if ('keywords' in fm && fm.keywords != null) {
    const k = fm.keywords;
    if (Array.isArray(k) && k.every((x) => typeof x === 'string' || typeof x === 'number')) meta.keywords = k.map(String);
    else if (typeof k === 'string') meta.keywords = k.split(',').map((x) => x.trim()).filter(Boolean);
    else warnings.push('frontmatter "keywords" must be a list of strings; it is ignored');
  }
  for (const [key, value] of Object.entries(fm)) {
    if (USED_KEYS.has(key)) continue;
    if (SOCIAL_KEY.test(key)) {
      if (typeof value === 'string' || typeof value === 'number') meta.social[key] = String(value);
      else warnings.push(`frontmatter "${key}" must be a string; it is ignored`);
    } else if (key in NOT_SUPPORTED) warnings.push(`frontmatter "${key}" is not supported: ${NOT_SUPPORTED[key]}`);
    else if (key !== 'layout') warnings.push(`frontmatter "${key}" is not a key Folio uses; it is ignored`);
  }
  return { meta, warnings };
}
