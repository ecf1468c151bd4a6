// Each page's .md file in a build (docs/decisions.md#ai-ready-docs): the route page-markdown.jsonl.ts
// lists every page's Markdown in PAGE_MARKDOWN_FILE (one endpoint render); once Astro is done, the
// integration writes each into `<page address>.md` and removes the list (build-lists.ts). The dev
// server answers the same files per request (routes/page.md.ts).
import { takeList, writeNewFile } from './build-lists.ts';

export const PAGE_MARKDOWN_FILE = '_folio/page-markdown.jsonl';

/**
 * One line per page: the JSON of `[page address (slug), its Markdown]`; `["guides/setup", "# Setup…"]`
 * becomes guides/setup.md. A line at a time, so that only one page's text is parsed at any time.
 */
export const pageMarkdownLine = (slug: string, markdown: string) => `${JSON.stringify([slug, markdown])}\n`;

/**
 * Writes the .md files the build listed into `outDir` and removes the list; returns the addresses
 * (`/guides/setup.md`) left out because a file is already there (a static file of the same name).
 */
export function writePageMarkdownFiles(outDir: string): string[] {
  const text = takeList(outDir, PAGE_MARKDOWN_FILE);
  if (text === undefined) return [];
  const taken: string[] = [];
  const made = new Set<string>();
  for (let start = 0, end = text.indexOf('\n'); end !== -1; start = end + 1, end = text.indexOf('\n', start)) {
    const [slug, markdown] = JSON.parse(text.slice(start, end)) as [string, string];
    const segments = slug.split('/');
    segments.push(`${segments.pop()}.md`);
    if (!writeNewFile(outDir, segments, markdown, made)) taken.push(`/${slug}.md`);
  }
  return taken;
}
