// The service's request pipeline (Astro's fetch file: https://docs.astro.build/en/guides/routing/#advanced-routing).
// Astro's default pipeline runs trailing-slash handling, redirects, sessions, actions, middleware,
// i18n and caching around every route; the API uses none of them (its own pipeline is
// src/api/pipeline.ts), so each request goes straight to its endpoint.
import type { Fetchable } from 'astro';
import { FetchState, pages } from 'astro/fetch';

export default {
  fetch: (request: Request) => pages(new FetchState(request)),
} satisfies Fetchable;
