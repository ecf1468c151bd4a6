// Markdown for every page (docs/decisions.md#ai-ready-docs): the components fixture, which uses every
// component, plus hidden, noindex and snippet pages, is built for real; each page's .md file must be
// clean Markdown (no JSX, HTML, imports or expressions left), llms.txt links to the .md files, hidden
// and noindex pages get none, and the site answers a page's own address with its Markdown to a
// client that asks for text/markdown.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPONENT_NAMES } from '../../src/site/components/catalog.ts';
import { leftoverTags } from '../../src/site/markdown/leftover-tags.ts';
import { buildFixture, listFiles, serveWithFolio, type BuiltSite } from './helpers.ts';

const FIXTURE = path.resolve('test/fixtures/components');

/** The fixture's files, plus pages that test what the components fixture does not. */
function files(): Record<string, string> {
  const all: Record<string, string> = {};
  for (const rel of listFiles(FIXTURE)) all[rel] = fs.readFileSync(path.join(FIXTURE, rel), 'utf8');
  Object.assign(all, {
    'content/hidden.mdx': '---\ntitle: Hidden page\nhidden: true\n---\n\nHIDDEN-TEXT-4b1c\n',
    'content/unindexed.mdx': '---\ntitle: Unindexed page\nnoindex: true\n---\n\nNOINDEX-TEXT-93de\n',
    'content/reused.mdx': '---\ntitle: Reused text\ndescription: A page made of a snippet.\n---\n\n<Snippet file="_snippets/greeting.mdx" vars={{ who: "Grace" }} />\n\nCreate one with <ApiMethod method="post" />.\n',
    '_snippets/greeting.mdx': 'Hello **{who}**.\n\n<Tip>Tips come along.</Tip>\n',
    'content/plain.md': '---\ntitle: Plain Markdown\n---\n\nSome <b>raw</b> HTML and <span class="x">a span</span>.\n\n<div align="center">\n\nCentered text.\n\n</div>\n',
  });
  return all;
}

/** Every leftover tag (leftover-tags.ts: what a Markdown reader takes for HTML) or MDX comment, import or export outside code. */
function leftovers(markdown: string): string[] {
  const prose = markdown.replace(/^[ \t>]*(`{3,}|~{3,})[^\n]*\n[\s\S]*?^[ \t>]*\1[^\n]*$/gm, '').replace(/(`+)[^`\n]*?\1/g, '');
  return [...leftoverTags(markdown).map((t) => t.tag), ...[...prose.matchAll(/\{\/\*|^(?:import|export) .*$/gm)].map((m) => m[0])];
}

let site: BuiltSite;
let mdFiles: string[];
beforeAll(async () => {
  site = await buildFixture(files(), { siteUrl: 'https://docs.example.com' });
  expect(site.result.error).toBeUndefined();
  mdFiles = listFiles(site.out).filter((f) => f.endsWith('.md') && !f.startsWith('_folio/'));
}, 240_000);

describe('a .md file per page', () => {
  it('covers a fixture that uses every component', () => {
    const sources = listFiles(path.join(FIXTURE, 'content')).map((f) => fs.readFileSync(path.join(FIXTURE, 'content', f), 'utf8')).join('\n') + files()['content/reused.mdx'];
    const missing = COMPONENT_NAMES.filter((name) => !sources.includes(`<${name}`));
    expect(missing).toEqual([]);
  });

  it('is written for each listed page, and none for hidden or noindex pages', () => {
    expect(mdFiles.sort()).toEqual(['api.md', 'index.md', 'layout.md', 'more.md', 'plain.md', 'reused.md']);
  });

  it('has no JSX, HTML, imports or expressions left', () => {
    for (const file of mdFiles) expect(leftovers(site.read(file)), file).toEqual([]);
    // Prop text that looks like HTML stays text (escaped), never a tag in a Markdown reader.
    expect(site.read('more.md')).toContain('#### \\<img src=x onerror=alert(1)\\> & co');
  });

  it('turns components into readable Markdown: callouts quoted, tabs headed, cards as links, fields as lists, snippets inlined', () => {
    const all = mdFiles.map((f) => site.read(f)).join('\n');
    expect(all).toMatch(/^> \*\*Note:\*\* /m);
    expect(all).toMatch(/^#### \S/m);
    expect(all).toMatch(/\*\*\[[^\]]+\]\([^)]+\)\*\*/);
    expect(all).toMatch(/^- \*\*\w+\*\* \(`/m);
    const reused = site.read('reused.md');
    expect(reused).toBe('# Reused text\n\n> A page made of a snippet.\n\nSource: https://docs.example.com/reused/\n\nHello **Grace**.\n\n> **Tip:** Tips come along.\n\nCreate one with `POST`.\n');
    expect(site.read('plain.md')).toContain('Some raw HTML and a span.\n\nCentered text.');
  });

  it('is what llms.txt links to, and llms-full.txt holds the same Markdown', () => {
    const llms = site.read('llms.txt');
    expect(llms).toContain('- [Reused text](https://docs.example.com/reused.md): A page made of a snippet.');
    expect(llms).toContain('(https://docs.example.com/index.md)');
    expect(llms).not.toMatch(/hidden|unindexed/);
    const full = site.read('llms-full.txt');
    expect(full).toContain(site.read('reused.md').trim());
    expect(full).not.toMatch(/HIDDEN-TEXT|NOINDEX-TEXT/);
    expect(leftovers(full)).toEqual([]);
  });
});

describe('serving', () => {
  let served: Awaited<ReturnType<typeof serveWithFolio>>;
  beforeAll(async () => {
    served = await serveWithFolio(site.out);
  });
  afterAll(() => served?.close());

  it('answers /{page}.md as text/markdown, compressed like the other text files', async () => {
    const res = await fetch(`${served.url}/layout.md`, { headers: { 'accept-encoding': 'br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(await res.text()).toBe(site.read('layout.md'));
  });

  it('answers a page\'s own address with its Markdown when asked for text/markdown, and with HTML otherwise', async () => {
    for (const [address, file] of [['/reused/', 'reused.md'], ['/reused', 'reused.md'], ['/', 'index.md']]) {
      const md = await fetch(`${served.url}${address}`, { headers: { accept: 'text/markdown, text/html;q=0.5' } });
      expect(md.headers.get('content-type'), address).toBe('text/markdown; charset=utf-8');
      expect(md.headers.get('vary')?.toLowerCase()).toContain('accept');
      expect(await md.text()).toBe(site.read(file));
    }
    const html = await fetch(`${served.url}/reused/`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.headers.get('vary')?.toLowerCase()).toContain('accept');
  });

  it('has no Markdown of hidden or noindex pages, asked either way', async () => {
    for (const address of ['/hidden.md', '/unindexed.md']) expect((await fetch(`${served.url}${address}`)).status).toBe(404);
    const res = await fetch(`${served.url}/hidden/`, { headers: { accept: 'text/markdown' } });
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });
});
