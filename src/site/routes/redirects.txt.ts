// The list of old addresses to send on (src/site/redirects.ts); removed from the output once used.
import { pageHref } from '../page-rules.ts';
import { siteModel } from '../pages.ts';

export async function GET(): Promise<Response> {
  const { redirects } = await siteModel();
  return new Response(redirects.map((r) => `${pageHref(r.from)} ${pageHref(r.to)}\n`).join(''), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}
