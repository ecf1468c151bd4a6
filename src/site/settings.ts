// The build inputs of the site role, read from the environment in one place.
// `FOLIO_*` variables are the only inputs a site build receives (see build.ts).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (where astro.config.mjs and node_modules live). */
export const projectDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The site source directory (layouts, routes, components). */
export const siteSrcDir = path.join(projectDir, 'src/site');

export interface SiteSettings {
  /** Absolute path of the content root being built. */
  contentRoot: string;
  /** Absolute path of the output directory. */
  outDir: string;
  /** Astro `root` for this build: its own directory so concurrent builds never share `.astro/`. */
  buildRoot: string;
  /** Public address of the site (no trailing slash), if known; used for canonical URLs and the sitemap. */
  siteUrl: string | undefined;
  /** The project runs code (FOLIO_BUILD_ALLOW_CODE=1): imports of its own files, expressions, React components. */
  allowCode: boolean;
  /** "Edit this page" address of the content root (FOLIO_EDIT_URL): a page's path relative to the root follows. */
  editUrl: string | undefined;
  /** The JSON file of pages' last-updated dates (FOLIO_LAST_UPDATED), by path relative to the root. */
  lastUpdatedFile: string | undefined;
}

/** What a repository project's pages show from git (the deployment computes it, the layout shows it). */
export interface PageHistory {
  /** An https address ending in "/", such as https://github.com/acme/docs/edit/main/. */
  editUrl?: string;
  /** ISO dates of each page's last commit, by path relative to the content root (`content/guides/install.mdx`). */
  lastUpdated?: Record<string, string>;
}

/** Where a build finds the last-updated dates, in its own build root. */
export const LAST_UPDATED_FILE = 'last-updated.json';

export function siteSettings(env: NodeJS.ProcessEnv = process.env): SiteSettings {
  const contentRoot = path.resolve(env.FOLIO_CONTENT_ROOT || projectDir);
  const buildRoot = path.resolve(env.FOLIO_BUILD_ROOT || projectDir);
  const outDir = path.resolve(env.FOLIO_OUT_DIR || path.join(projectDir, 'dist/site'));
  const siteUrl = env.FOLIO_SITE_URL ? env.FOLIO_SITE_URL.replace(/\/+$/, '') : undefined;
  // Only an https address is ever linked (the deployment makes it; a page path is appended).
  const editUrl = env.FOLIO_EDIT_URL && /^https:\/\/[^\s"'<>]+\/$/.test(env.FOLIO_EDIT_URL) ? env.FOLIO_EDIT_URL : undefined;
  return { contentRoot, outDir, buildRoot, siteUrl, allowCode: env.FOLIO_BUILD_ALLOW_CODE === '1', editUrl, lastUpdatedFile: env.FOLIO_LAST_UPDATED || undefined };
}
