// /sitemap.xml of the site (see machine-readable.ts).
import { sitemapXml } from '../machine-readable.ts';

export async function GET(): Promise<Response> {
  return new Response(await sitemapXml(), { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
}
