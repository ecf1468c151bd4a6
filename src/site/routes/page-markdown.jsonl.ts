// The .md file of every page of a build, as one list (src/site/page-markdown-files.ts): written
// into files and removed once Astro is done, which costs a fraction of an endpoint render per page.
import { markdownPages, pageMarkdownFile } from '../machine-readable.ts';
import { pageMarkdownLine } from '../page-markdown-files.ts';

export async function GET(): Promise<Response> {
  const lines: string[] = [];
  for (const { slug, page } of await markdownPages()) lines.push(pageMarkdownLine(slug, await pageMarkdownFile(page)));
  return new Response(lines.join(''), { headers: { 'Content-Type': 'application/jsonl; charset=utf-8' } });
}
