// The .md file of every page of a build, as one list (src/site/page-markdown-files.ts): written
// into files and removed once Astro is done, which costs a fraction of an endpoint render per page.
import { markdownPages, pageMarkdownFile } from '../machine-readable.ts';
import type { PageMarkdownList } from '../page-markdown-files.ts';

export async function GET(): Promise<Response> {
  const list: PageMarkdownList = [];
  for (const { slug, page } of await markdownPages()) list.push([slug, await pageMarkdownFile(page)]);
  return new Response(JSON.stringify(list), { headers: { 'Content-Type': 'application/json' } });
}
