// The origins the site's API playground sends requests to (src/site/openapi/origins.ts): the
// hosting allows exactly these in the site's `connect-src`.
import { connectOrigins } from '../openapi/index.ts';
import { siteModel } from '../pages.ts';

export async function GET(): Promise<Response> {
  const { pages } = await siteModel();
  const operations = pages.flatMap((page) => (page.operation ? [page.operation] : []));
  return new Response(connectOrigins(operations).map((origin) => `${origin}\n`).join(''), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}
