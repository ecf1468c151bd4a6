// Every console request passes here first (src/api/fetch.ts runs Astro's middleware for the
// console host only): security headers on every answer, the session from the cookie, and for
// every state-changing request the Origin check and the session's token (docs/decisions.md#console).
import type { MiddlewareHandler } from 'astro';
import { consoleOrigin } from '../service/accounts.ts';
import { isConsoleRoute, OWNER_ROUTES, PUBLIC_ROUTES } from './routes.ts';
import { CONSOLE_HEADERS, MAX_FORM_BYTES, sameToken, sessionCookieName, sessionCookieOptions } from './security.ts';
import { escapeHtml } from './html.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** A bare page for answers given before any console page renders. */
export function plainPage(status: number, title: string, message: string, headers: Record<string, string> = {}): Response {
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · Folio console</title></head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p><a href="/projects">Back to the console</a></p></main></body></html>`;
  return new Response(body, { status, headers: { 'content-type': 'text/html; charset=utf-8', ...headers } });
}

/** A console answer made outside its pages (src/server.ts): no such page, or a failure. */
export const consoleProblem = (status: 404 | 500) =>
  withHeaders(status === 404
    ? plainPage(404, 'Not found', 'There is no console page at this address.')
    : plainPage(500, 'Something went wrong', 'The console could not answer this request. Try again; the server log says why.'));

function withHeaders(response: Response): Response {
  for (const [name, value] of Object.entries(CONSOLE_HEADERS)) response.headers.set(name, value);
  // Signed-in pages must not be kept by a shared computer's cache or the back button after sign-out.
  if (!response.headers.has('cache-control')) response.headers.set('cache-control', 'no-store');
  return response;
}

const isForm = (type: string | null) => {
  const media = type?.split(';')[0].trim().toLowerCase();
  return media === 'application/x-www-form-urlencoded' || media === 'multipart/form-data';
};

export const onRequest: MiddlewareHandler = async (context, next) => {
  const { locals, request, routePattern } = context;
  // src/api/fetch.ts runs this middleware for the console host only; elsewhere console pages are 404.
  if (!locals.console) return next();
  if (!isConsoleRoute(routePattern)) return consoleProblem(404);
  const { folio } = locals;
  const config = folio.config;

  const cookieName = sessionCookieName(config);
  const secret = context.cookies.get(cookieName)?.value;
  const signedIn = secret ? await folio.accounts.session(secret) : undefined;
  locals.signedIn = signedIn;

  if (!SAFE_METHODS.has(request.method)) {
    // A browser names the page a request comes from; only the console's own pages may change
    // anything. A tenant's site is same-site (SameSite=Lax sends the cookie), never same-origin.
    if (request.headers.get('origin') !== consoleOrigin(config)) {
      return withHeaders(plainPage(403, 'Request refused', 'This request did not come from a console page (its Origin header does not match). Reload the page and try again.'));
    }
    if (!isForm(request.headers.get('content-type'))) {
      return withHeaders(plainPage(415, 'Unsupported form', 'Console forms are sent as application/x-www-form-urlencoded or multipart/form-data.'));
    }
    // Browsers send a form with its length; a body without one (chunked) could not be refused
    // before it is read, so it is not read at all.
    const length = request.headers.get('content-length');
    if (length === null) {
      return withHeaders(plainPage(411, 'Length required', 'Console forms are sent with a Content-Length header.'));
    }
    if (Number(length) > MAX_FORM_BYTES) {
      return withHeaders(plainPage(413, 'Too large', `A console form may hold at most ${MAX_FORM_BYTES} bytes.`));
    }
    locals.form = await request.formData();
    if (signedIn && !sameToken(locals.form.get('csrf') as string | null, signedIn.session.csrf_token)) {
      return withHeaders(plainPage(403, 'Request refused', 'This form is out of date (its security token does not match your session). Reload the page and try again.'));
    }
  }

  if (!signedIn && !PUBLIC_ROUTES.has(routePattern)) {
    if (secret) context.cookies.delete(cookieName, { path: '/' });
    return withHeaders(context.redirect('/sign-in', 303));
  }
  if (signedIn && OWNER_ROUTES.has(routePattern) && signedIn.role !== 'owner') {
    return withHeaders(plainPage(403, 'Owners only', `Only owners of ${signedIn.org.name} can open this page. Ask an owner for access.`));
  }
  if (signedIn && secret) context.cookies.set(cookieName, secret, sessionCookieOptions(config));
  return withHeaders(await next());
};
