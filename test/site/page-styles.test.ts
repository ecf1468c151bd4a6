// Only the CSS a page uses (docs/decisions.md#byte-ranges-and-css-per-page): a page links
// the layout's stylesheet, plus the components' sheet when its content calls a component (or may:
// an MDX page with code) and the OpenAPI sheet when it shows an operation. A real build.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFixture, type BuiltSite } from './helpers.ts';

const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Parcels', version: '1' },
  paths: { '/parcels': { get: { operationId: 'listParcels', summary: 'List parcels', responses: { 200: { description: 'The parcels' } } } } },
};

let site: BuiltSite;
beforeAll(async () => {
  site = await buildFixture({
    'docs.json': JSON.stringify({ name: 'Styles', openapi: 'parcels.json' }),
    'parcels.json': JSON.stringify(SPEC),
    'content/index.mdx': '# Home\n\nPlain **text**, a [link](/guide/), a list:\n\n- one\n- two\n\n```js\nconst a = 1;\n```\n',
    'content/notes.md': '# Notes\n\nMarkdown only.\n',
    'content/guide.mdx': '# Guide\n\n<Note>Read this first.</Note>\n\n<Steps><Step title="Install">Run it.</Step></Steps>\n',
    'content/nested.mdx': '# Nested\n\n| Column |\n|---|\n| <Badge>new</Badge> |\n',
    'content/snippet.mdx': '# Snippet\n\n<Snippet file="tip.mdx" />\n',
    '_snippets/tip.mdx': '<Tip>From a snippet.</Tip>\n',
  });
  expect(site.result.ok, site.result.error?.message).toBe(true);
}, 300_000);

/** The stylesheets a built page links, in order, with their text. */
function sheetsOf(page: string): Array<{ href: string; css: string }> {
  return [...site.read(page).matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => ({ href: m[1]!, css: fs.readFileSync(path.join(site.out, m[1]!), 'utf8') }));
}
const css = (page: string) => sheetsOf(page).map((s) => s.css).join('\n');
const bytes = (page: string) => sheetsOf(page).reduce((n, s) => n + Buffer.byteLength(s.css), 0);

describe('stylesheets per page', () => {
  it('gives a plain page (MDX or Markdown) the layout\'s CSS only: no component or OpenAPI rules', () => {
    for (const page of ['index.html', 'notes/index.html']) {
      const text = css(page);
      expect(text, page).toContain('.sidebar');
      expect(text, page).not.toContain('.mint-columns');
      expect(text, page).not.toContain('.openapi-');
      expect(sheetsOf(page)).toHaveLength(1);
    }
  });

  it('links the components\' sheet where the page, a table cell in it or a snippet it includes calls a component, after the layout\'s', () => {
    for (const page of ['guide/index.html', 'nested/index.html', 'snippet/index.html']) {
      const sheets = sheetsOf(page);
      expect(sheets.map((s) => s.href), page).toEqual([...sheetsOf('index.html').map((s) => s.href), expect.stringMatching(/^\/_astro\/components\.[\w-]+\.css$/)]);
      expect(sheets[1]!.css).toContain('.mint-columns');
      expect(sheets[1]!.css).not.toContain('.openapi-');
    }
    expect(bytes('guide/index.html')).toBeGreaterThan(bytes('index.html'));
  });

  it('links the OpenAPI sheet on an operation page only', () => {
    const operation = fs.readdirSync(site.out, { recursive: true }).map(String).find((f) => f.endsWith('index.html') && site.read(f).includes('openapi-operation'))!;
    expect(operation).toBeDefined();
    expect(css(operation)).toContain('.openapi-title');
    expect(css(operation)).not.toContain('.mint-columns');
  });
});
