// POST /hooks/git/{project_id}: push deliveries from a git host (GitHub, GitLab, or any sender of
// `{ref, after}` signed like GitHub). Outside /v1 and without an API key: the signature over the
// raw body (or GitLab's token) is the only credential (docs/decisions.md#continuous-deployment).
import type { APIRoute } from 'astro';
import { errorResponse, FolioError, jsonResponse, readLimited, toApiError } from '../http.ts';

export const prerender = false;

/** Push payloads are small; GitHub caps them at 25 MB, but one this large carries nothing Folio reads. */
export const MAX_BODY_BYTES = 1024 * 1024;

export const POST: APIRoute = async ({ request, params, locals }) => {
  try {
    const { folio } = locals;
    if (!folio) throw new Error('the push webhook runs only under src/server.ts (npm start)');
    const body = await readLimited(request, MAX_BODY_BYTES);
    const outcome = await folio.deployments.receivePush(params.project_id ?? '', (name) => request.headers.get(name), body);
    switch (outcome.status) {
      case 'unauthorized':
        throw new FolioError('unauthorized', 'the delivery is not signed with this project\'s webhook secret: X-Hub-Signature-256 (HMAC-SHA256 of the body) or X-Gitlab-Token is missing or wrong');
      case 'rate_limited':
        throw new FolioError('rate_limited', `too many deliveries for this project: retry after ${outcome.retryAfter} s`, { 'retry-after': String(outcome.retryAfter) });
      case 'invalid':
        throw new FolioError('invalid_request', outcome.reason);
      default:
        return jsonResponse(202, outcome);
    }
  } catch (err) {
    return errorResponse(toApiError(err));
  }
};

/** Any other method: 405 with `Allow`, as on /v1. */
export const ALL: APIRoute = ({ request }) =>
  errorResponse(new FolioError('method_not_allowed', `method ${request.method} is not allowed on /hooks/git/{project_id}; allowed: POST`, { allow: 'POST' }));
