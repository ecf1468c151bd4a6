// Folio's Astro adapter for the service role (https://docs.astro.build/en/reference/adapter-reference/).
// The built bundle's entry (./astro-entry.ts) exports Astro's App and nothing else: src/server.ts
// owns the node:http server and hands each request to the App itself (src/api/serve-astro.ts), with
// a lean conversion between node:http and Request/Response that does only what Folio needs.
import type { AstroIntegration } from 'astro';

export function folioAdapter(): AstroIntegration {
  return {
    name: 'folio-adapter',
    hooks: {
      'astro:config:done': ({ setAdapter }) => {
        setAdapter({
          name: 'folio-adapter',
          entrypointResolution: 'auto',
          serverEntrypoint: new URL('./astro-entry.ts', import.meta.url),
          adapterFeatures: { buildOutput: 'server' },
          supportedAstroFeatures: {
            serverOutput: 'stable',
            staticOutput: 'unsupported',
            hybridOutput: 'unsupported',
            sharpImageService: 'unsupported',
          },
        });
      },
    },
  };
}
