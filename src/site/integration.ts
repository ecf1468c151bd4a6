// The site role's routes, injected (there is no src/pages): the docs catch-all, the 404 page and
// the machine-readable files every site has. It validates the build's settings and docs.json once
// and serves them to the build's code as `virtual:folio/site-build` (settings.ts, build-settings.ts);
// in astro dev again when docs.json changes, without a restart (dev/dev-reload.ts).
import path from 'node:path';
import type { AstroIntegration, RefreshContentOptions } from 'astro';
import { DocsConfigError, openApiRelativePath, type DocsConfig, type RedirectRule } from './config/docs-config.ts';
import { loadDocsConfigWithWarnings, SITE_CONFIG_FILES } from './config/site-config-file.ts';
import { loadSiteBuild, siteSrcDir, type SiteBuild, type SiteSettings } from './settings.ts';
import { ContentRefusedError, type ContentGuard } from './content-check/build-check.ts';
import { CONNECT_ORIGINS_FILE } from './openapi/origins.ts';
import { docsJsonSources, navigationSources } from './openapi/sources.ts';
import { REDIRECTS_FILE, writeRedirectPages } from './redirects.ts';
import { PAGE_MARKDOWN_FILE, writePageMarkdownFiles } from './page-markdown-files.ts';
import { fileURLToPath } from 'node:url';
import { contentLayout } from './layout.ts';
import { mintlifyStaticFiles } from './dev/dev-static-files.ts';
import { devRedirects } from './dev/dev-redirects.ts';
import { dataStoreWritten, errorOverlay, invalidateWithImporters, reloadPages, reloadStalePages } from './dev/dev-reload.ts';

const route = (file: string) => path.join(siteSrcDir, 'routes', file);

const SITE_BUILD_MODULE = 'virtual:folio/site-build';
const RESOLVED_SITE_BUILD_MODULE = `\0${SITE_BUILD_MODULE}`;

/** The files of a content root that make the site's settings: docs.json (or mint.json), the files it reads, the OpenAPI files it names. */
function siteFiles(contentRoot: string, config: DocsConfig): string[] {
  const openapi = [config.openapi ?? [], ...docsJsonSources(config).map((s) => s.files), ...navigationSources(config).map((n) => n.source.files)].flat();
  const referenced = loadDocsConfigWithWarnings(contentRoot).files ?? [];
  return [...new Set([...[...SITE_CONFIG_FILES, ...referenced].map((f) => path.join(contentRoot, f)), ...openapi.map((file) => path.join(contentRoot, openApiRelativePath(file)))])];
}

const NO_REDIRECTS: RedirectRule[] = [];

/** Tries of a content sync that Astro skipped, 100 ms apart: a content config reload takes well under a second. */
const SYNC_TRIES = 50;

/**
 * Syncs the content collections with the site's new lists of pages and snippets. Astro's
 * `refreshContent` returns without syncing while it reloads the content config, which it does after
 * a docs.json change invalidates the site settings module content.config.ts imports: a page added
 * right after such a change was never synced, and the preview showed the page missing until the
 * next change. The loaders call `synced` when a sync runs (content.config.ts); until one has, the
 * sync is asked for again.
 */
async function syncLists(refreshContent: (options: RefreshContentOptions) => Promise<void>, site: SiteBuild): Promise<boolean> {
  for (let tries = 0; tries < SYNC_TRIES; tries++) {
    let ran = false;
    await refreshContent({ context: { pageFiles: site.pageFiles, snippetFiles: site.snippetFiles, synced: () => (ran = true) } });
    if (ran) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

export function folioSite(settings: SiteSettings, guard: ContentGuard): AstroIntegration {
  let site: SiteBuild;
  // How many times the preview has read the settings again: rendered into each page in dev, so a
  // page that missed a reload catches up (dev/dev-reload.ts, reloadStalePages).
  let settingsVersion = 0;
  let watched: string[] = [];
  return {
    name: 'folio-site',
    hooks: {
      'astro:config:setup': ({ command, injectRoute, updateConfig }) => {
        // Fails before Astro starts when docs.json is invalid. Read once per build; in astro dev
        // again at each change of docs.json or a file it reads (astro:server:setup below).
        site = loadSiteBuild(settings);
        watched = siteFiles(settings.contentRoot, site.docsConfig);
        updateConfig({
          vite: {
            plugins: [
              {
                name: 'folio-site-build',
                resolveId: (id: string) => (id === SITE_BUILD_MODULE ? RESOLVED_SITE_BUILD_MODULE : undefined),
                load: (id: string) => (id === RESOLVED_SITE_BUILD_MODULE ? `export const site = ${JSON.stringify(site)};\nexport const settingsVersion = ${settingsVersion};` : undefined),
              },
            ],
          },
        });
        injectRoute({ pattern: '/404', entrypoint: route('404.astro') });
        injectRoute({ pattern: '/llms.txt', entrypoint: route('llms.txt.ts') });
        injectRoute({ pattern: '/llms-full.txt', entrypoint: route('llms-full.txt.ts') });
        injectRoute({ pattern: '/sitemap.xml', entrypoint: route('sitemap.xml.ts') });
        injectRoute({ pattern: '/robots.txt', entrypoint: route('robots.txt.ts') });
        injectRoute({ pattern: `/${CONNECT_ORIGINS_FILE}`, entrypoint: route('connect-origins.txt.ts') });
        injectRoute({ pattern: `/${REDIRECTS_FILE}`, entrypoint: route('redirects.txt.ts') });
        // Each page's .md file: a build lists them all in one render and writes them when done
        // (page-markdown-files.ts); the dev server renders each when asked.
        if (command === 'build') injectRoute({ pattern: `/${PAGE_MARKDOWN_FILE}`, entrypoint: route('page-markdown.jsonl.ts') });
        else injectRoute({ pattern: '/[...slug].md', entrypoint: route('page.md.ts') });
        injectRoute({ pattern: '/[...slug]', entrypoint: route('page.astro') });
      },
      'astro:server:setup': ({ server, logger, refreshContent }) => {
        // The content root lies outside the Astro root: Vite's watcher must be told to watch these files at all.
        server.watcher.add(watched);
        // docs.json redirects first, as on the live site, where they answer before the site's files (dev/dev-redirects.ts).
        server.middlewares.use(devRedirects(() => site.docsConfig.redirects ?? NO_REDIRECTS));
        // A build copies Mintlify's static files after Astro (src/builder/output.ts); the preview serves them itself.
        if (contentLayout(settings.contentRoot).kind === 'mintlify') server.middlewares.use(mintlifyStaticFiles(settings.contentRoot));
        // docs.json, a file it reads or an OpenAPI file changed, or a page or snippet was added or
        // removed: the settings are read again, without a restart (docs/decisions.md#docsjson-changes-in-the-preview).
        // Changes come in bursts (an editor's save, a git checkout): one reload per burst.
        const overlay = errorOverlay(server);
        reloadStalePages(server, () => settingsVersion);
        const touched = new Set<string>();
        let timer: NodeJS.Timeout | undefined;
        let syncing = false;
        let savedWhileSyncing = false;
        const reload = async () => {
          const names = [...touched].map((file) => path.relative(settings.contentRoot, file)).join(', ');
          touched.clear();
          let next: SiteBuild;
          try {
            next = loadSiteBuild(settings);
          } catch (error) {
            // As a restart with a bad astro.config does: the preview keeps the last good settings.
            const message = error instanceof DocsConfigError ? error.message : String(error);
            logger.error(`${names} changed and cannot be used; the preview keeps the last good version:\n${message}`);
            overlay.show(message);
            return;
          }
          if (next.layout.kind !== site.layout.kind) {
            const message = `${names}: the repository's layout changed (${site.layout.kind} to ${next.layout.kind}): stop the preview and start it again`;
            logger.error(message);
            overlay.show(message);
            return;
          }
          overlay.clear();
          const listsChanged = String(next.pageFiles) !== String(site.pageFiles) || String(next.snippetFiles) !== String(site.snippetFiles);
          site = next;
          settingsVersion++;
          const files = siteFiles(settings.contentRoot, site.docsConfig);
          server.watcher.add(files.filter((f) => !watched.includes(f)));
          watched = files;
          invalidateWithImporters(server, RESOLVED_SITE_BUILD_MODULE);
          // The content collections were made from the lists (content.config.ts): synced again with the
          // new ones. A sync drops the loaders' own watchers until they load again: a page saved
          // meanwhile is read by one more sync.
          // A sync that writes the content store makes Astro reload the open pages itself, after the
          // settings module above was renewed: a second reload from here came later, and took a reader
          // who had already clicked on back to the page they were leaving.
          let astroReloaded = false;
          if (listsChanged && refreshContent) {
            const before = await dataStoreWritten(settings.buildRoot);
            do {
              savedWhileSyncing = false;
              syncing = true;
              const synced = await syncLists(refreshContent, site).finally(() => (syncing = false));
              if (!synced) logger.error(`${names}: the pages could not be synced again; stop the preview and start it again`);
            } while (savedWhileSyncing);
            astroReloaded = (await dataStoreWritten(settings.buildRoot)) !== before;
          }
          if (!astroReloaded) reloadPages(server);
          logger.info(`${names} changed: reloaded`);
        };
        const isContentFile = (file: string) => /\.mdx?$/.test(file) && file.startsWith(`${settings.contentRoot}${path.sep}`);
        const changed = (event: 'change' | 'add' | 'unlink') => (file: string) => {
          if (syncing && isContentFile(file)) savedWhileSyncing = true;
          if (!watched.includes(file) && !(event !== 'change' && isContentFile(file))) return;
          touched.add(file);
          clearTimeout(timer);
          timer = setTimeout(() => void reload().catch((error: unknown) => logger.error(String(error))), 50);
        };
        for (const event of ['change', 'add', 'unlink'] as const) server.watcher.on(event, changed(event));
      },
      // Content collections render Markdown while syncing, before this hook, and only log a
      // failure there: a file the content check refused must stop the build here.
      'astro:build:start': () => {
        if (guard.problems.length) throw new ContentRefusedError(guard.problems);
      },
      'astro:build:done': ({ dir, logger }) => {
        if (guard.problems.length) throw new ContentRefusedError(guard.problems);
        const outDir = fileURLToPath(dir).replace(/\/+$/, '');
        writeRedirectPages(outDir);
        for (const address of writePageMarkdownFiles(outDir)) logger.warn(`Skipping the Markdown of a page at ${address}: a file with the same name exists in the public folder`);
      },
    },
  };
}
