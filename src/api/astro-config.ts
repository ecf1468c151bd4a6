// Astro configuration of the service role: the /v1 API as on-demand endpoints, built with Folio's
// own adapter (./adapter.ts) so src/server.ts routes by Host before it hands a request to Astro.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroUserConfig } from 'astro';
import type { Plugin } from 'vite';
import { folioAdapter } from './adapter.ts';
import { SERVICE_OUT_DIR } from './build-service.ts';
import { folioApi } from './integration.ts';
import { folioConsole } from '../console/integration.ts';

const SRC_DIR = fileURLToPath(new URL('../', import.meta.url));
const ENDPOINTS_DIR = fileURLToPath(new URL('./endpoints/', import.meta.url));

/**
 * One module graph (docs/architecture.md#one-composition-root): the bundle holds only the endpoint
 * files; every Folio module they import stays an import of the source file, which Node loads once
 * for the server and the endpoints alike.
 */
const importFromSource: Plugin = {
  name: 'folio-import-from-source',
  enforce: 'pre',
  apply: 'build',
  resolveId(id, importer) {
    // The console's browser scripts (src/console/client) are bundled for the browser as usual.
    if (this.environment?.config.consumer === 'client') return undefined;
    if (!importer || !id.startsWith('.')) return undefined;
    const file = path.resolve(path.dirname(importer), id);
    if (!file.startsWith(SRC_DIR) || file.startsWith(ENDPOINTS_DIR) || !file.endsWith('.ts')) return undefined;
    // A package import (package.json "imports"), so the built bundle finds the source wherever the checkout is.
    return { id: `#src/${path.relative(SRC_DIR, file).split(path.sep).join('/')}`, external: true };
  },
};

export function roleConfig(): AstroUserConfig {
  return {
    output: 'server',
    outDir: SERVICE_OUT_DIR,
    adapter: folioAdapter(),
    session: false,
    // A JSON API called with bearer keys: Content-Type is enforced per route. The console's forms
    // get their own, stricter Origin check (src/console/middleware.ts).
    security: { checkOrigin: false },
    integrations: [folioApi(), folioConsole()],
    // Only the matched route runs per request (src/api/fetch.ts), none of Astro's page features;
    // console requests add the console's middleware.
    fetchFile: 'api/fetch',
    // The console's styles and scripts stay files under /_astro: its Content-Security-Policy allows
    // no inline style or script (src/console/security.ts).
    build: { inlineStylesheets: 'never' },
    telemetry: false,
    vite: {
      plugins: [importFromSource],
      build: { assetsInlineLimit: (file: string) => (/\.([cm]?js|css)$/.test(file) ? false : undefined) },
    },
  } as AstroUserConfig;
}
