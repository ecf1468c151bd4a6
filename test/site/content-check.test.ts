// The content checker on its own (no build): what untrusted MDX may and may not contain.
import { describe, expect, it } from 'vitest';
import { analyzeContent, checkContent, formatProblem } from '../../src/site/content-check/check-content.ts';
import { checkSnippetCalls } from '../../src/site/content-check/snippet-calls.ts';
import { analyzeIsolated, MAX_CONTENT_BYTES } from '../../src/site/content-check/check-pool.ts';
import { parseDocsConfig, themeOverrideCss } from '../../src/site/config/docs-config.ts';
import { snippetKey } from '../../src/site/snippet-paths.ts';
import { BADGE_METHODS } from '../../src/site/components/catalog.ts';

const page = (text: string) => checkContent(text, { file: 'content/p.mdx', kind: 'page' }).map(formatProblem);
const snippet = (text: string) => checkContent(text, { file: '_snippets/s.mdx', kind: 'snippet' }).map(formatProblem);

describe('allowed content', () => {
  it('accepts Markdown, literal braces, comments and Folio components', () => {
    expect(page([
      '---', 'title: T', 'description: D', 'order: 3', '---', '',
      '# Title {/* a comment */}', '',
      'Text {"a string"} {42} {-1} {`template`} {[1, "two"]} {{ a: { b: [true, null] } }}', '',
      '<ApiMethod method="get" /> <ApiMethod method={"DELETE"} />', '',
      '<Snippet file="_snippets/a.mdx" vars={{ name: "Ada", "quoted-key": "x", n: 1 }} />', '',
      '<Callout kind="warning" title="Careful">Body</Callout>', '',
      '<div className="x"><br /><details><summary>More</summary>Hidden</details></div>', '',
      '<>fragment</>', '',
      '```js', 'const x = {a: process.env.HOME};', '```', '',
      'Inline `{process.env.HOME}` code.',
    ].join('\n'))).toEqual([]);
  });

  it.each(BADGE_METHODS.flatMap((m) => [m, m.toLowerCase(), m[0] + m.slice(1).toLowerCase()]))('accepts ApiMethod method="%s"', (m) => {
    expect(page(`<ApiMethod method="${m}" />`)).toEqual([]);
  });

  it('treats {name} in a snippet as a placeholder, and collects snippet calls', () => {
    const analysis = analyzeContent('Hi {name} and { other_1 }\n\n<Snippet file="./_snippets/x.mdx" />\n\n<Snippet file="y.mdx">kids</Snippet>', { file: '_snippets/s.mdx', kind: 'snippet' });
    expect(analysis.problems).toEqual([]);
    expect(analysis.placeholders).toEqual(['name', 'other_1']);
    expect(analysis.snippetCalls).toEqual([{ file: './_snippets/x.mdx', key: 'x.mdx', line: 3, column: 1 }]);
  });

  it('reads .md files as plain Markdown, where braces and tags are text', () => {
    expect(checkContent('# T\n\n{process.env.HOME} <Foo />', { file: 'content/p.md', kind: 'page' })).toEqual([]);
  });

  it('applies the element rules to raw HTML in .md files', () => {
    const problems = checkContent('# T\n\n<script>alert(1)</script>\n\n<img src="x" onerror="alert(1)">\n\n<details>ok</details>\n\n<ApiMethod method="get" />', { file: 'content/p.md', kind: 'page' });
    expect(problems.map(formatProblem)).toEqual([
      'content/p.md:3:1: the <script> element is not allowed in Folio content',
      'content/p.md:5:1: event handler attribute "onerror" is not allowed',
      'content/p.md:9:1: <ApiMethod> works in .mdx files only: rename this file to .mdx',
    ]);
  });
});

describe('components nobody defines (Mintlify deploys such pages)', () => {
  it.each([
    ['<Tabz />', '1:1: unknown component <Tabz> (did you mean <Tabs>?): its content is shown in its place; available components: Mintlify\'s built-in set and ApiMethod, Callout, Snippet (see "Components" in the docs)'],
    ['<foo.Bar />', '1:1: unknown component <foo.Bar>: its content is shown in its place'],
  ])('%s is a warning, not a problem', (source, expected) => {
    const analysis = analyzeContent(source, { file: 'content/p.mdx', kind: 'page' });
    expect(analysis.problems).toEqual([]);
    expect(analysis.warnings.map(formatProblem).join('\n')).toContain(`content/p.mdx:${expected}`);
    expect(analysis.dropsProps).toBe(true);
  });

  it('still refuses code in its attributes', () => {
    expect(page('<Fancy value={process.env.SECRET}>x</Fancy>').join('\n')).toContain('is not allowed');
  });
});

describe('refused content', () => {
  it.each([
    ['import fs from "fs"', '1:1: import and export are not allowed'],
    ['export default function X() {}', '1:1: import and export are not allowed'],
    ['{process.env.SECRET}', '1:1: expression {process.env.SECRET} is not allowed'],
    ['Text {fetch("https://x")}', '1:6: expression {fetch("https://x")} is not allowed'],
    ['{`a${b}`}', '1:1: expression {`a${b}`} is not allowed'],
    ['{/x/}', '1:1: expression {/x/} is not allowed'],
    ['{{ [k]: 1 }}', '1:1: expression {{ [k]: 1 }} is not allowed'],
    ['{{ ...process.env }}', '1:1: expression {{ ...process.env }} is not allowed'],
    ['{name}', '1:1: expression {name} is not allowed'],
    ['<Snippet file="a.mdx" vars={{ a: process.env.X }} />', '1:1: attribute vars={{ a: process.env.X }} on <Snippet> is not allowed'],
    ['<ApiMethod {...props} />', 'spread attributes are not allowed on <ApiMethod>'],
    ['<script>alert(1)</script>', '1:1: the <script> element is not allowed'],
    ['<img src="x.png" onError="alert(1)" />', 'event handler attribute "onError" is not allowed'],
    ['<ApiMethod method="FETCH" />', '1:1: ApiMethod method "FETCH" is not one of GET, POST, PUT, PATCH, DELETE, OPTIONS, HEAD (case-insensitive)'],
    ['<ApiMethod method={1} />', '1:1: ApiMethod method 1 is not one of'],
    ['<ApiMethod />', '1:1: ApiMethod needs a method'],
    ['<Snippet />', '1:1: Snippet needs a file (a path under _snippets/) or children'],
    ['<Snippet file="a.mdx" vars={["x"]} />', '1:1: Snippet vars must be an object of strings'],
    ['<Callout kind="fancy">x</Callout>', '1:1: Callout kind "fancy" is not one of note, tip, info, warning, check, danger'],
    ['---\nlayout: ./x.astro\n---', '1:1: frontmatter key "layout" is not allowed'],
    ['---\ntitle: [1]\norder: soon\n---', '1:1: frontmatter "title" must be a string'],
    ['---\ntitle: a: b\n---', '1:1: frontmatter is not valid YAML'],
    ['![x](../../secret.png)', '1:1: path "../../secret.png" points outside the content root'],
    ['# Title\n\n<div>', 'MDX syntax error'],
  ])('%s', (source, expected) => {
    const problems = page(source);
    expect(problems.join('\n')).toContain(expected.includes(':') && /^\d/.test(expected) ? `content/p.mdx:${expected}` : expected);
  });

  it('lets component attributes in snippets take placeholders, but not a Snippet\'s file or vars, nor in pages', () => {
    const analysis = analyzeContent('<ApiMethod method={verb} /> <Callout kind={tone}>x</Callout>', { file: '_snippets/s.mdx', kind: 'snippet' });
    expect(analysis.problems).toEqual([]);
    expect(analysis.placeholders).toEqual(['verb', 'tone']);
    expect(snippet('<Snippet file={which} />')).toEqual([expect.stringContaining('attribute file={which} on <Snippet> is not allowed')]);
    expect(snippet('<Snippet file="a.mdx" vars={which} />')).toEqual([expect.stringContaining('attribute vars={which} on <Snippet> is not allowed')]);
    expect(snippet('<div title={name}>x</div>')).toEqual([expect.stringContaining('attribute title={name} on <div> is not allowed')]);
    expect(page('<ApiMethod method={verb} />')).toEqual([expect.stringContaining('attribute method={verb} on <ApiMethod> is not allowed')]);
  });

  it('refuses javascript: URLs in links, images, element attributes and raw HTML', () => {
    expect(page([
      '[a](javascript:alert(1))', '',
      '![i](JavaScript:alert(2))', '',
      '[r]: <javascript:alert(3)>', '',
      '<a href=" javascript:alert(4)">b</a>', '',
      '<a href={"vbscript:x"}>c</a> <a href={[["javascript:alert(6)"]]}>n</a>', '',
      '<svg><a><animate attributeName="href" values="#;javascript:alert(5)" /></a></svg>',
    ].join('\n'))).toEqual([
      'content/p.mdx:1:1: URL "javascript:alert(1)" is not allowed: javascript: URLs run script in the reader\'s browser',
      'content/p.mdx:3:1: URL "JavaScript:alert(2)" is not allowed: javascript: URLs run script in the reader\'s browser',
      'content/p.mdx:5:1: URL "javascript:alert(3)" is not allowed: javascript: URLs run script in the reader\'s browser',
      'content/p.mdx:7:1: attribute href on <a> is not allowed: javascript: URLs run script in the reader\'s browser',
      'content/p.mdx:9:1: attribute href on <a> is not allowed: javascript: URLs run script in the reader\'s browser',
      'content/p.mdx:9:30: attribute href on <a> is not allowed: javascript: URLs run script in the reader\'s browser',
      'content/p.mdx:11:9: attribute values on <animate> is not allowed: javascript: URLs run script in the reader\'s browser',
    ]);
    const md = (text: string) => checkContent(text, { file: 'content/p.md', kind: 'page' }).map(formatProblem);
    expect(md('[l](javascript:alert(1))\n\n<javascript:alert(2)>')).toEqual([
      'content/p.md:1:1: URL "javascript:alert(1)" is not allowed: javascript: URLs run script in the reader\'s browser',
      'content/p.md:3:1: URL "javascript:alert(2)" is not allowed: javascript: URLs run script in the reader\'s browser',
    ]);
    expect(md('<div>\n<a href="&#106;avascript&colon;alert(1)">x</a>\n</div>')).toEqual([
      'content/p.md:1:1: javascript: URLs are not allowed in Folio content (they run script in the reader\'s browser)',
    ]);
    expect(md('<div>\n<img src=x/onerror=alert(1)>\n<img src="x"onload="alert(2)">\n</div>')).toEqual([
      'content/p.md:1:1: event handler attribute "onerror" is not allowed',
    ]);
    expect(page('[ok](https://example.com/javascript) and [js](/guides/javascript) and [q](https://example.com/?q=javascript:void)')).toEqual([]);
  });

  it('refuses data: URLs as link targets (links, autolinks, references, JSX, raw HTML, component hrefs), in any spelling', () => {
    const LINK = 'a data: URL as a link target opens a page of its own (HTML, or SVG that runs script) on the site; link to a page, a file in the content root or an https address instead';
    expect(page([
      '[a](data:text/html,<b>hi</b>)', '',
      '[b](DaTa:text/html;base64,PGI+)', '',
      '[c][d]', '',
      '[d]: DATA:image/svg+xml;base64,PHN2Zy8+', '',
      '<a href="  &#100;ata:text/html,x">e</a> <a href={"DATA:image/svg+xml,<svg/>"}>f</a>', '',
      '<Card title="g" href=" data:text/html,x">h</Card>', '',
      '<Tooltip tip="i" href="&#x44;ata:text/html,x">j</Tooltip>', '',
      '<Tile href="data:text/html,x" title="k" />', '',
      '<svg><a xlinkHref="data:text/html,x">l</a></svg>',
    ].join('\n'))).toEqual([
      `content/p.mdx:1:1: URL "data:text/html,<b>hi</b>" is not allowed: ${LINK}`,
      `content/p.mdx:3:1: URL "DaTa:text/html;base64,PGI+" is not allowed: ${LINK}`,
      `content/p.mdx:9:1: attribute href on <a> is not allowed: ${LINK}`,
      `content/p.mdx:9:41: attribute href on <a> is not allowed: ${LINK}`,
      `content/p.mdx:11:1: attribute href on <Card> is not allowed: ${LINK}`,
      `content/p.mdx:13:1: attribute href on <Tooltip> is not allowed: ${LINK}`,
      `content/p.mdx:15:1: attribute href on <Tile> is not allowed: ${LINK}`,
      `content/p.mdx:17:6: attribute xlinkHref on <a> is not allowed: ${LINK}`,
      `content/p.mdx:7:1: URL "DATA:image/svg+xml;base64,PHN2Zy8+" is not allowed: ${LINK}`,
    ]);
    const md = (text: string) => checkContent(text, { file: 'content/p.md', kind: 'page' }).map(formatProblem);
    expect(md('<data:text/html,x>\n\n<DATA:text/html,y>\n\n| a |\n|---|\n| <a href=\'&#x64;ata:text/html,x\'>z</a> |\n\n<form action="data:text/html,x"></form>')).toEqual([
      `content/p.md:1:1: URL "data:text/html,x" is not allowed: ${LINK}`,
      `content/p.md:3:1: URL "DATA:text/html,y" is not allowed: ${LINK}`,
      `content/p.md:7:3: attribute href on <a> is not allowed: ${LINK}`,
      `content/p.md:9:1: attribute action on <form> is not allowed: ${LINK}`,
    ]);
    // vbscript: is refused as javascript: is, in every one of these places.
    expect(page('[v](VBScript:msgbox)\n\n<Card title="w" href=" vbscript:x">x</Card>')).toEqual([
      'content/p.mdx:1:1: URL "VBScript:msgbox" is not allowed: javascript: URLs run script in the reader\'s browser',
      'content/p.mdx:3:1: attribute href on <Card> is not allowed: javascript: URLs run script in the reader\'s browser',
    ]);
  });

  it('keeps inline data:image/… images, and refuses a data: image address that is not an image', () => {
    const IMAGE = 'an inline image must be a data:image/… URL; use one, a file in the content root or an https address instead';
    expect(page('![a](data:image/png;base64,iVBORw0KGgo=)\n\n![b][i]\n\n[i]: data:image/svg+xml;base64,PHN2Zy8+\n\n<img src="data:image/gif;base64,R0lGOD" alt="c" />\n\n<Card title="d" img="data:image/png;base64,AAAA">e</Card>\n\n[f](https://example.com/data:x) and [g](/metadata:x)')).toEqual([]);
    expect(page('![a](data:text/html,x)\n\n<img src=" DATA:text/html,x" alt="b" />')).toEqual([
      `content/p.mdx:1:1: URL "data:text/html,x" is not allowed: ${IMAGE}`,
      `content/p.mdx:3:1: attribute src on <img> is not allowed: ${IMAGE}`,
    ]);
    // An iframe's src is a page: only the embed allow-list, never a data: URL.
    expect(page('<iframe src="data:text/html,x" />').join('\n')).toContain('attribute src on <iframe> is not allowed: a data: URL as a link target');
  });

  it('refuses data: and javascript: URLs in values whose use the check cannot see: Snippet vars, snippet props, snippet exports', () => {
    const mintlify = (text: string) => checkContent(text, { file: 'guide.mdx', kind: 'page', snippetsDir: 'snippets' }).map(formatProblem);
    expect(mintlify([
      "import Intro from '/snippets/intro.mdx'", '',
      '<Intro url="data:text/html,x" />', '',
      '<Intro url="javascript:alert(1)" />', '',
      '<Snippet file="a.mdx" vars={{ u: " Data:text/html,x" }} />', '',
      '<Intro logo="data:image/png;base64,AAAA" note="metadata: kept" />',
    ].join('\n'))).toEqual([
      'guide.mdx:3:1: attribute url on <Intro> is not allowed: a snippet\'s value may end up as a link target, and a data: URL as a link target opens a page of its own (HTML, or SVG that runs script) on the site; link to a page, a file in the content root or an https address instead',
      'guide.mdx:5:1: attribute url on <Intro> is not allowed: javascript: URLs run script in the reader\'s browser',
      'guide.mdx:7:1: attribute vars on <Snippet> is not allowed: a snippet\'s value may end up as a link target, and a data: URL as a link target opens a page of its own (HTML, or SVG that runs script) on the site; link to a page, a file in the content root or an https address instead',
    ]);
    // A snippet's export const is imported by pages into any attribute (a Card's href too).
    expect(snippet('export const link = "javascript:alert(1)"\n\nexport const page = "DATA:text/html,x"\n\nexport const logo = "data:image/png;base64,AAAA"\n\nexport const note = "metadata: kept"\n')).toEqual([
      '_snippets/s.mdx:1:1: export const link is not allowed: javascript: URLs run script in the reader\'s browser',
      '_snippets/s.mdx:3:1: export const page is not allowed: a snippet\'s value may end up as a link target, and a data: URL as a link target opens a page of its own (HTML, or SVG that runs script) on the site; link to a page, a file in the content root or an https address instead',
    ]);
  });

  it('refuses Astro directives such as set:html, which insert raw HTML past every element rule', () => {
    expect(page([
      '<div set:html="<img src=x onerror=alert(1)>" />', '',
      '<Callout title="t" set:html={"<script>alert(2)</script>"}>c</Callout>', '',
      '<p is:raw define:vars={{ a: "b" }}>x</p>',
    ].join('\n'))).toEqual([
      'content/p.mdx:1:1: directive set:html on <div> is not allowed in Folio content',
      'content/p.mdx:3:1: directive set:html on <Callout> is not allowed in Folio content',
      'content/p.mdx:5:1: directive is:raw on <p> is not allowed in Folio content',
      'content/p.mdx:5:1: directive define:vars on <p> is not allowed in Folio content',
    ]);
  });

  it('reads frontmatter as Astro does: TOML (+++), after blank lines, or closed by a longer --- line', () => {
    expect(page('+++\nlayout = "./x.mjs"\n+++\n\n# Home')).toEqual(['content/p.mdx:1:1: frontmatter key "layout" is not allowed (it would import code at build time)']);
    expect(page('\n---\nlayout: ./x.mjs\n---\n\n# Home')).toEqual(['content/p.mdx:1:1: frontmatter key "layout" is not allowed (it would import code at build time)']);
    expect(page('--- # note\nlayout: ./x.mjs\n---\n')).toEqual(['content/p.mdx:1:1: frontmatter key "layout" is not allowed (it would import code at build time)']);
    // Astro's frontmatter ends at the first line starting with ---: what follows is MDX, checked as such.
    expect(page('---\ntitle: a\n---x: 1\nz: "{process.env.SECRET}"\n---\n')).toEqual([
      'content/p.mdx:4:5: expression {process.env.SECRET} is not allowed: only literal values (strings, numbers, objects, arrays) and {/* comments */} may appear in braces; anything else is code: enable code for this project with allow_code: true (npm run build:site -- --allow-code; see "Code in pages" in the docs) to use it',
    ]);
    expect(page('+++\ntitle = 1\n+++\n')).toEqual(['content/p.mdx:1:1: frontmatter "title" must be a string']);
    expect(page('+++\ntitle = \n+++\n')).toEqual([expect.stringMatching(/^content\/p\.mdx:1:1: frontmatter is not valid TOML: /)]);
  });

  it('refuses a local image that is not an image file: Astro imports it, and a script would run at build time', () => {
    expect(page([
      '![a](./run.mjs)', '',
      '![b](run)', '',
      '![c](./pic.png?worker)', '',
      '![d](./run%2Emjs)', '',
      '![e][r]', '',
      '[r]: ./run.js',
    ].join('\n'))).toEqual([
      'content/p.mdx:1:1: image "./run.mjs" is not allowed: a local image must be a .jpg, .jpeg, .png, .apng, .gif, .webp, .avif, .svg or .tiff file (without ? or #)',
      'content/p.mdx:3:1: image "run" is not allowed: a local image must be a .jpg, .jpeg, .png, .apng, .gif, .webp, .avif, .svg or .tiff file (without ? or #)',
      'content/p.mdx:5:1: image "./pic.png?worker" is not allowed: a local image must be a .jpg, .jpeg, .png, .apng, .gif, .webp, .avif, .svg or .tiff file (without ? or #)',
      'content/p.mdx:7:1: image "./run%2Emjs" is not allowed: a local image must be a .jpg, .jpeg, .png, .apng, .gif, .webp, .avif, .svg or .tiff file (without ? or #)',
      'content/p.mdx:11:1: image "./run.js" is not allowed: a local image must be a .jpg, .jpeg, .png, .apng, .gif, .webp, .avif, .svg or .tiff file (without ? or #)',
    ]);
    expect(page('![ok](./diagram.PNG) ![ok](/logo.txt) ![ok](https://example.com/x) [link][l]\n\n[l]: ./run.mjs')).toEqual([]);
  });

  it('refuses raw HTML that ends inside a tag: the browser would read the Markdown after it as attributes', () => {
    const md = (text: string) => checkContent(text, { file: 'content/p.md', kind: 'page' }).map(formatProblem);
    const open = 'raw HTML must close the tags it opens: this block ends inside a tag, so the browser would read the text after it as attributes';
    expect(md('<div><a title="\n\n`" onmouseover="alert(1)" x="`\n\n">hover</a></div>')).toEqual([`content/p.md:1:1: ${open}`]);
    expect(md("<div>\n<a title='x' href=\n\ntext")).toEqual([`content/p.md:1:1: ${open}`]);
    expect(md('<div><!--> <a title=" -->\n\nx')).toEqual([`content/p.md:1:1: ${open}`]);
    expect(md('<div><!-- x --!> <a title=" -->\n\nx')).toEqual([`content/p.md:1:1: ${open}`]);
    expect(md('<div class="a>b" title=\'c"d\'>\n<!-- <a title=" -->\n1 < 2 and <br/>\n</div>\n\n<p>ok</p>')).toEqual([]);
  });

  it('still refuses non-placeholder expressions in snippets', () => {
    expect(snippet('{a.b}\n\n{name()}')).toEqual([
      expect.stringContaining('_snippets/s.mdx:1:1: expression {a.b} is not allowed'),
      expect.stringContaining('_snippets/s.mdx:3:1: expression {name()} is not allowed'),
    ]);
  });

  it('places a syntax error where it is, also a tag left open at the end of the file', () => {
    expect(page('# Title\n\nSome text\n\n<Callout kind="note">\nunclosed\n')).toEqual([
      expect.stringMatching(/^content\/p\.mdx:5:1: MDX syntax error: Expected a closing tag for `<Callout>`/),
    ]);
    expect(page('# Title\n\n  <div>\n')).toEqual([expect.stringMatching(/^content\/p\.mdx:3:3: MDX syntax error: Expected a closing tag for `<div>`/)]);
    expect(page('a\n\n<div>\n\n</span>\n')).toEqual([expect.stringMatching(/^content\/p\.mdx:5:1: MDX syntax error: Unexpected closing tag `<\/span>`/)]);
    expect(page('Line one\n\nan {unclosed expression\n')).toEqual([expect.stringMatching(/^content\/p\.mdx:3:4: MDX syntax error: Unexpected end of file in expression/)]);
  });

  it('lets children stand in for a missing file (no lookup)', () => {
    expect(analyzeContent('<Snippet file="gone.mdx">kids</Snippet>', { file: 'content/p.mdx', kind: 'page' }).snippetCalls).toEqual([]);
  });
});

describe('content of a project with code enabled (allowCode)', () => {
  const code = (text: string) => checkContent(text, { file: 'content/guides/p.mdx', kind: 'page', allowCode: true }).map(formatProblem);

  it('says how to enable code where code is refused', () => {
    for (const source of ['import X from "./x.jsx"', '{count + 1}']) {
      expect(page(source).join('\n')).toMatch(/enable .*allow_code/);
    }
  });

  it('accepts an event handler written as code on an element (React runs it)', () => {
    expect(code('<button onClick={() => setCount(count + 1)}>x</button>')).toEqual([]);
    expect(page('<button onClick={() => alert(1)}>x</button>')).toEqual([
      'content/p.mdx:1:1: event handler attribute onClick={() => alert(1)} on <button> is code: enable code for this project with allow_code: true (npm run build:site -- --allow-code; see "Code in pages" in the docs) to use it',
    ]);
  });

  it('accepts the bare client:load the code rewrite gives React components', () => {
    expect(code("import Tally from '/snippets/tally.jsx';\nexport const Shelf = () => <ul />;\n\n<Tally client:load /> <Shelf client:load />")).toEqual([]);
  });

  it('accepts imports inside the content root, export const components, expressions and other components', () => {
    expect(code([
      "import Tally from '/snippets/tally.jsx';", "import { Greeting } from '../greeting.tsx';", "import Intro from './intro.mdx';",
      "import { useState } from 'react';", '',
      'export const Shelf = ({ items }) => <ul>{items.map((i) => <li key={i}>{i}</li>)}</ul>;', '',
      '<Tally start={1 + 2} /> <Shelf items={["a"]} {...{ more: true }} /> <Greeting.Inner />', '',
      'Total: {items.length}',
    ].join('\n'))).toEqual([]);
  });

  it.each([
    ["import fs from 'node:fs'", '1:1: import "node:fs" is not allowed: code may import only'],
    ["import z from 'zod'", '1:1: import "zod" is not allowed'],
    ["import x from '../../../outside.js'", '1:1: import "../../../outside.js" is not allowed'],
    ["import x from '/../outside.js'", '1:1: import "/../outside.js" is not allowed'],
    ["import x from './data.json'", '1:1: import "./data.json" is not allowed'],
    ["import x from './x.jsx?raw'", '1:1: import "./x.jsx?raw" is not allowed'],
    ["import X from './x.jsx';\nexport * from 'node:fs'", '2:1: import "node:fs" is not allowed'],
    ['export default function Layout() {}', '1:1: export default is not allowed'],
    ['<script>alert(1)</script>', '1:1: the <script> element is not allowed'],
    // A handler written as code is React's (the element is hydrated); written as text it is an inline script.
    ['<button onClick="alert(1)">x</button>', '1:1: event handler attribute "onClick" is not allowed: write it as code, onClick={() => …}, which React runs'],
    ["import Tally from './tally.jsx';\n\n<Tally client:only=\"react\" />", '3:1: directive client:only on <Tally> is not allowed'],
    // Only what the code rewrite itself writes: a bare client:load on a React component.
    ["import Intro from './intro.mdx';\n\n<Intro client:load />", '3:1: directive client:load on <Intro> is not allowed'],
    ["import Tally from './tally.jsx';\n\n<Tally client:load=\"x\" />", '3:1: directive client:load on <Tally> is not allowed'],
    ["import tally from './tally.jsx';\n\n<tally client:load />", '3:1: directive client:load on <tally> is not allowed'],
    ['[x](javascript:alert(1))', 'javascript: URLs run script'],
  ])('still refuses %s', (source, expected) => {
    expect(code(source).join('\n')).toContain(/^\d/.test(expected) ? `content/guides/p.mdx:${expected}` : expected);
  });
});

describe('snippet calls', () => {
  it('names each call whose file is not among the given snippets', () => {
    const calls = analyzeContent('<Snippet file="intro.mdx" />\n\n<Snippet file="_snippets/gone.mdx" />\n\n<Snippet file="../docs.json" />\n', { file: 'content/p.mdx', kind: 'page' }).snippetCalls;
    expect(checkSnippetCalls('content/p.mdx', calls, new Set(['intro.mdx'])).map(formatProblem)).toEqual([
      'content/p.mdx:3:1: Snippet file "_snippets/gone.mdx" not found: no _snippets/gone.mdx in this content root',
      'content/p.mdx:5:1: Snippet file "../docs.json" is outside _snippets/',
    ]);
    expect(checkSnippetCalls('content/p.mdx', calls.slice(0, 1), new Set(['intro.mdx']))).toEqual([]);
  });
});

describe('snippet paths', () => {
  it.each([
    ['_snippets/intro.mdx', 'intro.mdx'],
    ['./_snippets/intro.mdx', 'intro.mdx'],
    ['/_snippets/intro.mdx', 'intro.mdx'],
    ['intro.mdx', 'intro.mdx'],
    ['api/auth.mdx', 'api/auth.mdx'],
    ['_snippets/a/../b.mdx', 'b.mdx'],
    ['../docs.json', undefined],
    ['_snippets/../content/index.mdx', undefined],
    ['_snippets/../../etc/passwd', undefined],
  ])('%s → %s', (file, key) => {
    expect(snippetKey(file)).toBe(key);
  });
});

describe('docs.json', () => {
  it('maps colours onto theme tokens for light and dark mode (a primary too dark to read on the dark background gets a lighter shade for text)', () => {
    const config = parseDocsConfig(JSON.stringify({ colors: { primary: '#111111', muted: { light: '#222', dark: '#333' } }, theme: 'mint' }));
    expect(themeOverrideCss(config)).toBe(
      'html:root{--docs-fg-muted:#222;--docs-accent:#111111;--docs-primary:#111111}html:root[data-theme=dark]{--docs-fg-muted:#333;--docs-accent:#111111;--docs-primary:#8a8a8a}',
    );
  });

  it('accepts both navigation forms', () => {
    const groups = [{ group: 'A', pages: ['index', { group: 'B', pages: ['b'] }] }];
    expect(parseDocsConfig(JSON.stringify({ navigation: groups })).navigation).toEqual({ groups });
    expect(parseDocsConfig(JSON.stringify({ navigation: { groups } })).navigation).toEqual({ groups });
  });

  it('names the key and its position of every problem', () => {
    expect(() => parseDocsConfig('{"colors": {"primary": "red;}body{display:none"}}')).toThrow('docs.json:1:13: colors.primary: must be a CSS colour');
    expect(() => parseDocsConfig('{"navigation": [{"group": "A", "pages": ["../x"]}]}')).toThrow('docs.json:1:42: navigation.0.pages.0:');
    expect(() => parseDocsConfig('{"name": 5}')).toThrow('docs.json:1:2: name:');
    expect(() => parseDocsConfig('{"logo": "javascript:alert(1)"}')).toThrow('docs.json:1:2: logo:');
    expect(() => parseDocsConfig('{"favicon": "/x.svg\\" onload=\\"x"}')).toThrow('docs.json:1:2: favicon:');
    expect(() => parseDocsConfig('{')).toThrow('docs.json:1:2: not valid JSON');
  });
});

describe('the check reads what the build compiles (Sätteri, GFM on)', () => {
  const md = (text: string) => checkContent(text, { file: 'content/p.md', kind: 'page' }).map(formatProblem);

  it('sees an expression in a GFM table cell that splits a code span at its pipes', () => {
    expect(page('| a | b |\n|---|---|\n| `x | <b data-leak={process.env.HOME}>t</b> | ` |\n')).toEqual([
      expect.stringMatching(/^content\/p\.mdx:3:8: attribute data-leak=\{process\.env\.HOME\} on <b> is not allowed: only literal values; anything else is code: enable code/),
    ]);
  });

  it('sees expressions in footnote definitions, also tab-indented ones', () => {
    expect(page('Note[^1]\n\n[^1]: {process.env.HOME}\n')).toEqual([expect.stringMatching(/^content\/p\.mdx:3:7: expression \{process\.env\.HOME\} is not allowed/)]);
    expect(page('Note[^1]\n\n[^1]:\t{process.env.HOME}\n\n\t{process.exit(1)}\n')).toEqual([
      expect.stringMatching(/^content\/p\.mdx:3:7: expression \{process\.env\.HOME\} is not allowed/),
      expect.stringMatching(/^content\/p\.mdx:5:2: expression \{process\.exit\(1\)\} is not allowed/),
    ]);
  });

  it('sees event handlers in raw HTML of a table cell and a footnote (.md), and in footnote JSX (.mdx)', () => {
    expect(md('| a | b |\n|---|---|\n| <img src=x onerror=alert(1)> | c |\n\nSee[^1]\n\n[^1]: <img src=x onerror=alert(2)>\n')).toEqual([
      'content/p.md:3:3: event handler attribute "onerror" is not allowed',
      'content/p.md:7:7: event handler attribute "onerror" is not allowed',
    ]);
    expect(page('See[^1]\n\n[^1]: <img src="x" onerror="alert(1)"/>\n')).toEqual(['content/p.mdx:3:7: event handler attribute "onerror" is not allowed']);
  });

  it('reads a .md body trimmed, as content collections compile it, and keeps positions in the file', () => {
    // Indented after the frontmatter, this would be a code block; trimmed, the build reads raw HTML.
    expect(md('---\ntitle: T\n---\n\n    <img src=x onerror=alert(1)>\n')).toEqual(['content/p.md:5:5: event handler attribute "onerror" is not allowed']);
  });

  it('reads a body stored after a frontmatter block as the build does: +++ there opens no frontmatter', () => {
    const body = (text: string) => checkContent(text, { file: 'content', kind: 'page', format: 'mdx', frontmatter: false }).map(formatProblem);
    expect(body('+++\n{process.env.HOME}\n+++\n')).toEqual([expect.stringMatching(/^content:2:1: expression \{process\.env\.HOME\} is not allowed/)]);
  });
});

describe('projects that allow code (allowCode)', () => {
  const code = (text: string, file = 'content/guides/p.mdx') => checkContent(text, { file, kind: 'page', allowCode: true }).map(formatProblem);

  it('allows imports of the project\'s own files, export const, any expression and the components a file declares', () => {
    expect(code([
      'import Chart from "./chart.jsx"', 'import { Tabs, Tab } from "/snippets/tabs.tsx"', 'import Intro from "../intro.mdx"', '',
      'export const Hello = ({ name }) => <span>Hi {name}</span>', '',
      '# Title {new Date().getFullYear()}', '',
      '<Chart data={[1, 2].map((x) => x * 2)} /> <Tabs><Tab title={Hello.name}>x</Tab></Tabs> <Hello name="Ada" /> <Intro /> <Chart.Legend />', '',
      '<div className={["a", "b"].join(" ")} {...{ id: "x" }}>ok</div>',
    ].join('\n'))).toEqual([]);
  });

  it('refuses packages other than React, built-ins, URLs, queries, other file types and paths that leave the content root', () => {
    const only = 'code may import only .js, .jsx, .ts, .tsx, .md and .mdx files inside the content root (relative, as "./x.jsx", or from the content root, as "/snippets/x.jsx") and the react package';
    expect(code('import fs from "node:fs"')).toEqual([`content/guides/p.mdx:1:1: import "node:fs" is not allowed: ${only} (URLs and built-in modules cannot be imported)`]);
    expect(code('import React from "react"')).toEqual([]);
    expect(code('import { createRoot } from "react-dom/client"')).toEqual([]);
    expect(code('import x from "react-dom/server"')[0]).toContain('packages cannot be imported');
    expect(code('import x from "./%2e%2e/x.js"')[0]).toContain('the path may not contain "?", "#", "%" or "\\"');
    expect(code('import x from "https://example.com/x.js"')[0]).toContain('URLs and built-in modules cannot be imported');
    expect(code('import x from "./x.js?raw"')[0]).toContain('the path may not contain "?", "#", "%" or "\\"');
    expect(code('import x from "./data.json"')[0]).toContain('the file is not a script or content file');
    expect(code('import x from "../../../etc/x.js"')[0]).toContain('the path leaves the content root');
    expect(code('export * from "fs"')[0]).toContain('packages cannot be imported');
    expect(code('export default function X() {}')[0]).toContain('export default is not allowed');
    expect(code('export let a = 1')[0]).toContain('only export const');
  });

  it('keeps every other rule: elements, event handlers, script URLs, directives, images, unknown components', () => {
    expect(code('<script>alert(1)</script>\n\n<img src="x.png" onError="alert(1)" />\n\n<a href="javascript:alert(1)">a</a>\n\n<div set:html={x} />\n\n![i](./run.mjs)\n\n<Carousel />')).toEqual([
      'content/guides/p.mdx:1:1: the <script> element is not allowed in Folio content',
      'content/guides/p.mdx:3:1: event handler attribute "onError" is not allowed: write it as code, onError={() => …}, which React runs',
      'content/guides/p.mdx:5:1: attribute href on <a> is not allowed: javascript: URLs run script in the reader\'s browser',
      'content/guides/p.mdx:7:1: directive set:html on <div> is not allowed in Folio content',
      'content/guides/p.mdx:9:1: image "./run.mjs" is not allowed: a local image must be a .jpg, .jpeg, .png, .apng, .gif, .webp, .avif, .svg or .tiff file (without ? or #)',
    ]);
    // A component nobody defines is a warning with code too (its content is shown in its place).
    expect(analyzeContent('<Carousel />', { file: 'content/guides/p.mdx', kind: 'page', allowCode: true }).warnings.map(formatProblem)).toEqual([
      'content/guides/p.mdx:1:1: unknown component <Carousel>: its content is shown in its place; available components: Mintlify\'s built-in set and ApiMethod, Callout, Snippet (see "Components" in the docs), and those this file imports or defines with export const',
    ]);
  });

  it('without it, says how to enable code', () => {
    expect(page('import Chart from "./chart.jsx"\n\n<Chart />')).toEqual([
      'content/p.mdx:1:1: import and export are not allowed in Folio content unless they are snippets or literal values (it imports code, run at build time and in readers\' browsers): import … from "./chart.jsx"; enable code for this project with allow_code: true (npm run build:site -- --allow-code; see "Code in pages" in the docs) to use it',
    ]);
  });
});

describe('checks in the check processes (off the caller\'s event loop)', () => {
  it('answers as the check in this process does', async () => {
    const text = 'Note[^1]\n\n[^1]: {process.env.HOME}\n';
    expect(await analyzeIsolated(text, { file: 'content/p.mdx', kind: 'page' })).toEqual(analyzeContent(text, { file: 'content/p.mdx', kind: 'page' }));
  });

  it('refuses a page that makes the parser slow as too complex, naming it, and checks the next page as usual', async () => {
    await expect(analyzeIsolated('{'.repeat(300_000), { file: 'content/slow.mdx', kind: 'page' })).rejects.toMatchObject({
      name: 'ContentTooComplexError',
      file: 'content/slow.mdx',
      message: expect.stringMatching(/^content\/slow\.mdx is too complex to check within \d+(\.\d+)? s: /),
    });
    expect((await analyzeIsolated('# Fine', { file: 'content/fine.mdx', kind: 'page' })).problems).toEqual([]);
  });

  it('refuses a page over the size cap without parsing it', async () => {
    await expect(analyzeIsolated('x'.repeat(MAX_CONTENT_BYTES + 1), { file: 'content/big.md', kind: 'page' })).rejects.toMatchObject({
      message: 'content/big.md is too large to check (4.0 MiB): a page or snippet may be at most 4 MiB',
    });
  });
});
