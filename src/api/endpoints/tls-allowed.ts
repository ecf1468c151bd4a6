// GET /internal/tls-allowed?domain=…: the `ask` endpoint of a TLS proxy that issues certificates
// on demand (Caddy's on_demand_tls). 200 only for hosts Folio serves: an existing project's
// `{slug}.{service_domain}`, a verified custom domain, a live preview's `{label}--{slug}.{service_domain}`
// or an API host; 404 for any other (a preview label with no live build too), so no certificate is
// ever requested for a name Folio does not serve. No key: the proxy calls it.
import type { APIRoute } from 'astro';
import { formatIssues } from '../../service/errors.ts';
import { hostQuery } from '../../service/project-rules.ts';
import { errorResponse, FolioError, jsonResponse, toApiError } from '../http.ts';

export const prerender = false;

export const GET: APIRoute = async ({ url, locals }) => {
  try {
    const { folio } = locals;
    const parsed = hostQuery.safeParse(url.searchParams.get('domain') ?? undefined);
    if (!parsed.success) throw new FolioError('invalid_request', formatIssues(parsed.error));
    const domain = parsed.data;
    if (!(await folio.projects.tlsAllowed(domain))) {
      throw new FolioError('not_found', `${domain} is not served here: no project host, verified custom domain, live preview or API host has this name`);
    }
    return jsonResponse(200, { domain, allowed: true });
  } catch (err) {
    return errorResponse(toApiError(err));
  }
};

/** Any other method: 405 with `Allow`, as on /v1. HEAD is GET without a body. */
export const ALL: APIRoute = (context) => {
  const { method } = context.request;
  if (method === 'HEAD') return GET(context);
  return errorResponse(new FolioError('method_not_allowed', `method ${method} is not allowed on /internal/tls-allowed; allowed: GET`, { allow: 'GET' }));
};
