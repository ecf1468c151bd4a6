// The entry of the built service bundle (dist/service/server/entry.mjs), set by src/api/adapter.ts:
// Astro's App, which src/server.ts hands requests to (src/api/serve-astro.ts).
import { createApp } from 'astro/app/entrypoint';

export const app = createApp();
