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
}

export function siteSettings(env: NodeJS.ProcessEnv = process.env): SiteSettings {
  const contentRoot = path.resolve(env.FOLIO_CONTENT_ROOT || projectDir);
  const buildRoot = path.resolve(env.FOLIO_BUILD_ROOT || projectDir);
  const outDir = path.resolve(env.FOLIO_OUT_DIR || path.join(projectDir, 'dist/site'));
  const siteUrl = env.FOLIO_SITE_URL ? env.FOLIO_SITE_URL.replace(/\/+$/, '') : undefined;
  return { contentRoot, outDir, buildRoot, siteUrl, allowCode: env.FOLIO_BUILD_ALLOW_CODE === '1' };
}
