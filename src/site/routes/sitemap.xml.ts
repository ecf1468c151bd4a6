// /sitemap.xml of the site (see site-files.ts).
import { sitemapXml } from '../site-files.ts';

export async function GET(): Promise<Response> {
  return new Response(await sitemapXml(), { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
}
