/**
 * OpenAPI reference pages (docs/decisions.md#openapi-reference-pages, docs/decisions.md#content-root rule 4).
 *
 * `loadOpenApiPages` runs once per build (pages.ts): one page model per visible operation, plus
 * the sidebar groups (one per tag in the document's order, untagged last). An invalid file throws
 * an `OpenApiError` naming the file and the location (file:line:column and a JSON pointer), which
 * fails the build. The catch-all route renders a model with `<OperationPage>` (it renders its own
 * <h1> with the method badge) and `operationHeadings` for the table of contents; llms-full.txt
 * uses `operationToMarkdown`. Page models are plain JSON.
 */
import type { LoadedDocument } from './load.ts';
import type { OperationGroup, OpenApiPages } from './model.ts';
import { buildOperationPages, UNTAGGED_GROUP } from './operations.ts';
import type { BuildOptions } from './operations.ts';
import { docsJsonSources, navigationSources, parseOperationReference, specLoader } from './sources.ts';
import type { DocsConfig } from '../config/docs-config.ts';

export { OpenApiError } from './errors.ts';
export { loadOpenApiDocument } from './load.ts';
export type { LoadedDocument } from './load.ts';
export { markdownToSafeHtml } from './markdown.ts';
export { operationHeadings } from './headings.ts';
export type { OperationHeading } from './headings.ts';
export { buildOperationPages, DEFAULT_DIRECTORY, findOperations, mintlifyPath, operationKey, UNTAGGED_GROUP, urlPart } from './operations.ts';
export { operationToMarkdown } from './to-markdown.ts';
export type { BuildOptions, PlaygroundDisplay } from './operations.ts';
export { discoverSpecFiles, docsJsonSources, findReferencedSpec, navigationSources, openApiSource, parseOperationReference, specLoader, unreadableReference } from './sources.ts';
export type { OpenApiSource, OperationReference } from './sources.ts';
export { connectOrigins } from './origins.ts';
export type * from './model.ts';

/**
 * Loads and validates the OpenAPI file(s) and returns one page model per visible operation plus
 * the sidebar groups. Page paths are unique across files; groups of the same tag in several files
 * are merged, in order of first appearance, untagged last. `warnings` are lines for the build log.
 */
export async function loadOpenApiPages(
  contentRoot: string,
  openapi: string | string[],
  options: BuildOptions,
  load: (file: string) => Promise<LoadedDocument> = specLoader(contentRoot),
  taken = new Set<string>(),
): Promise<OpenApiPages & { warnings: string[] }> {
  const result: OpenApiPages & { warnings: string[] } = { pages: [], groups: [], warnings: [] };
  for (const openapiPath of Array.isArray(openapi) ? openapi : [openapi]) {
    const { document, refNames, file, warnings } = await load(openapiPath);
    result.warnings.push(...warnings);
    const { pages, groups } = buildOperationPages(document, refNames, { ...options, file }, taken);
    result.pages.push(...pages);
    mergeGroups(result.groups, groups);
  }
  // Untagged operations stay last, whichever file they came from.
  const untagged = options.untaggedGroup ?? UNTAGGED_GROUP;
  result.groups.sort((a, b) => Number(a.label === untagged) - Number(b.label === untagged));
  return result;
}

function mergeGroups(into: OperationGroup[], groups: OperationGroup[]): void {
  for (const group of groups) {
    const existing = into.find((candidate) => candidate.label === group.label);
    if (existing) existing.items.push(...group.items);
    else into.push(group);
  }
}

/**
 * The operations a navigation entry with `openapi` lists for `file` (`"GET /users"` among its
 * pages), as operation keys; undefined when it lists none: the entry then gets every operation.
 */
export function listedOperations(entry: Record<string, unknown>, file: string): string[] | undefined {
  const listed = (Array.isArray(entry.pages) ? entry.pages : []).flatMap((item) => (typeof item === 'string' ? [parseOperationReference(item)] : [])).filter((r) => r !== undefined);
  return listed.length ? listed.filter((r) => !r.file || r.file === file).map((r) => r.key) : undefined;
}

/**
 * The paths of the pages a build generates from the OpenAPI files docs.json names (its `openapi`
 * and `api.openapi`, and navigation entries with `openapi`), in the order and by the rules the
 * build's pages.ts gives them. The one list of those addresses that `folio broken-links` and a
 * deployment's link check (check.ts, in its own process) both use. Throws as loading a file does.
 */
export async function generatedPagePaths(contentRoot: string, config: DocsConfig, load: (file: string) => Promise<LoadedDocument> = specLoader(contentRoot)): Promise<string[]> {
  const taken = new Set<string>();
  const paths: string[] = [];
  for (const source of docsJsonSources(config)) paths.push(...(await loadOpenApiPages(contentRoot, source.files, { prefix: source.directory }, load, taken)).pages.map((p) => p.path));
  for (const { entry, source } of navigationSources(config)) {
    for (const file of source.files) {
      const { document, refNames, file: shown } = await load(file);
      const only = listedOperations(entry, file);
      paths.push(...buildOperationPages(document, refNames, { prefix: source.directory, file: shown, ...(only ? { only } : {}) }, taken).pages.map((p) => p.path));
    }
  }
  return paths;
}
