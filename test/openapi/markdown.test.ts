// The fast paths of OpenAPI descriptions (src/site/openapi/markdown.ts): a string without GFM's
// trigger characters is rendered by CommonMark alone, and a plain line without a parser; both
// must give exactly GFM's HTML.
import { describe, expect, it } from 'vitest';
import { markdownToSafeHtml, mayUseGfm, plainLineHtml, renderMarkdown } from '../../src/site/openapi/markdown.ts';
import { seededRandom as random } from '../helpers/random.ts';

// Pieces of real descriptions: Markdown of every kind, GFM's own syntax, HTML, entities, edge cases.
const PIECES = [
  'Returns the item.', 'List **all** items', '_emphasis_', '`code span`', '``double `tick` code``', '[a link](/docs/)', '[ref][1]', '\n\n[1]: /x "T"',
  '<https://example.com>', 'https://example.com/path', 'www.example.com', 'mail me@example.com', 'mailto:me@example.com', 'xmpp:a@b.c',
  '| a | b |\n|---|---|\n| 1 | 2 |', 'a | b', '~~gone~~', '~one~', '- [ ] todo\n- [x] done', 'Note[^1]\n\n[^1]: The note.', '[x]',
  '\n\n', '\n', '  \n', '# Heading', '## Sub', '> quoted', '- one\n- two', '1. first\n2. second', '* star', '+ plus', '---', '***',
  '    indented code', '```\nfenced\n```', '```json\n{"a": 1}\n```', '<b>bold</b>', '<script>alert(1)</script>', '<img src=x onerror=alert(1)>',
  '&amp; &lt; &#35; &copy;', '\\*not emphasis\\*', 'a\\\nb', 'line  \nbreak', '*', '_', '`', '<', '>', '&', '"', "'", '(', ')', ']', '!', '#', '=',
  '![image](x.png)', '[javascript](javascript:alert(1))', 'HTTP://EXAMPLE.COM', 'WWW.EXAMPLE.COM', 'ftp://x.y', 'a:b', 'user @ host',
  'Defaults to `20`; at most 100.', 'Setext\n===', 'Setext\n---', '\t tab', 'é ü ß 日本', '😀', '1) paren', 'x* y*', '**', '__init__', 'snake_case_name',
];
const SEPARATORS = [' ', ' ', ' ', '', '\n', '\n\n', ', ', '. '];
// Descriptions of one plain line (and near misses), as most specs write them.
const LINE_PIECES = [
  'OK', 'Error', 'No content', 'Create items of resource 12', 'Supports `limit` and `cursor`', 'a `b c` d', 'x `y`z', 'The id (a UUID)', 'Max 20/page',
  'a - b', 'a = b + c', '50% off', 'Is it? Yes!', '1. not first', 'Z', 'A`b`', '` spaced `', 'a  b', '`', '-', '+', '=', ':', 'end ', '(', '/', '%',
];
const LINE_SEPARATORS = [' ', ', ', '. ', '', '  '];

function generated(count: number): string[] {
  const next = random(11);
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]!;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const parts = Math.floor(next() * 8) + 1;
    const line = i % 3 === 0;
    let text = '';
    for (let p = 0; p < parts; p++) text += (p ? pick(line ? LINE_SEPARATORS : SEPARATORS) : '') + pick(line ? LINE_PIECES : PIECES);
    out.push(text);
  }
  return out;
}

describe('OpenAPI descriptions without GFM syntax', () => {
  const strings = generated(800);

  it('render exactly as with GFM, with or without the cache', () => {
    const fast = strings.filter((s) => !mayUseGfm(s));
    // Both kinds are exercised: enough strings take the fast path, enough do not.
    expect(fast.length).toBeGreaterThan(200);
    expect(strings.length - fast.length).toBeGreaterThan(200);
    for (const text of fast) expect(renderMarkdown(text, false), JSON.stringify(text)).toBe(renderMarkdown(text, true));
    const plain = strings.filter((s) => plainLineHtml(s) !== undefined);
    expect(plain.length).toBeGreaterThan(50);
    for (const text of plain) expect(plainLineHtml(text), JSON.stringify(text)).toBe(renderMarkdown(text, true));
    for (const text of strings) {
      expect(markdownToSafeHtml(text), JSON.stringify(text)).toBe(renderMarkdown(text, true));
      expect(markdownToSafeHtml(text)).toBe(renderMarkdown(text, true)); // from the cache
    }
  });

  it('still get GFM where its syntax is', () => {
    expect(markdownToSafeHtml('| a | b |\n|---|---|\n| 1 | 2 |')).toContain('<table>');
    expect(markdownToSafeHtml('~~gone~~')).toBe('<p><del>gone</del></p>');
    expect(markdownToSafeHtml('see www.example.com')).toContain('<a href="http://www.example.com">');
    expect(markdownToSafeHtml('mail me@example.com')).toContain('<a href="mailto:me@example.com">');
    expect(markdownToSafeHtml('- [x] done')).toContain('type="checkbox"');
  });
});
