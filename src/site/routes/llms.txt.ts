// /llms.txt of the site (see machine-readable.ts).
import { llmsTxt } from '../machine-readable.ts';

export async function GET(): Promise<Response> {
  return new Response(await llmsTxt(), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}
