// Injects the web console (src/console/pages) into the service role, with its middleware
// (sessions, Origin and token checks, security headers). The console is served only on
// `console.{FOLIO_SERVICE_DOMAIN}` (src/server.ts routes that host here).
import type { AstroIntegration } from 'astro';
import { CONSOLE_ROUTES } from './routes.ts';

export function folioConsole(): AstroIntegration {
  return {
    name: 'folio-console',
    hooks: {
      'astro:config:setup': ({ injectRoute, addMiddleware }) => {
        for (const [pattern, file] of Object.entries(CONSOLE_ROUTES)) {
          injectRoute({ pattern, entrypoint: new URL(`./pages/${file}`, import.meta.url), prerender: false });
        }
        addMiddleware({ entrypoint: new URL('./middleware.ts', import.meta.url), order: 'pre' });
      },
    },
  };
}
