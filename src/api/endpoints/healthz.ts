// GET /healthz: no key needed; 200 when the store is readable.
import type { APIRoute } from 'astro';
import { ApiError, errorResponse, jsonResponse } from '../http.ts';

export const prerender = false;

export const GET: APIRoute = async ({ locals }) => {
  const healthy = (await locals.folio?.store.isHealthy()) ?? false;
  return healthy ? jsonResponse(200, { status: 'ok' }) : jsonResponse(503, { status: 'unavailable' });
};

/** Any other method: 405 with `Allow`, as on /v1 (CONTRACT §3), not Astro's HTML 404. HEAD is GET without a body. */
export const ALL: APIRoute = (context) => {
  const { method } = context.request;
  if (method === 'HEAD') return GET(context);
  return errorResponse(new ApiError(405, 'method_not_allowed', `method ${method} is not allowed on /healthz; allowed: GET`, { allow: 'GET' }));
};
