// The site-wide values of docs.json the layout and its parts render, worked out once per build:
// the one place the layout (DocsLayout.astro, parts/*.astro) reads the site configuration from.
// The theme renders colours, fonts, favicon, background and appearance from here
// (docs/decisions.md#docsjson).
import { themeColors, themeOverrideCss, type DocsConfig } from '../docs-config.ts';
import { docsConfig } from '../build-settings.ts';

export interface SiteChrome {
  config: DocsConfig;
  name: string;
  description?: string;
  /** Logo images for light and dark mode (the same when one is given) and where it links. */
  logo?: { light: string; dark: string; href: string };
  /** Favicon for light and dark mode (the same when one is given). */
  favicon?: { light: string; dark: string };
  /** `appearance`: the mode before a reader chooses, and whether they may switch. */
  appearance: { default: 'system' | 'light' | 'dark'; strict: boolean };
  /** Light and dark value of each colour docs.json sets, and the CSS that applies them. */
  colors: ReturnType<typeof themeColors>;
  colorsCss: string;
  background?: DocsConfig['background'];
  fonts?: DocsConfig['fonts'];
  /** The search box's placeholder (`search.prompt`). */
  searchPrompt: string;
  /** `seo.metatags`: extra meta tags on every page. */
  metatags: Array<[string, string]>;
  /** `seo.indexing`: "navigable" (default) asks search engines not to index pages no sidebar lists. */
  indexing: 'navigable' | 'all';
  /** `errors.404`: the 404 page's title and text. */
  notFound: { title: string; description: string };
}

let cached: { config: DocsConfig; chrome: SiteChrome } | undefined;

export function siteChrome(): SiteChrome {
  const config = docsConfig;
  if (cached?.config === config) return cached.chrome;
  const logo = config.logo === undefined ? undefined : typeof config.logo === 'string' ? { light: config.logo, dark: config.logo, href: '/' } : { light: config.logo.light, dark: config.logo.dark ?? config.logo.light, href: config.logo.href ?? '/' };
  const favicon = config.favicon === undefined ? undefined : typeof config.favicon === 'string' ? { light: config.favicon, dark: config.favicon } : { light: config.favicon.light, dark: config.favicon.dark ?? config.favicon.light };
  const chrome: SiteChrome = {
    config,
    name: config.name ?? 'Documentation',
    description: config.description,
    logo,
    favicon,
    appearance: { default: config.appearance?.default ?? 'system', strict: config.appearance?.strict ?? false },
    colors: themeColors(config),
    colorsCss: themeOverrideCss(config),
    background: config.background,
    fonts: config.fonts,
    searchPrompt: config.search?.prompt || 'Search',
    metatags: Object.entries(config.seo?.metatags ?? {}),
    indexing: config.seo?.indexing ?? 'navigable',
    notFound: {
      title: config.errors?.['404']?.title ?? 'Page not found',
      description: config.errors?.['404']?.description ?? 'There is no page at this address.',
    },
  };
  cached = { config, chrome };
  return chrome;
}

/**
 * The href of a navbar, footer or logo link as written in docs.json: URLs and `/paths` as they are,
 * a page path (`quickstart`) from the site root.
 */
export function siteLink(href: string): string {
  if (/^(?:https?:|mailto:|\/|#)/.test(href)) return href;
  return `/${href}`;
}

export const isExternal = (href: string) => /^https?:\/\//.test(href);
