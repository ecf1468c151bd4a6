// /robots.txt of the site (see site-files.ts).
import { robotsTxt } from '../site-files.ts';

export function GET(): Response {
  return new Response(robotsTxt(), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}
