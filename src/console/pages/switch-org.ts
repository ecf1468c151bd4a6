// POST /switch-org: shows another organization of the signed-in user.
import type { APIRoute } from 'astro';
import { text } from '../forms.ts';

export const prerender = false;

export const POST: APIRoute = async ({ locals, redirect }) => {
  const { folio, signedIn, form } = locals;
  try {
    await folio.accounts.switchOrg(signedIn!, text(form, 'org_id') ?? '');
  } catch {
    return new Response('You are not a member of that organization.', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
  return redirect('/projects', 303);
};
