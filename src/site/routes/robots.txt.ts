// /robots.txt of the site (see site-files.ts).
import { robotsTxt } from '../site-files.ts';

export async function GET(): Promise<Response> {
  return new Response(await robotsTxt(), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}
