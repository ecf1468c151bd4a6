// /llms-full.txt of the site (see machine-readable.ts).
import { llmsFullTxt } from '../machine-readable.ts';

export async function GET(): Promise<Response> {
  return new Response(await llmsFullTxt(), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}
