// Astro configuration of the service role: the /v1 API as on-demand endpoints, built for
// @astrojs/node in middleware mode so src/server.ts can route by Host before Astro sees a request.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import node from '@astrojs/node';
import type { AstroUserConfig } from 'astro';
import type { Plugin } from 'vite';
import { SERVICE_OUT_DIR } from './build-service.ts';
import { folioApi } from './integration.ts';

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
    // The adapter's own limit is a backstop; each route enforces its smaller limit while reading.
    adapter: node({ mode: 'middleware', bodySizeLimit: 16 * 1024 * 1024 }),
    session: false,
    // A JSON API called with bearer keys, not a form site: Content-Type is enforced per route.
    security: { checkOrigin: false },
    integrations: [folioApi()],
    // Only the endpoint runs per request (src/api/fetch.ts), none of Astro's page features.
    fetchFile: 'api/fetch',
    telemetry: false,
    vite: { plugins: [importFromSource] },
  } as AstroUserConfig;
}
