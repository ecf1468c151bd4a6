// /{page}.md: each page the search lists as clean Markdown (see machine-readable.ts), for AI tools
// and readers who want the text (docs/decisions.md#ai-ready-docs).
import { markdownPages, pageMarkdownFile } from '../machine-readable.ts';
import { siteModel, type SitePage } from '../pages.ts';
import { pageSlug } from '../page-rules.ts';
import { siteBuild } from '../build-settings.ts';

export async function getStaticPaths() {
  // A fast redeploy renders only its changed pages; the others' .md files come with the previous build.
  const only = siteBuild.onlyPages && new Set(siteBuild.onlyPages);
  return (await markdownPages()).filter((page) => !only || (page.kind === 'content' && only.has(page.path))).map((page) => ({ params: { slug: pageSlug(page.path) ?? 'index' }, props: { path: page.path } }));
}

export async function GET({ props }: { props: { path: string } }): Promise<Response> {
  const page = (await siteModel()).byPath.get(props.path) as SitePage;
  return new Response(await pageMarkdownFile(page), { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
}
