// The site role's routes, injected (there is no src/pages): the docs catch-all, the 404 page and
// the machine-readable files every site has. It validates the build's settings and docs.json once
// and serves them to the build's code as `virtual:folio/site-build` (settings.ts, build-settings.ts).
import path from 'node:path';
import type { AstroIntegration } from 'astro';
import { loadDocsConfigWithWarnings, openApiRelativePath, SITE_CONFIG_FILES, type RedirectRule } from './docs-config.ts';
import { loadSiteBuild, siteSrcDir, type SiteSettings } from './settings.ts';
import { ContentRefusedError, type ContentGuard } from './content-check/build-check.ts';
import { CONNECT_ORIGINS_FILE } from './openapi/origins.ts';
import { docsJsonSources, navigationSources } from './openapi/sources.ts';
import { REDIRECTS_FILE, writeRedirectPages } from './redirects.ts';
import { PAGE_MARKDOWN_FILE, writePageMarkdownFiles } from './page-markdown-files.ts';
import { fileURLToPath } from 'node:url';
import { contentLayout } from './layout.ts';
import { mintlifyStaticFiles } from './dev-static-files.ts';
import { devRedirects } from './dev-redirects.ts';

const route = (file: string) => path.join(siteSrcDir, 'routes', file);

const SITE_BUILD_MODULE = 'virtual:folio/site-build';
const RESOLVED_SITE_BUILD_MODULE = `\0${SITE_BUILD_MODULE}`;

export function folioSite(settings: SiteSettings, guard: ContentGuard): AstroIntegration {
  let watched: string[] = [];
  let redirects: RedirectRule[] = [];
  return {
    name: 'folio-site',
    hooks: {
      'astro:config:setup': ({ command, injectRoute, addWatchFile, updateConfig }) => {
        // Fails before Astro starts when docs.json is invalid. Read once per build (and per
        // `astro dev` start, which a docs.json change restarts).
        const site = loadSiteBuild(settings);
        const source = `export const site = ${JSON.stringify(site)};`;
        updateConfig({
          vite: {
            plugins: [
              {
                name: 'folio-site-build',
                resolveId: (id: string) => (id === SITE_BUILD_MODULE ? RESOLVED_SITE_BUILD_MODULE : undefined),
                load: (id: string) => (id === RESOLVED_SITE_BUILD_MODULE ? source : undefined),
              },
            ],
          },
        });
        const config = site.docsConfig;
        redirects = config.redirects ?? [];
        const openapi = [config.openapi ?? [], ...docsJsonSources(config).map((s) => s.files), ...navigationSources(config).map((n) => n.source.files)].flat();
        // `astro dev` restarts when one of these changes: pages are rendered per request, but the
        // list of pages (generated ones too) is made at a start. A restart re-reads docs.json, so
        // an OpenAPI file it newly names is watched from then on, and so is a file its `$ref`s read.
        const referenced = loadDocsConfigWithWarnings(settings.contentRoot).files ?? [];
        watched = [...[...SITE_CONFIG_FILES, ...referenced].map((f) => path.join(settings.contentRoot, f)), ...[...new Set(openapi)].map((file) => path.join(settings.contentRoot, openApiRelativePath(file)))];
        for (const file of watched) addWatchFile(file);
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
      // addWatchFile only says which changes restart; the content root lies outside the Astro
      // root, so Vite's watcher must be told to watch these files at all.
      'astro:server:setup': ({ server }) => {
        server.watcher.add(watched);
        // docs.json redirects first, as on the live site, where they answer before the site's files (dev-redirects.ts).
        server.middlewares.use(devRedirects(redirects));
        // A build copies Mintlify's static files after Astro (build.ts); the preview serves them itself.
        if (contentLayout(settings.contentRoot).kind === 'mintlify') server.middlewares.use(mintlifyStaticFiles(settings.contentRoot));
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
