// The site role's routes, injected (there is no src/pages): the docs catch-all, the 404 page and
// the machine-readable files every site has.
import path from 'node:path';
import type { AstroIntegration } from 'astro';
import { loadDocsConfig } from './docs-config.ts';
import { siteSrcDir, type SiteSettings } from './settings.ts';

const route = (file: string) => path.join(siteSrcDir, 'routes', file);

export function folioSite(settings: SiteSettings): AstroIntegration {
  return {
    name: 'folio-site',
    hooks: {
      'astro:config:setup': ({ injectRoute, addWatchFile }) => {
        loadDocsConfig(settings.contentRoot); // fail before Astro starts when docs.json is invalid
        addWatchFile(path.join(settings.contentRoot, 'docs.json'));
        injectRoute({ pattern: '/404', entrypoint: route('404.astro') });
        injectRoute({ pattern: '/llms.txt', entrypoint: route('llms.txt.ts') });
        injectRoute({ pattern: '/llms-full.txt', entrypoint: route('llms-full.txt.ts') });
        injectRoute({ pattern: '/sitemap.xml', entrypoint: route('sitemap.xml.ts') });
        injectRoute({ pattern: '/robots.txt', entrypoint: route('robots.txt.ts') });
        injectRoute({ pattern: '/[...slug]', entrypoint: route('page.astro') });
      },
    },
  };
}
