// mint.json, Mintlify's older site file, read into the same model as docs.json (docs-config.ts):
// validated with its own schema (so problems point at `mint.json:line:col`), then mapped. Its
// navigation is a list of groups; tabs and anchors select groups by the prefix of their pages
// (`url: "api-reference"`), and `versions` by each group's `version`
// (docs/decisions.md#docsjson).
import { z } from 'zod';
import { assetPath, cssColor, DocsConfigError, icon, isObject, label, linkHref, locateInText, pagePath, parseJsonText, redirectWarnings, siteFileRedirectRule, validateSiteFile } from './config-values.ts';
import type { DocsConfig, NavAnchorConfig, NavContainerConfig, NavEntryConfig, NavGroupConfig, NavigationConfig, NavTabConfig, ParsedDocsConfig } from './docs-config.ts';

interface MintGroup {
  group: string;
  icon?: string;
  version?: string;
  pages: Array<string | MintGroup>;
}
const mintGroup: z.ZodType<MintGroup> = z.lazy(() =>
  z.object({ group: label(), icon: icon.optional(), version: label(60).optional(), pages: z.array(z.union([pagePath, mintGroup])) }),
);

/** A tab or anchor: a section of the pages under `url`, or (an http(s) URL) a link. */
const mintSection = z.object({
  name: label(),
  url: z.string().trim().min(1).max(2000).regex(/^(?:https?:\/\/[^\s"'<>\\]+|[^\s"'<>:\\]+)$/, 'must be a folder of pages such as "api-reference" or an http(s) URL'),
  icon: icon.optional(),
  version: label(60).optional(),
});
type MintSection = z.infer<typeof mintSection>;

const mintSchema = z.object({
  $schema: z.string().optional(),
  name: z.string().min(1).max(120).optional(),
  description: z.string().max(500).optional(),
  logo: z.union([assetPath, z.object({ light: assetPath, dark: assetPath.optional(), href: linkHref.optional() })]).optional(),
  favicon: assetPath.optional(),
  colors: z
    .object({
      primary: cssColor.optional(),
      light: cssColor.optional(),
      dark: cssColor.optional(),
      background: z.object({ light: cssColor.optional(), dark: cssColor.optional() }).optional(),
    })
    .optional(),
  topbarLinks: z.array(z.object({ name: label(80), url: linkHref })).max(20).optional(),
  topbarCtaButton: z
    .union([z.object({ type: z.literal('github'), url: linkHref }), z.object({ type: z.literal('link').optional(), name: label(80), url: linkHref })])
    .optional(),
  navigation: z.array(mintGroup).optional(),
  tabs: z.array(mintSection).optional(),
  anchors: z.array(mintSection).optional(),
  topAnchor: z.object({ name: label(), icon: icon.optional() }).optional(),
  versions: z.array(z.union([label(60), z.object({ name: label(60), url: linkHref.optional() })])).optional(),
  footerSocials: z
    .union([z.record(z.string().regex(/^[a-z-]{1,30}$/), linkHref), z.array(z.object({ type: z.string().regex(/^[a-z-]{1,30}$/), url: linkHref }))])
    .optional(),
  modeToggle: z.object({ default: z.enum(['light', 'dark']).optional(), isHidden: z.boolean().optional() }).optional(),
  redirects: z.array(siteFileRedirectRule).max(20_000).optional(),
  seo: z.object({ indexHiddenPages: z.boolean().optional() }).optional(),
  search: z.object({ prompt: z.string().trim().max(200).optional() }).optional(),
  openapi: z.union([z.string().min(1), z.array(z.string().min(1))]).optional(),
});
type MintJson = z.infer<typeof mintSchema>;

/** Parses mint.json text into the docs.json model and its warnings; throws DocsConfigError naming key and position. */
export function parseMintJson(text: string): ParsedDocsConfig {
  const file = 'mint.json';
  const raw = parseJsonText(text, file);
  if (!isObject(raw)) throw new DocsConfigError([{ file, key: '(top level)', message: 'must be a JSON object such as {"name": "Acme"}', line: 1, column: 1 }]);
  const locate = locateInText(text, file);
  const { value, warnings } = validateSiteFile(mintSchema, raw, locate);
  const redirects = redirectWarnings(raw.redirects, value.redirects, locate);
  if (redirects.rules) value.redirects = redirects.rules;
  return { config: mintToDocsConfig(value), warnings: [...warnings, ...redirects.warnings] };
}

function mintToDocsConfig(mint: MintJson): DocsConfig {
  const config: DocsConfig = {};
  if (mint.name) config.name = mint.name;
  if (mint.description) config.description = mint.description;
  if (mint.logo) config.logo = mint.logo;
  if (mint.favicon) config.favicon = mint.favicon;
  if (mint.openapi) config.openapi = mint.openapi;
  if (mint.redirects) config.redirects = mint.redirects;
  if (mint.search) config.search = mint.search;
  if (mint.colors) {
    const { background, ...colors } = mint.colors;
    config.colors = colors;
    if (background) config.background = { color: background };
  }
  if (mint.modeToggle) config.appearance = { default: mint.modeToggle.default, strict: mint.modeToggle.isHidden };
  if (mint.seo?.indexHiddenPages) config.seo = { indexing: 'all' };
  const navbar: NonNullable<DocsConfig['navbar']> = {};
  if (mint.topbarLinks) navbar.links = mint.topbarLinks.map((l) => ({ label: l.name, href: l.url }));
  const cta = mint.topbarCtaButton;
  if (cta) navbar.primary = cta.type === 'github' ? { type: 'github', href: cta.url } : { type: 'button', label: cta.name, href: cta.url };
  if (navbar.links || navbar.primary) config.navbar = navbar;
  if (mint.footerSocials) {
    const entries = Array.isArray(mint.footerSocials) ? mint.footerSocials.map((s) => [s.type, s.url]) : Object.entries(mint.footerSocials);
    // Only the platforms docs.json knows; mint.json's others have no icon either.
    config.footer = { socials: Object.fromEntries(entries.filter(([type]) => KNOWN_SOCIALS.has(type!))) };
  }
  if (mint.navigation) config.navigation = mintNavigation(mint);
  return config;
}

const KNOWN_SOCIALS = new Set(['x', 'website', 'facebook', 'youtube', 'discord', 'slack', 'github', 'linkedin', 'instagram', 'hacker-news', 'medium', 'telegram', 'twitter', 'x-twitter', 'bluesky', 'threads', 'reddit']);

const isUrl = (url: string) => /^https?:\/\//.test(url);
const prefixOf = (url: string) => url.replace(/^\/+|\/+$/g, '');

function mintNavigation(mint: MintJson): NavigationConfig {
  const groups = mint.navigation ?? [];
  const versions = (mint.versions ?? []).map((v) => (typeof v === 'string' ? v : v.name));
  const links = [...(mint.tabs ?? []), ...(mint.anchors ?? [])].filter((s) => isUrl(s.url));
  const navigation: NavigationConfig = {};
  if (links.length) navigation.global = { anchors: links.map((s): NavAnchorConfig => ({ anchor: s.name, href: s.url, ...(s.icon ? { icon: s.icon } : {}) })) };
  if (versions.length === 0) return { ...navigation, ...sections(mint, groups, undefined) };
  navigation.versions = versions.map((version) => ({
    version,
    ...sections(
      mint,
      groups.filter((g) => g.version === undefined || g.version === version),
      version,
    ),
  }));
  return navigation;
}

/** The groups of one version, split into tabs by their pages' prefixes (tabs first, then anchors). */
function sections(mint: MintJson, groups: MintGroup[], version: string | undefined): NavContainerConfig {
  const of = (list: MintSection[] | undefined) => (list ?? []).filter((s) => !isUrl(s.url) && (s.version === undefined || s.version === version));
  const tabs = [...of(mint.tabs), ...of(mint.anchors)];
  if (!tabs.length) return { groups: groups.map(toGroup) };
  const firstPage = (g: MintGroup): string => {
    for (const p of g.pages) {
      const found = typeof p === 'string' ? p : firstPage(p);
      if (found) return found;
    }
    return '';
  };
  const tabOf = (g: MintGroup) => tabs.find((t) => `${firstPage(g)}/`.startsWith(`${prefixOf(t.url)}/`));
  const primary: NavTabConfig = { tab: mint.topAnchor?.name ?? 'Documentation', groups: groups.filter((g) => !tabOf(g)).map(toGroup) };
  if (mint.topAnchor?.icon) primary.icon = mint.topAnchor.icon;
  const result: NavTabConfig[] = primary.groups!.length ? [primary] : [];
  for (const t of tabs) {
    const tab: NavTabConfig = { tab: t.name, groups: groups.filter((g) => tabOf(g) === t).map(toGroup) };
    if (t.icon) tab.icon = t.icon;
    if (tab.groups!.length) result.push(tab);
  }
  return { tabs: result };
}

function toGroup(g: MintGroup): NavGroupConfig {
  const group: NavGroupConfig = { group: g.group, pages: g.pages.map((p): NavEntryConfig => (typeof p === 'string' ? p : toGroup(p))) };
  if (g.icon) group.icon = g.icon;
  return group;
}
