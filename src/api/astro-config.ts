// Astro configuration of the service role: the /v1 API as on-demand endpoints, built for
// @astrojs/node in middleware mode so src/server.ts can route by Host before Astro sees a request.
import node from '@astrojs/node';
import type { AstroUserConfig } from 'astro';
import { SERVICE_OUT_DIR } from './build-service.ts';
import { folioApi } from './integration.ts';
import { folioConsole } from '../console/integration.ts';

export function roleConfig(): AstroUserConfig {
  return {
    output: 'server',
    outDir: SERVICE_OUT_DIR,
    // The adapter's own limit is a backstop; each route enforces its smaller limit while reading.
    adapter: node({ mode: 'middleware', bodySizeLimit: 16 * 1024 * 1024 }),
    session: false,
    // A JSON API called with bearer keys: Content-Type is enforced per route. The console's forms
    // get their own, stricter Origin check (src/console/middleware.ts).
    security: { checkOrigin: false },
    integrations: [folioApi(), folioConsole()],
    // The console's styles and scripts stay files under /_astro: its Content-Security-Policy allows
    // no inline style or script (src/console/security.ts).
    build: { inlineStylesheets: 'never' },
    vite: { build: { assetsInlineLimit: (file: string) => (/\.([cm]?js|css)$/.test(file) ? false : undefined) } },
    telemetry: false,
  } as AstroUserConfig;
}
