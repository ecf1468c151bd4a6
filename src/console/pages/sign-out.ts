// POST /sign-out: ends the session (the middleware checked Origin and token) and forgets the cookie.
import type { APIRoute } from 'astro';
import { sessionCookieName } from '../security.ts';

export const prerender = false;

export const POST: APIRoute = async ({ locals, cookies, redirect }) => {
  if (locals.signedIn) await locals.folio.accounts.signOut(locals.signedIn.session.id);
  cookies.delete(sessionCookieName(locals.folio.config), { path: '/' });
  return redirect('/sign-in', 303);
};
