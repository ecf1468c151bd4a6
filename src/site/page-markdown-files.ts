// Each page's .md file in a build (docs/decisions.md#ai-ready-docs): the route page-markdown.json.ts
// lists every page's Markdown in PAGE_MARKDOWN_FILE (one endpoint render); once Astro is done, the
// integration writes each into `<page address>.md` and removes the list (build-lists.ts). The dev
// server answers the same files per request (routes/page.md.ts).
import { takeList, writeNewFile } from './build-lists.ts';

export const PAGE_MARKDOWN_FILE = '_folio/page-markdown.json';

/** `[page address (slug), its Markdown]` per page: `["guides/setup", "# Setup…"]` becomes guides/setup.md. */
export type PageMarkdownList = Array<[string, string]>;

/**
 * Writes the .md files the build listed into `outDir` and removes the list; returns the addresses
 * (`/guides/setup.md`) left out because a file is already there (a static file of the same name).
 */
export function writePageMarkdownFiles(outDir: string): string[] {
  const text = takeList(outDir, PAGE_MARKDOWN_FILE);
  if (text === undefined) return [];
  const taken: string[] = [];
  const made = new Set<string>();
  for (const [slug, markdown] of JSON.parse(text) as PageMarkdownList) {
    const segments = slug.split('/');
    segments.push(`${segments.pop()}.md`);
    if (!writeNewFile(outDir, segments, markdown, made)) taken.push(`/${slug}.md`);
  }
  return taken;
}
