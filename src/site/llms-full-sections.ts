// llms-full.txt kept in the build's Astro cache with where each page's section is, so that a fast
// redeploy's build (which carries the previous build's cache, src/builder/build-cache.ts) converts
// only its changed pages to Markdown and takes every other section from the previous text
// (docs/decisions.md, "A fast redeploy's content sync reads only the changed pages"). The kept
// files are the previous build's output of the same site, read inside the sandboxed build only:
// the server never reads them. Anything that does not fit exactly is doubt: every page is converted.
import fs from 'node:fs';
import path from 'node:path';

/** Between the title and each page's section in llms-full.txt. */
export const SECTION_SEPARATOR = '\n\n---\n\n';

/** The kept text and its sections' places, in the cache folder. */
const TEXT_FILE = 'llms-full.txt';
const SECTIONS_FILE = 'llms-full-sections.json';

/** The sections' places: the text's length, and each page's key with its section's start and end (string offsets). */
interface SectionsIndex {
  length: number;
  pages: Array<[key: string, start: number, end: number]>;
}

/** llms-full.txt of `title` and `sections` (each page's Markdown, trimmed), with where each section is. */
export function joinSections(title: string, keys: readonly string[], sections: readonly string[]): { text: string; index: SectionsIndex } {
  const pages: SectionsIndex['pages'] = [];
  let at = title.length;
  for (let i = 0; i < sections.length; i++) {
    at += SECTION_SEPARATOR.length;
    pages.push([keys[i]!, at, at + sections[i]!.length]);
    at += sections[i]!.length;
  }
  const text = `${[title, ...sections].join(SECTION_SEPARATOR)}\n`;
  return { text, index: { length: text.length, pages } };
}

/**
 * The sections of the llms-full.txt kept in `dir`, by position, when it was made of exactly the
 * pages `keys` in this order under the title `title`; undefined for anything else (none kept, a
 * file of another shape, a page added, removed or moved, a place that is not a section).
 */
export function keptSections(dir: string, title: string, keys: readonly string[]): string[] | undefined {
  let text: string;
  let index: SectionsIndex;
  try {
    text = fs.readFileSync(path.join(dir, TEXT_FILE), 'utf8');
    index = JSON.parse(fs.readFileSync(path.join(dir, SECTIONS_FILE), 'utf8')) as SectionsIndex;
  } catch {
    return undefined;
  }
  if (!index || typeof index !== 'object' || index.length !== text.length || !Array.isArray(index.pages) || index.pages.length !== keys.length) return undefined;
  if (!text.startsWith(title) || !text.endsWith('\n')) return undefined;
  const sections: string[] = [];
  // Each section must follow the previous one (or the title) after exactly one separator, and the
  // last one end the text: the places then cut the text as joinSections made it, and nothing else.
  let end = title.length;
  for (let i = 0; i < keys.length; i++) {
    const entry = index.pages[i];
    if (!Array.isArray(entry) || entry[0] !== keys[i]) return undefined;
    const [, start, stop] = entry;
    if (start !== end + SECTION_SEPARATOR.length || !Number.isInteger(stop) || stop < start || stop > text.length - 1) return undefined;
    if (text.slice(end, start) !== SECTION_SEPARATOR) return undefined;
    sections.push(text.slice(start, stop));
    end = stop;
  }
  return end === text.length - 1 ? sections : undefined;
}

/** Keeps `text` and `index` in `dir` for the next build of the site, replacing what a carried cache held there. */
export function keepSections(dir: string, text: string, index: SectionsIndex): void {
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, content] of [[TEXT_FILE, text], [SECTIONS_FILE, JSON.stringify(index)]] as const) {
    const file = path.join(dir, name);
    fs.rmSync(file, { force: true });
    // `wx`: whatever is at that name was just removed; nothing there is followed.
    fs.writeFileSync(file, content, { flag: 'wx' });
  }
}
