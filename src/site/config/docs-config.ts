// docs.json: the site configuration of a content root, in Mintlify's schema (and mint.json, its
// older format, mapped onto the same model: mint-config.ts). One zod schema validates the keys
// Folio supports; a key it does not know (or not yet) is a warning for the deployment log and
// never fails a build, while an invalid value of a supported key fails with `docs.json:line:col`
// (docs/decisions.md#docsjson). `$ref`s are resolved first (docs-json-refs.ts), so a problem in a
// referenced file names that file; values Mintlify accepts in another form (redirects without "/",
// label-less service links) are read its way (docs/decisions.md#docsjson-as-mintlify-reads-it).
// The table of keys is in content/docs-json.mdx.
//
// The schema strips what it does not know; the keys it stripped are found by comparing the input
// with the parsed value (unknownKeys), so one schema says both what is valid and what is known.
// Keep it additive: a new supported key is a new optional entry of the right object.
import { z } from 'zod';
import { DEFAULT_BACKGROUNDS, readableShade } from '../brand-colors.ts';
import { assetPath, cssColor, DocsConfigError, icon, isObject, label, linkHref, modeColors, pagePath, parseJsonText, redirectWarnings, siteFileRedirectRule, themeColor, validateSiteFile, type DocsConfigIssue, type Locate } from './config-values.ts';
import { resolveRefs } from './docs-json-refs.ts';
import { contextualSchema, contextualWarnings } from '../page-menu.ts';

export { DocsConfigError, formatConfigIssue, type DocsConfigIssue, type RedirectRule } from './config-values.ts';

// ---------------------------------------------------------------------------------------------
// Navigation (docs/decisions.md#docsjson-navigation)

/**
 * Where OpenAPI pages come from (docs/decisions.md#openapi-reference-pages): a file of the content
 * root, several, or `{source, directory}` (`directory` is the path prefix of the generated pages).
 */
const openApiFile = z.string().min(1).max(500);
export const openApiSource = z.union([
  openApiFile,
  z.array(openApiFile),
  z.looseObject({ source: openApiFile, directory: z.string().max(200).regex(/^[A-Za-z0-9_./-]*$/, 'must be a folder such as "api-reference"').optional() }),
], { error: 'must be a file such as "openapi.yaml", a list of files, or {"source": file, "directory": folder}' });
export type OpenApiSourceConfig = z.infer<typeof openApiSource>;

export interface NavGroupConfig {
  group: string;
  icon?: string;
  tag?: string;
  /** Nested groups start open (top-level groups are always open). */
  expanded?: boolean;
  /** A page the group's title links to. */
  root?: string;
  hidden?: boolean;
  pages: NavEntryConfig[];
  /** OpenAPI file whose operations fill this group (Mintlify's `openapi` on navigation entries). */
  openapi?: OpenApiSourceConfig;
}
export type NavEntryConfig = string | NavGroupConfig;

/** What every division of the navigation may hold: pages and groups, or further divisions. */
export interface NavContainerConfig {
  pages?: NavEntryConfig[];
  groups?: NavGroupConfig[];
  tabs?: NavTabConfig[];
  anchors?: NavAnchorConfig[];
  dropdowns?: NavDropdownConfig[];
  products?: NavProductConfig[];
  versions?: NavVersionConfig[];
  languages?: NavLanguageConfig[];
  /** OpenAPI file whose operations fill this entry's sidebar (Mintlify's `openapi` on navigation entries). */
  openapi?: OpenApiSourceConfig;
}
interface NavDivisionBase extends NavContainerConfig {
  icon?: string;
  hidden?: boolean;
  /** An external link instead of (or besides) pages. */
  href?: string;
}
export interface NavTabConfig extends NavDivisionBase {
  tab: string;
}
export interface NavAnchorConfig extends NavDivisionBase {
  anchor: string;
  color?: { light?: string; dark?: string };
}
export interface NavDropdownConfig extends NavDivisionBase {
  dropdown: string;
  description?: string;
  color?: { light?: string; dark?: string };
}
export interface NavProductConfig extends NavDivisionBase {
  product: string;
  description?: string;
}
/**
 * What a language (Mintlify) or a version (Folio too) may set for its own pages instead of the
 * site's: the header's links, the footer and the banner (docs/decisions.md#docsjson-navigation).
 */
export interface NavChromeOverrides {
  navbar?: NavbarConfig;
  footer?: FooterConfig;
  banner?: BannerConfig;
}
export interface NavVersionConfig extends NavDivisionBase, NavChromeOverrides {
  version: string;
  default?: boolean;
  tag?: string;
}
export interface NavLanguageConfig extends NavDivisionBase, NavChromeOverrides {
  /** A BCP 47 language tag: `en`, `es`, `zh-Hans`, `pt-BR`. */
  language: string;
  default?: boolean;
}
export interface NavigationConfig extends NavContainerConfig {
  /** Anchors and tabs (links) shown whatever section a page is in. */
  global?: { tabs?: NavTabConfig[]; anchors?: NavAnchorConfig[] };
}

// ---------------------------------------------------------------------------------------------
// Header links, footer and banner: the site's, and a language's or version's own

const socialPlatforms = [
  'x', 'website', 'facebook', 'youtube', 'discord', 'slack', 'github', 'linkedin', 'instagram', 'hacker-news', 'medium',
  'telegram', 'twitter', 'x-twitter', 'earth-americas', 'bluesky', 'threads', 'reddit', 'podcast',
] as const;

// Mintlify's `type: "github"` or `"discord"` link or button may leave out its label (Mintlify
// writes one from the service's data; Folio writes the service's name).
const serviceName = { github: 'GitHub', discord: 'Discord' } as const;
const navbarLink = z
  .object({ type: z.enum(['github', 'discord']).optional(), label: label(80).optional(), href: linkHref, icon: icon.optional() })
  .refine((l) => l.label !== undefined || l.type !== undefined, { message: 'needs a "label" (only a "github" or "discord" link may leave it out)', path: ['label'] })
  .transform((l) => ({ ...l, label: l.label ?? serviceName[l.type!] }));
const navbarSchema = z.object({
  links: z.array(navbarLink).max(20).optional(),
  primary: z
    .union([
      z.object({ type: z.literal('button'), label: label(80), href: linkHref }),
      z.object({ type: z.literal('github'), label: label(80).optional(), href: linkHref }),
      z.object({ type: z.literal('discord'), label: label(80).optional(), href: linkHref }).transform((p) => ({ type: 'button' as const, label: p.label ?? serviceName.discord, href: p.href })),
    ], { error: 'must be {"type": "button", "label": …, "href": …}, or {"type": "github" or "discord", "href": …}' })
    .optional(),
});
export type NavbarConfig = z.infer<typeof navbarSchema>;

const footerSchema = z.object({
  // A platform Folio has no icon for is dropped, so it is reported as an ignored key, never an error.
  socials: z
    .record(z.string().regex(/^[a-z0-9-]{1,40}$/, 'must be a platform name such as "github"'), linkHref)
    .transform((r) => Object.fromEntries(Object.entries(r).filter(([platform]) => (socialPlatforms as readonly string[]).includes(platform))))
    .optional(),
  links: z.array(z.object({ header: label(80).optional(), items: z.array(z.object({ label: label(80), href: linkHref })).max(50) })).max(10).optional(),
});
export type FooterConfig = z.infer<typeof footerSchema>;

const bannerSchema = z.object({ content: z.string().trim().min(1).max(1000), dismissible: z.boolean().optional() });
export type BannerConfig = z.infer<typeof bannerSchema>;

const chromeOverrides = () => ({ navbar: navbarSchema.optional(), footer: footerSchema.optional(), banner: bannerSchema.optional() });

// `pages` may name operations ("GET /users", "WEBHOOK user.created") when the group has `openapi`.
const navPage = z.union([pagePath, z.string().regex(/^(?:\S+\s+)?(?:GET|PUT|POST|DELETE|OPTIONS|HEAD|PATCH|TRACE|WEBHOOK)\s+\S.*$/i)], {
  error: 'must be a page path such as "guides/install", or an operation such as "GET /users"',
});

const navGroup: z.ZodType<NavGroupConfig> = z.lazy(() =>
  z.object({
    group: label(),
    icon: icon.optional(),
    tag: label(40).optional(),
    expanded: z.boolean().optional(),
    root: pagePath.optional(),
    hidden: z.boolean().optional(),
    pages: z.array(navEntry).default([]),
    openapi: openApiSource.optional(),
  }),
);
const navEntry: z.ZodType<NavEntryConfig> = z.lazy(() =>
  z.union([navPage, navGroup], { error: 'must be a page path such as "guides/install", an operation such as "GET /users", or a group {"group": …, "pages": […]}' }),
);

const containerShape = () => ({
  openapi: openApiSource.optional(),
  pages: z.array(navEntry).optional(),
  groups: z.array(navGroup).optional(),
  tabs: z.array(navTab).optional(),
  anchors: z.array(navAnchor).optional(),
  dropdowns: z.array(navDropdown).optional(),
  products: z.array(navProduct).optional(),
  versions: z.array(navVersion).optional(),
  languages: z.array(navLanguage).optional(),
});
const divisionShape = () => ({ ...containerShape(), icon: icon.optional(), hidden: z.boolean().optional(), href: linkHref.optional() });

const navTab: z.ZodType<NavTabConfig> = z.lazy(() => z.object({ tab: label(), ...divisionShape() }));
const navAnchor: z.ZodType<NavAnchorConfig> = z.lazy(() => z.object({ anchor: label(), color: modeColors.optional(), ...divisionShape() }));
const navDropdown: z.ZodType<NavDropdownConfig> = z.lazy(() =>
  z.object({ dropdown: label(), description: z.string().max(500).optional(), color: modeColors.optional(), ...divisionShape() }),
);
const navProduct: z.ZodType<NavProductConfig> = z.lazy(() => z.object({ product: label(), description: z.string().max(500).optional(), ...divisionShape() }));
const navVersion: z.ZodType<NavVersionConfig> = z.lazy(() =>
  z.object({ version: label(60), default: z.boolean().optional(), tag: label(40).optional(), ...chromeOverrides(), ...divisionShape() }),
);
const languageTag = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/, 'must be a language tag such as "en", "es" or "zh-Hans"');
const navLanguage: z.ZodType<NavLanguageConfig> = z.lazy(() => z.object({ language: languageTag, default: z.boolean().optional(), ...chromeOverrides(), ...divisionShape() }));

const navigationObject = z.object(
  {
    ...containerShape(),
    global: z.object({ tabs: z.array(navTab).optional(), anchors: z.array(navAnchor).optional() }).optional(),
  },
  { error: 'must be an object such as {"groups": [{"group": "Start", "pages": ["index"]}]} (or a list of groups)' },
);

// ---------------------------------------------------------------------------------------------
// The whole file


const fontSpec = z.object({
  family: label(100).regex(/^[A-Za-z0-9 _-]+$/, 'must be a font family name such as "Inter"'),
  weight: z.number().int().min(1).max(1000).optional(),
  source: assetPath.optional(),
  format: z.enum(['woff', 'woff2']).optional(),
});


export const docsConfigSchema = z.object({
  $schema: z.string().optional(),
  theme: z.string().trim().min(1).max(40).optional(),
  name: z.string().min(1).max(120).optional(),
  description: z.string().max(500).optional(),
  logo: z
    .union([assetPath, z.object({ light: assetPath, dark: assetPath.optional(), href: linkHref.optional() })], {
      error: 'must be a path such as "/logo.svg", an http(s) URL, or {"light": …, "dark": …, "href": …}',
    })
    .optional(),
  favicon: z
    .union([assetPath, z.object({ light: assetPath, dark: assetPath.optional() })], { error: 'must be a path such as "/favicon.svg", or {"light": …, "dark": …}' })
    .optional(),
  colors: z
    .object({
      primary: themeColor.optional(),
      /** Mintlify: the primary colour in dark mode. */
      light: cssColor.optional(),
      /** Mintlify: the primary colour of buttons and hover states in light mode. */
      dark: cssColor.optional(),
      success: themeColor.optional(),
      info: themeColor.optional(),
      warning: themeColor.optional(),
      danger: themeColor.optional(),
      muted: themeColor.optional(),
    })
    .optional(),
  appearance: z.object({ default: z.enum(['system', 'light', 'dark']).optional(), strict: z.boolean().optional() }).optional(),
  background: z
    .object({
      color: modeColors.optional(),
      image: z.union([assetPath, z.object({ light: assetPath, dark: assetPath.optional() })]).optional(),
      decoration: z.enum(['gradient', 'grid', 'windows']).optional(),
    })
    .optional(),
  fonts: fontSpec.partial({ family: true }).extend({ heading: fontSpec.optional(), body: fontSpec.optional() }).optional(),
  navbar: navbarSchema.optional(),
  footer: footerSchema.optional(),
  banner: bannerSchema.optional(),
  redirects: z.array(siteFileRedirectRule).max(20_000).optional(),
  seo: z
    .object({
      metatags: z.record(z.string().regex(/^[A-Za-z0-9:_.-]{1,100}$/, 'must be a meta tag name such as "og:image"'), z.string().max(2000)).optional(),
      indexing: z.enum(['navigable', 'all']).optional(),
    })
    .optional(),
  search: z.object({ prompt: z.string().trim().max(200).optional() }).optional(),
  /** The page menu: "Copy page", "Open in ChatGPT"… (src/site/page-menu.ts). */
  contextual: contextualSchema.optional(),
  errors: z.object({ '404': z.object({ redirect: z.boolean().optional(), title: label(200).optional(), description: z.string().max(1000).optional() }).optional() }).optional(),
  navigation: navigationObject.optional(),
  /** Folio: the OpenAPI file(s) API reference pages are generated from. */
  openapi: z.union([z.string().min(1), z.array(z.string().min(1))]).optional(),
  // Mintlify's `api` settings that Folio uses (docs/decisions.md#openapi-reference-pages).
  api: z
    .looseObject({
      openapi: openApiSource.optional(),
      playground: z
        .looseObject({
          display: z
            .enum(['interactive', 'simple', 'none', 'auth'], 'must be "interactive", "simple", "none" or "auth"')
            // "auth": signed-in readers only (playgroundForSignedIn).
            .transform((d) => (d === 'auth' ? 'none' : d))
            .optional(),
        })
        .optional(),
      examples: z
        .looseObject({
          languages: z.array(z.string().min(1).max(40)).optional(),
          defaults: z.enum(['required', 'all'], 'must be "required" or "all"').optional(),
          prefill: z.boolean('must be true or false').optional(),
        })
        .optional(),
    })
    .optional(),
});

type ParsedDocsJson = z.infer<typeof docsConfigSchema>;

/** The site configuration every part of the site reads (navigation always in its object form). */
export type DocsConfig = Omit<ParsedDocsJson, 'navigation'> & { navigation?: NavigationConfig };

export interface ParsedDocsConfig {
  config: DocsConfig;
  /** Keys Folio does not support (yet), values it changed or left out: worth a line in the deployment log. */
  warnings: DocsConfigIssue[];
  /** Files that `$ref`s of docs.json read, relative to the content root. */
  files?: string[];
  /** Where a key path of the configuration is written: the file (docs.json or one it references), the key there, line and column. */
  locate?: Locate;
}

/**
 * Parses docs.json text into the model and its warnings; throws DocsConfigError naming file, key
 * and position of every problem. `$ref`s are read from `root`, the content root holding the file
 * (docs-json-refs.ts); without one, a `$ref` is a problem.
 */
export function parseDocsJson(text: string, root?: string): ParsedDocsConfig {
  const file = 'docs.json';
  const parsed = parseJsonText(text, file);
  const refs = resolveRefs(parsed, text, file, root);
  const raw = refs.value;
  const where: Locate = (keyPath) => {
    const { file: at, keyPath: inFile } = refs.writtenAt(keyPath);
    return { file: at, key: inFile.length ? inFile.map(String).join('.') : '(top level)', ...refs.position(at, inFile) };
  };
  if (!isObject(raw)) throw new DocsConfigError([...refs.problems, { ...where([]), message: 'must be a JSON object such as {"name": "Acme"}' }]);
  // Folio's first format, a list of groups, is read as {"groups": […]}; problems name the key as written.
  const list = Array.isArray(raw.navigation);
  const input = list ? { ...raw, navigation: { groups: raw.navigation } } : raw;
  const asWritten = (keyPath: readonly PropertyKey[]) => (list && keyPath[0] === 'navigation' && keyPath[1] === 'groups' ? ['navigation', ...keyPath.slice(2)] : keyPath);
  const locate: Locate = (keyPath) => where(asWritten(keyPath));
  const { value, warnings } = validateSiteFile(docsConfigSchema, input, locate, { problems: refs.problems, quiet: (keyPath) => refs.underFailed(asWritten(keyPath)) });
  const redirects = redirectWarnings(raw.redirects, value.redirects, locate);
  if (redirects.rules) value.redirects = redirects.rules;
  return { config: value, warnings: [...refs.warnings, ...warnings, ...redirects.warnings, ...dropFontUrls(value, locate), ...playgroundForSignedIn(raw, locate), ...contextualWarnings(value, locate)], files: refs.files, locate };
}

/**
 * Font files come from the site itself: a `source` that is a URL is dropped with a warning, so a
 * reader's browser never fetches a font from another host (docs/decisions.md#docsjson-fonts). The
 * family name still applies (a font installed on the reader's system, else the theme's).
 */
function dropFontUrls(config: DocsConfig, locate: Locate): DocsConfigIssue[] {
  const warnings: DocsConfigIssue[] = [];
  const fonts = config.fonts;
  if (!fonts) return warnings;
  for (const [keyPath, spec] of [[['fonts'], fonts], [['fonts', 'heading'], fonts.heading], [['fonts', 'body'], fonts.body]] as const) {
    // Any scheme, and `//host/…` (the page's own scheme on another host), is another host.
    if (!spec?.source || !/^(?:[a-z][a-z0-9+.-]*:|\/\/|\\)/i.test(spec.source)) continue;
    const key = [...keyPath, 'source'];
    warnings.push({
      ...locate(key),
      message: 'a font on another host is not loaded (Folio serves fonts from the site itself): add the file to the repository and give its path, such as "/fonts/brand.woff2"',
    });
    delete spec.source;
  }
  return warnings;
}

/**
 * Mintlify's `api.playground.display: "auth"` shows the playground only to readers signed in to the
 * docs; Folio's readers never sign in, so they see none, as Mintlify's anonymous readers do.
 */
function playgroundForSignedIn(raw: Record<string, unknown>, locate: Locate): DocsConfigIssue[] {
  const api = raw.api;
  if (!isObject(api) || !isObject(api.playground) || api.playground.display !== 'auth') return [];
  return [{ ...locate(['api', 'playground', 'display']), message: '"auth" shows the playground to signed-in readers only, and Folio\'s readers never sign in: no playground is shown ("none")' }];
}

/** Parses docs.json text (its `$ref`s read from `root`); throws DocsConfigError naming the key and the reason. */
export function parseDocsConfig(text: string, root?: string): DocsConfig {
  return parseDocsJson(text, root).config;
}

// ---------------------------------------------------------------------------------------------
// Values handed to the layout

/** The theme token each docs.json colour sets. */
export const colorTokens = {
  primary: '--docs-primary',
  success: '--docs-success',
  info: '--docs-info',
  warning: '--docs-warning',
  danger: '--docs-danger',
  muted: '--docs-fg-muted',
} as const;

/** Light and dark values of each colour the config sets (Mintlify's `colors.light` is the dark-mode primary). */
export function themeColors(config: DocsConfig): Partial<Record<keyof typeof colorTokens, { light: string; dark: string }>> {
  const colors: ReturnType<typeof themeColors> = {};
  for (const key of Object.keys(colorTokens) as (keyof typeof colorTokens)[]) {
    const value = config.colors?.[key];
    if (value) colors[key] = typeof value === 'string' ? { light: value, dark: value } : value;
  }
  const c = config.colors;
  if (c && typeof c.primary !== 'object' && (c.primary || c.light || c.dark)) {
    const light = c.primary ?? c.dark ?? c.light!;
    colors.primary = { light, dark: c.light ?? light };
  }
  return colors;
}

/** CSS that puts docs.json colours onto the theme tokens, for light and dark mode. */
export function themeOverrideCss(config: DocsConfig): string {
  const light: string[] = [];
  const dark: string[] = [];
  const colors = themeColors(config);
  for (const [key, value] of Object.entries(colors)) {
    if (key === 'primary') continue;
    const token = colorTokens[key as keyof typeof colorTokens];
    light.push(`${token}:${value.light}`);
    dark.push(`${token}:${value.dark}`);
  }
  if (colors.primary) {
    // The brand stays the accent; text, links, active states and filled buttons use its readable
    // shade (src/site/brand-colors.ts). In light mode that starts from Mintlify's `colors.dark` (its shade for
    // buttons and hover states in light mode) when docs.json gives one.
    const c = config.colors;
    const lightSource = (typeof c?.primary !== 'object' && c?.dark) || colors.primary.light;
    const background = config.background?.color;
    light.push(`--docs-accent:${colors.primary.light}`, `--docs-primary:${readableShade(lightSource, background?.light ?? DEFAULT_BACKGROUNDS.light, colors.primary.light)}`);
    dark.push(`--docs-accent:${colors.primary.dark}`, `--docs-primary:${readableShade(colors.primary.dark, background?.dark ?? DEFAULT_BACKGROUNDS.dark)}`);
  }
  if (!light.length) return '';
  // `html:root` outranks the theme's `:root` rules whatever order the stylesheets load in.
  return `html:root{${light.join(';')}}html:root[data-theme=dark]{${dark.join(';')}}`;
}

/** An OpenAPI path of docs.json relative to the content root: a leading "/" or "./" means the root, as in Mintlify's docs.json. */
export function openApiRelativePath(openapiPath: string): string {
  return openapiPath.replace(/^(\.?\/)+/, '');
}
