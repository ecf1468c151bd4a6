// GET /healthz: no key needed; 200 when the store is readable and the data dir has room
// (FOLIO_MIN_FREE_MB), else 503 with the reason. In production the adapter calls these handlers
// itself (src/api/serve-astro.ts): they read only the context fields ServiceEndpoint lists.
import type { APIRoute } from 'astro';
import { errorResponse, FolioError, jsonResponse } from '../http.ts';
import type { ServiceEndpoint } from '../serve-astro.ts';

export const prerender = false;

export const GET = (async ({ locals }) => {
  const problem = await locals.folio.healthProblem();
  return problem === undefined ? jsonResponse(200, { status: 'ok' }) : jsonResponse(503, { status: 'unavailable', reason: problem });
}) satisfies ServiceEndpoint satisfies APIRoute;

/** Any other method: 405 with `Allow`, as on /v1 (docs/decisions.md#http-conventions), not Astro's HTML 404. HEAD is GET without a body. */
export const ALL = ((context) => {
  const { method } = context.request;
  if (method === 'HEAD') return GET(context);
  return errorResponse(new FolioError('method_not_allowed', `method ${method} is not allowed on /healthz; allowed: GET`, { allow: 'GET' }));
}) satisfies ServiceEndpoint satisfies APIRoute;
