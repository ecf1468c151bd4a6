/**
 * OpenAPI reference pages (CONTRACT §11, spec 2.4 rule 4).
 *
 * How the site build plugs them in:
 *
 * 1. When `docs.json` has `openapi` (a path inside the content root), call once at build time
 *      const { pages, groups } = await loadOpenApiPages(contentRoot, docs.openapi, { prefix: 'api-reference' });
 *    (`docs.openapi` may be one path or a list of paths, all relative to the content root.)
 *    It throws an `OpenApiError` whose message names the file and the location of the problem
 *    (file:line:column and a JSON pointer): let it fail the build as it is.
 * 2. The catch-all route adds one entry per page to `getStaticPaths()` with `params` from
 *    `page.path` and props `{ kind: 'openapi', operation: page }`, and renders
 *      <OperationPage operation={page} />   (import OperationPage from 'src/site/openapi/OperationPage.astro')
 *    inside the normal docs layout (title = `page.title`, description = `page.summary`,
 *    headings = `operationHeadings(page)` for the table of contents). The component renders its
 *    own <h1> (the title with the ApiMethod badge beside it), so the route must not add another.
 *    Page models are plain JSON, so they can be passed as props or cached between builds.
 * 3. The sidebar appends `groups` (one per tag in the document's order, untagged last as "Other");
 *    each item has `path`, `title`, `method` (for a small badge) and `deprecated`.
 * 4. Search and sitemap need nothing: the pages are real HTML pages. `llms.txt` lists them like
 *    other pages; for its full-text variant use `operationToMarkdown(page)`.
 */
import { loadOpenApiDocument } from './load.ts';
import type { OpenApiPages } from './model.ts';
import { buildOperationPages, UNTAGGED_GROUP } from './operations.ts';
import type { BuildOptions } from './operations.ts';

export { OpenApiError } from './errors.ts';
export { loadOpenApiDocument } from './load.ts';
export { markdownToSafeHtml } from './markdown.ts';
export { operationHeadings } from './headings.ts';
export type { OperationHeading } from './headings.ts';
export { buildOperationPages, UNTAGGED_GROUP } from './operations.ts';
export { operationToMarkdown } from './to-markdown.ts';
export type { BuildOptions } from './operations.ts';
export type * from './model.ts';

/**
 * Loads and validates the OpenAPI file(s) (docs.json `openapi`: one path or a list) and returns one
 * page model per visible operation plus the sidebar groups. Page paths are unique across files;
 * groups of the same tag in several files are merged, in order of first appearance, untagged last.
 */
export async function loadOpenApiPages(contentRoot: string, openapi: string | string[], options: BuildOptions): Promise<OpenApiPages> {
  const taken = new Set<string>();
  const result: OpenApiPages = { pages: [], groups: [] };
  for (const openapiPath of Array.isArray(openapi) ? openapi : [openapi]) {
    const { document, refNames } = await loadOpenApiDocument(contentRoot, openapiPath);
    const { pages, groups } = buildOperationPages(document, refNames, options, taken);
    result.pages.push(...pages);
    for (const group of groups) {
      const existing = result.groups.find((candidate) => candidate.label === group.label);
      if (existing) existing.items.push(...group.items);
      else result.groups.push(group);
    }
  }
  // Untagged operations stay last, whichever file they came from.
  const untagged = options.untaggedGroup ?? UNTAGGED_GROUP;
  result.groups.sort((a, b) => Number(a.label === untagged) - Number(b.label === untagged));
  return result;
}
