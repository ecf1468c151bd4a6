// Injects the web console (src/console/pages) into the service role, with its middleware
// (sessions, Origin and token checks, security headers). The console is served only on
// `console.{FOLIO_SERVICE_DOMAIN}` (src/server.ts routes that host here).
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { precompressBuild } from '../service/deployments/precompress.ts';
import { CONSOLE_ROUTES } from './routes.ts';

export function folioConsole(): AstroIntegration {
  let clientDir: string | undefined;
  return {
    name: 'folio-console',
    hooks: {
      'astro:config:setup': ({ injectRoute, addMiddleware }) => {
        for (const [pattern, file] of Object.entries(CONSOLE_ROUTES)) {
          injectRoute({ pattern, entrypoint: new URL(`./pages/${file}`, import.meta.url), prerender: false });
        }
        addMiddleware({ entrypoint: new URL('./middleware.ts', import.meta.url), order: 'pre' });
      },
      'astro:config:done': ({ config }) => {
        clientDir = fileURLToPath(config.build.client);
      },
      // The console's scripts and styles (its editor preview bundles a Markdown renderer: 200 KB)
      // get brotli and gzip copies once, at build time, as a site's files do when published
      // (assets.ts sends them).
      'astro:build:done': async () => {
        if (clientDir) await precompressBuild(clientDir);
      },
    },
  };
}
