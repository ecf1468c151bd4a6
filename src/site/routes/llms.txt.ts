// /llms.txt of the site (see site-files.ts).
import { llmsTxt } from '../site-files.ts';

export async function GET(): Promise<Response> {
  return new Response(await llmsTxt(), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}
