// /robots.txt of the site (see machine-readable.ts).
import { robotsTxt } from '../machine-readable.ts';

export function GET(): Response {
  return new Response(robotsTxt(), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}
