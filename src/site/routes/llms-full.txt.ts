// /llms-full.txt of the site (see site-files.ts).
import { llmsFullTxt } from '../site-files.ts';

export async function GET(): Promise<Response> {
  return new Response(await llmsFullTxt(), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}
