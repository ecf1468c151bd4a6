// The inputs of one site build, validated once (docs/architecture.md#a-site-build). The build entry
// (src/builder/build-worker.ts, or astro.config.mjs for `astro dev`) makes a SiteSettings; the site integration
// (integration.ts) reads and validates the content root's docs.json once per build and hands the
// result to everything inside the Astro build as the virtual module `virtual:folio/site-build`
// (imported through build-settings.ts). Nothing in a build reads process.env or the working directory.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OPENAPI_DIGEST_PREFIX, readCheckedFile } from './content-check/checked-files.ts';
import { type DocsConfig } from './config/docs-config.ts';
import { loadDocsConfig } from './config/site-config-file.ts';
import { listRootFiles, type ContentLayout } from './layout.ts';
import { customFiles } from './custom-files.ts';

/** The repository root (where astro.config.mjs and node_modules live). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The site source directory (layouts, routes, components). */
export const siteSrcDir = path.join(repoRoot, 'src/site');

/** What starts one site build: where its content is, where its output goes, and how it is built. */
export interface SiteSettings {
  /** Absolute path of the content root being built. */
  contentRoot: string;
  /** Absolute path of the output directory. */
  outDir: string;
  /** Astro `root` for this build: its own directory so concurrent builds never share `.astro/`. */
  buildRoot: string;
  /** Public address of the site (no trailing slash), if known; used for canonical URLs and the sitemap. */
  siteUrl: string | undefined;
  /** The project runs code: imports of its own files, expressions, React components. */
  allowCode: boolean;
  /** "Edit this page" address of the content root (FOLIO_EDIT_URL): a page's path relative to the root follows. */
  editUrl?: string;
  /** The JSON file of pages' last-updated dates (FOLIO_LAST_UPDATED), by path relative to the root. */
  lastUpdatedFile?: string;
  /**
   * A fast redeploy's partial build (FOLIO_ONLY_PAGES, a JSON array): the paths of the only pages
   * rendered; every page is still read for navigation and the machine-readable files
   * (docs/decisions.md#fast-redeploys).
   */
  onlyPages?: string[];
  /**
   * MDX pages without code are compiled into data at sync time (docs/decisions.md#mdx-pages-as-data);
   * false (FOLIO_STATIC_MDX=0) compiles every page as an MDX module instead, as builds with code do.
   * Deployments never set it: it is how test/site/static-mdx.test.ts builds the same pages both ways.
   */
  staticMdx?: boolean;
  /**
   * The build root holds the previous build's cache of the same site, carried by the server
   * (src/builder/build-cache.ts, `adoptCarriedStore`); set by the build entry, never from a variable.
   */
  carriedCache?: boolean;
}

/** What the code inside one Astro build sees (`virtual:folio/site-build`): settings and the validated docs.json. */
export interface SiteBuild {
  contentRoot: string;
  /** The build's own Astro root (its cache, ASTRO_CACHE_DIR, is under it). */
  buildRoot: string;
  /** Astro's cache folder of this build (ASTRO_CACHE_DIR under buildRoot), carried to the site's next fast build. */
  cacheDir: string;
  siteUrl: string | undefined;
  allowCode: boolean;
  /** The content root's docs.json, validated (an empty config when there is none). */
  docsConfig: DocsConfig;
  /** Absolute path of the snippets folder (`_snippets/`, Mintlify's `snippets/`), undefined when the content root has none. */
  snippetsDir: string | undefined;
  /** "Edit this page" address of the content root (a page's path relative to the root follows). */
  editUrl: string | undefined;
  /** ISO dates of pages' last commits, by path relative to the content root, read once per build. */
  lastUpdated: Record<string, string>;
  /** The content root's layout (Folio's or Mintlify's, layout.ts). */
  layout: ContentLayout;
  /** Page and snippet files, relative to the content root, as the content check listed them. */
  pageFiles: string[];
  snippetFiles: string[];
  /** A fast redeploy's partial build: the only pages rendered (SiteSettings.onlyPages); undefined renders all. */
  onlyPages: string[] | undefined;
  /** The build's Astro cache is the previous build's of the site (SiteSettings.carriedCache). */
  carriedCache: boolean;
  /**
   * Digests of the OpenAPI documents the server's checks validated (none with code): not validated
   * again. Those of the check before this build, or for a fast build those of the previous build's
   * record (src/builder/build.ts, `validatedSpecs`); the server writes them, never the carried cache.
   */
  checkedSpecs: string[];
  /** MDX pages without code are kept as data (SiteSettings.staticMdx, never with code). */
  staticMdx: boolean;
  /** Mintlify's custom stylesheets, linked into every page (custom-files.ts). */
  customStyles: string[];
  /** Mintlify's custom scripts, run on every page: only with code, else none (custom-files.ts). */
  customScripts: string[];
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

/**
 * Astro's cache folder in a build root: the content store and each page's rendered file
 * (rendered-files.ts). A fast redeploy's build gets the previous build's (src/builder/build.ts, `carryCache`).
 */
export const ASTRO_CACHE_DIR = '.cache/astro';

/** Astro's cache folder of a build (its `cacheDir`), carried to the site's next fast build (src/builder/build-cache.ts). */
export const astroCacheDir = (buildRoot: string) => path.join(buildRoot, ASTRO_CACHE_DIR);

/**
 * Settings from `FOLIO_*` variables: only at a process's entry (a cold build process started with
 * them, `astro dev`), never inside a build. Defaults: Folio's own docs in this repository.
 */
export function siteSettings(env: NodeJS.ProcessEnv = process.env): SiteSettings {
  return resolveSiteSettings({
    contentRoot: env.FOLIO_CONTENT_ROOT || repoRoot,
    buildRoot: env.FOLIO_BUILD_ROOT || repoRoot,
    outDir: env.FOLIO_OUT_DIR || path.join(repoRoot, 'dist/site'),
    siteUrl: env.FOLIO_SITE_URL || undefined,
    allowCode: env.FOLIO_BUILD_ALLOW_CODE === '1',
    editUrl: env.FOLIO_EDIT_URL || undefined,
    lastUpdatedFile: env.FOLIO_LAST_UPDATED || undefined,
    onlyPages: env.FOLIO_ONLY_PAGES ? (JSON.parse(env.FOLIO_ONLY_PAGES) as string[]) : undefined,
    staticMdx: env.FOLIO_STATIC_MDX !== '0',
  });
}

/** Absolute paths, and a site URL without trailing slash. */
export function resolveSiteSettings(settings: SiteSettings): SiteSettings {
  return {
    contentRoot: path.resolve(settings.contentRoot),
    buildRoot: path.resolve(settings.buildRoot),
    outDir: path.resolve(settings.outDir),
    siteUrl: settings.siteUrl ? settings.siteUrl.replace(/\/+$/, '') : undefined,
    allowCode: settings.allowCode === true,
    // Only an https address is ever linked (the deployment makes it; a page path is appended).
    editUrl: settings.editUrl && /^https:\/\/[^\s"'<>]+\/$/.test(settings.editUrl) ? settings.editUrl : undefined,
    lastUpdatedFile: settings.lastUpdatedFile ? path.resolve(settings.lastUpdatedFile) : undefined,
    onlyPages: Array.isArray(settings.onlyPages) ? settings.onlyPages.filter((p) => typeof p === 'string') : undefined,
    staticMdx: settings.staticMdx !== false,
    carriedCache: settings.carriedCache === true,
  };
}

/** Reads and validates what a build needs of its content root; throws DocsConfigError for a bad docs.json. */
export function loadSiteBuild(settings: SiteSettings): SiteBuild {
  // The same list the content check read: a file is built only if it was checked.
  const files = listRootFiles(settings.contentRoot);
  const snippetsDir = path.join(settings.contentRoot, files.layout.snippetsDir);
  const custom = customFiles(files);
  return {
    contentRoot: settings.contentRoot,
    buildRoot: settings.buildRoot,
    cacheDir: astroCacheDir(settings.buildRoot),
    siteUrl: settings.siteUrl,
    allowCode: settings.allowCode,
    docsConfig: loadDocsConfig(settings.contentRoot),
    snippetsDir: fs.existsSync(snippetsDir) ? snippetsDir : undefined,
    editUrl: settings.editUrl,
    lastUpdated: readLastUpdated(settings.lastUpdatedFile),
    layout: files.layout,
    pageFiles: files.pages,
    snippetFiles: files.snippets,
    onlyPages: settings.onlyPages,
    carriedCache: settings.carriedCache === true,
    checkedSpecs: settings.allowCode ? [] : [...readCheckedFile(settings.buildRoot)].filter((digest) => digest.startsWith(OPENAPI_DIGEST_PREFIX)),
    staticMdx: settings.staticMdx !== false && !settings.allowCode,
    customStyles: custom.styles,
    customScripts: settings.allowCode ? custom.scripts : [],
  };
}

/** The dates file the deployment wrote (a JSON object of path → ISO date); none when absent or bad. */
function readLastUpdated(file: string | undefined): Record<string, string> {
  if (!file) return {};
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter(([, date]) => typeof date === 'string' && !Number.isNaN(Date.parse(date))));
  } catch {
    return {};
  }
}
