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
const SEPARATOR_BYTES = Buffer.from(SECTION_SEPARATOR);
const NEWLINE = 0x0a;

/** The kept text and its sections' places, in the cache folder. */
const TEXT_FILE = 'llms-full.txt';
const SECTIONS_FILE = 'llms-full-sections.json';

/**
 * The sections' places: the text's length, and each page's key with its section's start and end,
 * in bytes of its UTF-8. In bytes because the text is spliced as bytes: a fast build reads the kept
 * text, writes the new one and hands it to Astro without decoding or encoding its tens of MB
 * (docs/decisions.md, "Astro's start and sync in a one-page build at 25k").
 */
interface SectionsIndex {
  length: number;
  pages: Array<[key: string, start: number, end: number]>;
}

/**
 * llms-full.txt of `title` and `sections` (each page's Markdown, trimmed; a kept one as a view of
 * the kept text's bytes), as pieces to write one after the other, with where each section is. Kept
 * sections with their separators are most of the text and lie one after the other in the kept
 * text: each run of them is one view of it, so a fast build's text is a few pieces and no copy.
 */
export function joinSections(title: string, keys: readonly string[], sections: ReadonlyArray<string | Buffer>): { pieces: Buffer[]; index: SectionsIndex } {
  const pieces: Buffer[] = [];
  let length = 0;
  const add = (bytes: Buffer) => {
    const last = pieces.at(-1);
    // Bytes right after the previous piece's, in the same memory: the same bytes as that piece extended.
    if (last && last.buffer === bytes.buffer && last.byteOffset + last.length === bytes.byteOffset) pieces[pieces.length - 1] = Buffer.from(last.buffer, last.byteOffset, last.length + bytes.length);
    else pieces.push(bytes);
    length += bytes.length;
  };
  const pages: SectionsIndex['pages'] = [];
  add(Buffer.from(title));
  for (let i = 0; i < sections.length; i++) {
    const section = sections[i]!;
    const bytes = typeof section === 'string' ? Buffer.from(section) : section;
    // A kept section has the separator right before it in the kept text (keptSections checked it): taken from there, its run goes on.
    const before = typeof section === 'string' || bytes.byteOffset < SEPARATOR_BYTES.length ? undefined : Buffer.from(bytes.buffer, bytes.byteOffset - SEPARATOR_BYTES.length, SEPARATOR_BYTES.length);
    add(before?.equals(SEPARATOR_BYTES) ? before : SEPARATOR_BYTES);
    pages.push([keys[i]!, length, length + bytes.length]);
    add(bytes);
  }
  add(Buffer.from('\n'));
  return { pieces, index: { length, pages } };
}

/**
 * The sections of the llms-full.txt kept in `dir`, by position, as views of its bytes, when it was
 * made of exactly the pages `keys` in this order under the title `title`; undefined for anything
 * else (none kept, a file of another shape, a page added, removed or moved, a place that is not a
 * section).
 */
export function keptSections(dir: string, title: string, keys: readonly string[]): Buffer[] | undefined {
  let text: Buffer;
  let index: SectionsIndex;
  try {
    text = fs.readFileSync(path.join(dir, TEXT_FILE));
    index = JSON.parse(fs.readFileSync(path.join(dir, SECTIONS_FILE), 'utf8')) as SectionsIndex;
  } catch {
    return undefined;
  }
  if (!index || typeof index !== 'object' || index.length !== text.length || !Array.isArray(index.pages) || index.pages.length !== keys.length) return undefined;
  const titleBytes = Buffer.from(title);
  if (!text.subarray(0, titleBytes.length).equals(titleBytes) || text.at(-1) !== NEWLINE) return undefined;
  const sections: Buffer[] = [];
  // Each section must follow the previous one (or the title) after exactly one separator, and the
  // last one end the text: the places then cut the text as joinSections made it, and nothing else.
  let end = titleBytes.length;
  for (let i = 0; i < keys.length; i++) {
    const entry = index.pages[i];
    if (!Array.isArray(entry) || entry[0] !== keys[i]) return undefined;
    const [, start, stop] = entry;
    if (start !== end + SEPARATOR_BYTES.length || !Number.isInteger(stop) || stop < start || stop > text.length - 1) return undefined;
    if (!text.subarray(end, start).equals(SEPARATOR_BYTES)) return undefined;
    sections.push(text.subarray(start, stop));
    end = stop;
  }
  return end === text.length - 1 ? sections : undefined;
}

/** Keeps the text of `pieces` and `index` in `dir` for the next build of the site, replacing what a carried cache held there. */
export function keepSections(dir: string, pieces: readonly Uint8Array[], index: SectionsIndex): void {
  fs.mkdirSync(dir, { recursive: true });
  const textFile = path.join(dir, TEXT_FILE);
  const sectionsFile = path.join(dir, SECTIONS_FILE);
  for (const file of [textFile, sectionsFile]) fs.rmSync(file, { force: true });
  // `wx`: whatever is at those names was just removed; nothing there is followed.
  const fd = fs.openSync(textFile, 'wx');
  try {
    for (const piece of pieces) {
      for (let written = 0; written < piece.length;) written += fs.writeSync(fd, piece, written);
    }
  } finally {
    fs.closeSync(fd);
  }
  fs.writeFileSync(sectionsFile, JSON.stringify(index), { flag: 'wx' });
}
