// The one request pipeline of the /v1 API: identify → rate limit → authenticate → route → scope →
// body → handler → JSON response, with the rate-limit headers on every answer.
import type { Folio, Principal } from '../service/folio.ts';
import type { RateLimitDecision } from '../service/rate-limiter.ts';
import { errorResponse, FolioError, jsonResponse, readJsonObject, readOptionalJsonObject, toApiError, type ApiRequest } from './http.ts';
import type { Match } from './router.ts';

export interface PipelineDeps {
  folio: Folio;
  match: (method: string, pathname: string) => Match;
}

function bearerToken(header: string | null): string | undefined {
  if (!header) return undefined;
  const space = header.indexOf(' ');
  if (space < 0 || header.slice(0, space).toLowerCase() !== 'bearer') return undefined;
  return header.slice(space + 1).trim();
}

function unauthorized(header: string | null): FolioError {
  const message = !header
    ? 'Authorization header is missing: send "Authorization: Bearer <API key>"'
    : bearerToken(header) === undefined
      ? 'Authorization header must use the Bearer scheme: "Authorization: Bearer <API key>"'
      : 'Authorization header carries an unknown or revoked API key';
  return new FolioError('unauthorized', message, { 'www-authenticate': 'Bearer' });
}

function rateLimitHeaders(d: RateLimitDecision): Record<string, string> {
  return {
    'x-ratelimit-limit': String(d.limit),
    'x-ratelimit-remaining': String(d.remaining),
    'x-ratelimit-reset': String(d.reset),
  };
}

// CORS (docs/decisions.md#cors): origins listed in FOLIO_CORS_ORIGINS (docs sites whose API
// playground calls this API from readers' browsers) get their preflights answered and may read
// answers and the rate-limit headers. Keys travel in `Authorization`, never in cookies, so no
// credentials mode is allowed. Other origins get no CORS headers, so browsers keep their pages out.
const CORS_EXPOSED = 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, WWW-Authenticate, Allow';
const CORS_METHODS = 'GET, POST, PUT, PATCH, DELETE';
const CORS_HEADERS = 'Authorization, Content-Type';
const CORS_MAX_AGE_S = '600';

/** Handles one /v1 request. `clientIp` counts requests that carry no valid key. */
export async function handleApiRequest(deps: PipelineDeps, request: ApiRequest, url: URL, clientIp: string): Promise<Response> {
  const allowed = deps.folio.config.corsOrigins ?? [];
  const origin = request.headers.get('origin');
  const listed = origin !== null && allowed.includes(origin);
  if (listed && request.method === 'OPTIONS' && request.headers.get('access-control-request-method')) {
    return new Response(null, {
      status: 204,
      headers: {
        'access-control-allow-origin': origin,
        'access-control-allow-methods': CORS_METHODS,
        'access-control-allow-headers': CORS_HEADERS,
        'access-control-max-age': CORS_MAX_AGE_S,
        vary: 'Origin',
      },
    });
  }
  const response = await handleApiRequestInner(deps, request, url, clientIp);
  if (allowed.length > 0) appendVary(response, 'Origin');
  if (listed) {
    response.headers.set('access-control-allow-origin', origin);
    response.headers.set('access-control-expose-headers', CORS_EXPOSED);
  }
  return response;
}

function appendVary(response: Response, name: string): void {
  const vary = response.headers.get('vary');
  if (!vary) response.headers.set('vary', name);
  else if (!vary.split(',').some((part) => part.trim().toLowerCase() === name.toLowerCase())) response.headers.set('vary', `${vary}, ${name}`);
}

async function handleApiRequestInner(deps: PipelineDeps, request: ApiRequest, url: URL, clientIp: string): Promise<Response> {
  const { folio } = deps;
  const authorization = request.headers.get('authorization');
  const token = bearerToken(authorization);
  let principal: Principal | undefined;
  let limit: RateLimitDecision | undefined;
  try {
    ({ principal, limit } = await folio.admit(token, clientIp));
    if (!limit.allowed) {
      throw new FolioError('rate_limited', `rate limit of ${limit.limit} requests per minute exceeded: retry after ${limit.retryAfter} s`, {
        'retry-after': String(limit.retryAfter),
      });
    }
    const match = deps.match(request.method, url.pathname);
    const isPublic = match.kind === 'found' && match.route.scope === null;
    if (!principal && !isPublic) throw unauthorized(authorization);
    if (match.kind === 'none') throw new FolioError('not_found', `no API route ${request.method} ${url.pathname}`);
    if (match.kind === 'wrong_method') {
      throw new FolioError('method_not_allowed', `method ${request.method} is not allowed on ${url.pathname}; allowed: ${match.allow.join(', ')}`, {
        allow: match.allow.join(', '),
      });
    }
    const { route, params } = match;
    if (route.scope && !principal!.scopes.includes(route.scope)) {
      throw new FolioError('insufficient_scope', `this API key lacks the scope ${route.scope} needed for ${route.method} ${route.path}`);
    }
    const body = !route.body ? {} : route.body.optional ? ((await readOptionalJsonObject(request, route.body.maxBytes)) ?? {}) : await readJsonObject(request, route.body.maxBytes);
    const result = await route.handler({ folio, principal: principal!, params, query: url.searchParams, body, request });
    const headers = rateLimitHeaders(limit);
    if (result instanceof Response) {
      for (const [name, value] of Object.entries(headers)) result.headers.set(name, value);
      return result;
    }
    if (result.body === undefined) return new Response(null, { status: result.status, headers });
    return jsonResponse(result.status, result.body, headers);
  } catch (err) {
    return errorResponse(toApiError(err), limit ? rateLimitHeaders(limit) : {});
  }
}
