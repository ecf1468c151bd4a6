// llms-full.txt kept with the places of its sections (src/site/llms-full-sections.ts): a fast
// redeploy's build takes the unchanged pages' sections from it only when everything fits (the same
// title, the same pages in the same order, each place a section between separators); any other
// kept file (missing, its index wrong, pages added or moved) gives nothing, and every page is
// converted. Real files in a temporary folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { joinSections, keepSections, keptSections } from '../../src/site/llms-full-sections.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const tmp = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-llms-'));
  dirs.push(dir);
  return path.join(dir, 'folio-llms');
};

const title = '# Docs';
const keys = ['index', 'guide', 'guides/ünï'];
const sections = ['# Home\n\nWelcome.', '# Guide\n\n---\n\nA rule inside, and café 🦓.', ''];
/** The text joinSections makes, in one piece. */
const textOf = (joined: { pieces: Buffer[] }) => Buffer.concat(joined.pieces);
/** The kept sections as text (keptSections gives views of the kept bytes). */
const keptText = (dir: string, pageTitle: string, pageKeys: readonly string[]) => keptSections(dir, pageTitle, pageKeys)?.map((section) => section.toString());

describe('the kept llms-full.txt', () => {
  it('gives back each section of the text it was made of, which is llms-full.txt as a full build writes it', () => {
    const dir = tmp();
    const { pieces, index } = joinSections(title, keys, sections);
    expect(textOf({ pieces }).toString()).toBe(`${[title, ...sections].join('\n\n---\n\n')}\n`);
    keepSections(dir, pieces, index);
    expect(keptText(dir, title, keys)).toEqual(sections);
    // Kept again over the previous files (a carried cache holds them).
    // A fast build's text: the kept sections' bytes, one page converted again.
    const kept = keptSections(dir, title, keys)!;
    const next = joinSections(title, keys, [kept[0]!, 'changed 🦓', kept[2]!]);
    expect(textOf(next).toString()).toBe(`${[title, sections[0], 'changed 🦓', sections[2]].join('\n\n---\n\n')}\n`);
    keepSections(dir, next.pieces, next.index);
    expect(keptText(dir, title, keys)).toEqual([sections[0], 'changed 🦓', sections[2]]);
  });

  it('gives nothing when anything does not fit: files missing, another title, pages added or moved, an index that is wrong', () => {
    const dir = tmp();
    expect(keptSections(dir, title, keys)).toBeUndefined();
    const { pieces, index } = joinSections(title, keys, sections);
    const text = textOf({ pieces });
    keepSections(dir, pieces, index);
    expect(keptSections(dir, '# Other', keys)).toBeUndefined();
    expect(keptSections(dir, title, [...keys, 'new'])).toBeUndefined();
    expect(keptSections(dir, title, [keys[1]!, keys[0]!, keys[2]!])).toBeUndefined();
    const wrong = (change: (pages: Array<[string, number, number]>) => void, length = index.length) => {
      const pages = index.pages.map((p) => [...p] as [string, number, number]);
      change(pages);
      keepSections(dir, [text], { length, pages });
      return keptSections(dir, title, keys);
    };
    expect(wrong(() => undefined, index.length + 1)).toBeUndefined();
    expect(wrong((pages) => (pages[1]![2] -= 1))).toBeUndefined();
    expect(wrong((pages) => (pages[1]![1] += 1))).toBeUndefined();
    expect(wrong((pages) => (pages[2]![2] = 1e9))).toBeUndefined();
    expect(wrong((pages) => pages.pop())).toBeUndefined();
    fs.writeFileSync(path.join(dir, 'llms-full-sections.json'), 'not json');
    expect(keptSections(dir, title, keys)).toBeUndefined();
    // The text changed under a right index (a section longer by one byte).
    keepSections(dir, [Buffer.from(text.toString().replace('Welcome.', 'Welcome!!'))], index);
    expect(keptSections(dir, title, keys)).toBeUndefined();
  });
});
