// GET /healthz: no key needed; 200 when the store is readable.
import type { APIRoute } from 'astro';
import { jsonResponse } from '../http.ts';

export const prerender = false;

export const GET: APIRoute = async ({ locals }) => {
  const healthy = (await locals.folio?.store.isHealthy()) ?? false;
  return healthy ? jsonResponse(200, { status: 'ok' }) : jsonResponse(503, { status: 'unavailable' });
};
