// The site-wide values of docs.json the layout and its parts render, worked out once per build:
// the one place the layout (DocsLayout.astro, parts/*.astro) reads the site configuration from.
// The theme renders colours, fonts, favicon, background and appearance from here
// (docs/decisions.md#docsjson).
import { themeColors, themeOverrideCss, type DocsConfig, type NavChromeOverrides } from '../config/docs-config.ts';
import type { PageNavigation } from '../navigation.ts';
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
  /** CSS for docs.json `colors`, `fonts` and `background`, in one inline <style> of every page. */
  themeCss: string;
  /** Font files the page preloads: the site's own font files docs.json names (woff2 only). */
  fontPreloads: string[];
  /** Whether the theme's own font (Inter) is used at all: not when docs.json sets both families. */
  usesThemeFont: boolean;
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
    ...fontsAndBackground(config),
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

type FontSpec = NonNullable<DocsConfig['fonts']>;
type Face = { family?: string; weight?: number; source?: string; format?: 'woff' | 'woff2' };

const THEME_FONTS = "'Inter Variable', 'Inter Fallback', system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

/**
 * docs.json `fonts` and `background` as CSS (docs/decisions.md#docsjson-fonts), as Mintlify applies
 * them: `fonts` (family, weight, source, format) for all text, `fonts.heading` and `fonts.body`
 * for one kind each; a font with a `source` (a file of the site) gets an @font-face with
 * `font-display: swap` and is preloaded when it is woff2, and the theme's own fonts stay behind it
 * as the fallback. `background.color` replaces the page colour in light and dark mode,
 * `background.image` lies under the page, and `background.decoration` (theme.css) draws over the
 * top of it. Values are safe in a <style> element: the schema allows no quote, `<` or backslash.
 */
function fontsAndBackground(config: DocsConfig): Pick<SiteChrome, 'themeCss' | 'fontPreloads' | 'usesThemeFont'> {
  const fonts: FontSpec = config.fonts ?? {};
  // `heading` and `body` are whole fonts of their own: nothing of the top-level font mixes in.
  const all: Face = { family: fonts.family, weight: fonts.weight, source: fonts.source, format: fonts.format };
  const body: Face = fonts.body ?? all;
  const heading: Face = fonts.heading ?? all;
  const rules: string[] = [];
  const light: string[] = [];
  const dark: string[] = [];
  const preloads = new Set<string>();
  const faces = new Set<string>();
  for (const face of [body, heading]) {
    if (!face.family || !face.source) continue;
    const href = siteLink(face.source);
    const format = face.format ?? (/\.woff$/i.test(href) ? 'woff' : 'woff2');
    const rule = `@font-face{font-family:"${face.family}";src:url("${href}") format("${format}");${face.weight ? `font-weight:${face.weight};` : ''}font-display:swap}`;
    if (!faces.has(rule)) {
      rules.push(rule);
      faces.add(rule);
    }
    if (format === 'woff2') preloads.add(href);
  }
  if (body.family) light.push(`--docs-font:"${body.family}", ${THEME_FONTS}`);
  if (heading.family) light.push(`--docs-heading-font:"${heading.family}", ${THEME_FONTS}`);
  if (body.weight) light.push(`--docs-font-weight:${body.weight}`);
  if (heading.weight) light.push(`--docs-heading-weight:${heading.weight}`);

  const background = config.background;
  if (background?.color?.light) light.push(`--docs-bg:${background.color.light}`);
  if (background?.color?.dark) dark.push(`--docs-bg:${background.color.dark}`);
  const image = background?.image === undefined ? undefined : typeof background.image === 'string' ? { light: background.image, dark: background.image } : { light: background.image.light, dark: background.image.dark ?? background.image.light };
  if (image) {
    light.push(`--docs-bg-image:url("${siteLink(image.light)}")`);
    dark.push(`--docs-bg-image:url("${siteLink(image.dark)}")`);
  }
  // `html:root` outranks the theme's `:root` rules whatever order the stylesheets load in.
  if (light.length) rules.push(`html:root{${light.join(';')}}`);
  if (dark.length) rules.push(`html:root[data-theme=dark]{${dark.join(';')}}`);
  return {
    themeCss: themeOverrideCss(config) + rules.join(''),
    fontPreloads: [...preloads],
    usesThemeFont: !(body.family && heading.family),
  };
}

/** The header links, footer and banner of a page: its language's or version's own, else the site's. */
export function pageChrome(nav: PageNavigation | undefined): NavChromeOverrides {
  const config = siteChrome().config;
  const own = nav?.overrides ?? {};
  return { navbar: own.navbar ?? config.navbar, footer: own.footer ?? config.footer, banner: own.banner ?? config.banner };
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
