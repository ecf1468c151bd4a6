// Injects the service's routes: the /v1 API (one catch-all, dispatched by our route table so that
// authentication comes before a route's existence is revealed), the health check and the TLS
// proxy's question whether a host is served, and the push webhook of git hosts.
import type { AstroIntegration } from 'astro';

export function folioApi(): AstroIntegration {
  return {
    name: 'folio-api',
    hooks: {
      'astro:config:setup': ({ injectRoute }) => {
        injectRoute({ pattern: '/v1/[...path]', entrypoint: new URL('./endpoints/v1.ts', import.meta.url), prerender: false });
        injectRoute({ pattern: '/healthz', entrypoint: new URL('./endpoints/healthz.ts', import.meta.url), prerender: false });
        injectRoute({ pattern: '/internal/tls-allowed', entrypoint: new URL('./endpoints/tls-allowed.ts', import.meta.url), prerender: false });
        // Push webhooks of git hosts: signed deliveries, no API key (docs/decisions.md#continuous-deployment).
        injectRoute({ pattern: '/hooks/git/[project_id]', entrypoint: new URL('./endpoints/git-hook.ts', import.meta.url), prerender: false });
      },
    },
  };
}
