// /{page}.md on the dev server: each page the search lists as clean Markdown (see machine-readable.ts),
// for AI tools and readers who want the text (docs/decisions.md#ai-ready-docs). A build writes the
// same files from one list instead (page-markdown.jsonl.ts).
import { markdownPages, pageMarkdownFile } from '../machine-readable.ts';
import { siteModel, type SitePage } from '../pages.ts';

export async function getStaticPaths() {
  return (await markdownPages()).map(({ slug, page }) => ({ params: { slug }, props: { path: page.path } }));
}

export async function GET({ props }: { props: { path: string } }): Promise<Response> {
  const page = (await siteModel()).byPath.get(props.path) as SitePage;
  return new Response(await pageMarkdownFile(page), { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
}
