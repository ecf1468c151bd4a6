// One Astro project, two roles (see docs/architecture.md): FOLIO_ROLE=service builds the /v1 API
// server; anything else builds one content root into a static docs site.
import { defineConfig } from 'astro/config';

const role = process.env.FOLIO_ROLE === 'service' ? 'service' : 'site';
const { roleConfig } =
  role === 'service' ? await import('./src/api/astro-config.ts') : await import('./src/site/astro-config.ts');

export default defineConfig(await roleConfig());
