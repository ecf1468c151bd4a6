// Builds that must fail: untrusted content (docs/architecture.md "Untrusted content"), bad ApiMethod and
// Snippet use, an invalid docs.json. Each fails with file:line:column, writes no output and never
// exposes the parent's secrets.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/builder/build.ts';
import { workerEnv } from '../../src/builder/processes.ts';
import { buildFixture, listFiles, makeContentRoot } from './helpers.ts';

const SECRET = 'sekrit-b41d-never-in-output';
beforeAll(() => {
  process.env.FOLIO_TEST_SECRET = SECRET;
});

/** Builds a content root that must fail; returns the error after checking nothing leaked. */
async function failingBuild(files: Record<string, string>, prepare?: (root: string) => void) {
  const root = makeContentRoot(files);
  prepare?.(root);
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-out-'));
  const result = await buildSite({ contentRoot: root, outDir: out, timeoutMs: 120_000 });
  expect(result.ok).toBe(false);
  expect(listFiles(out)).toEqual([]);
  const everything = `${result.log.join('\n')}\n${result.error?.message}`;
  expect(everything).not.toContain(SECRET);
  expect(everything).not.toContain('root:x:0:0');
  return { error: result.error!, log: result.log };
}

const page = (body: string) => ({ 'content/index.mdx': `# Home\n\n${body}\n` });

describe('untrusted content fails the build with file:line:column', () => {
  it('refuses an import (no fs access at build time)', async () => {
    const { error } = await failingBuild(page('import fs from "node:fs"\n\n{fs.readFileSync("/etc/passwd", "utf8")}'));
    expect(error.code).toBe('content_invalid');
    expect(error.message).toContain('content/index.mdx:3:1: import and export are not allowed');
    expect(error.message).toContain('content/index.mdx:5:1: expression {fs.readFileSync("/etc/passwd", "utf8")} is not allowed');
  });

  it('refuses {process.env.X} while the parent holds a secret in X', async () => {
    const { error } = await failingBuild(page('Key: {process.env.FOLIO_TEST_SECRET}'));
    expect(error.message).toBe('content/index.mdx:3:6: expression {process.env.FOLIO_TEST_SECRET} is not allowed: only literal values (strings, numbers, objects, arrays) and {/* comments */} may appear in braces; anything else is code: enable code for this project with allow_code: true (npm run build:site -- --allow-code; see "Code in pages" in the docs) to use it');
  });

  it('refuses export const of anything but a literal value', async () => {
    const { error } = await failingBuild(page('export const leaked = () => 1'));
    expect(error.message).toContain('content/index.mdx:3:1: import and export are not allowed in Folio content unless they are snippets or literal values: export const leaked is code (export const leaked = "text" would be content); enable code for this project with allow_code');
  });

  it('refuses expressions and imports in snippets too', async () => {
    const { error } = await failingBuild({
      ...page('<Snippet file="a.mdx" />'),
      '_snippets/a.mdx': 'Hi {name}\n\n{globalThis.process.env.FOLIO_TEST_SECRET}\n\nimport x from "y"\n',
    });
    expect(error.message).toContain('_snippets/a.mdx:3:1: expression {globalThis.process.env.FOLIO_TEST_SECRET} is not allowed');
    expect(error.message).toContain('_snippets/a.mdx:5:1: import and export are not allowed');
    expect(error.message).not.toContain('_snippets/a.mdx:1:'); // {name} is a placeholder in a snippet
  });

  it('refuses a symlink to /etc/passwd, in content/ and in public/, without following it', async () => {
    const { error } = await failingBuild(page('Hello'), (root) => {
      fs.symlinkSync('/etc/passwd', path.join(root, 'content/passwd.md'));
      fs.mkdirSync(path.join(root, 'public'));
      fs.symlinkSync('/etc/passwd', path.join(root, 'public/passwd.txt'));
      fs.symlinkSync('/etc', path.join(root, 'content/etc'));
    });
    expect(error.code).toBe('content_invalid');
    expect(error.message).toContain('content/passwd.md:1:1: a symbolic link is not allowed in a content root');
    expect(error.message).toContain('public/passwd.txt:1:1: a symbolic link is not allowed in a content root');
    expect(error.message).toContain('content/etc:1:1: a symbolic link is not allowed in a content root');
  });

  it('refuses a symlinked docs.json and special files (a FIFO)', async () => {
    const { error } = await failingBuild(page('Hello'), (root) => {
      fs.symlinkSync('/etc/passwd', path.join(root, 'docs.json'));
      execFileSync('mkfifo', [path.join(root, 'content/pipe.md')]);
    });
    expect(error.message).toContain('docs.json:1:1: a symbolic link is not allowed');
    expect(error.message).toContain('content/pipe.md:1:1: a special file is not allowed in a content root');
  });

  it('refuses a symlinked OpenAPI file named in docs.json', async () => {
    const { error } = await failingBuild({ ...page('Hello'), 'docs.json': JSON.stringify({ openapi: 'specs/api.yaml' }) }, (root) => {
      fs.mkdirSync(path.join(root, 'specs'));
      fs.symlinkSync('/etc/passwd', path.join(root, 'specs/api.yaml'));
    });
    expect(error.message).toContain('specs/api.yaml:1:1: a symbolic link is not allowed in a content root');
  });

  it('refuses a relative image path that leaves the content root', async () => {
    const { error } = await failingBuild(page('![secret](../../../../etc/hostname.png)'));
    expect(error.message).toContain('content/index.mdx:3:1: path "../../../../etc/hostname.png" points outside the content root');
  });

  it('refuses javascript: URLs in Markdown links, MDX elements and raw HTML of .md pages', async () => {
    const { error } = await failingBuild({
      ...page('[docs](javascript:alert(1))\n\n<a href="javascript:alert(2)">b</a>'),
      'content/raw.md': '# Raw\n\n<a href="javascript:alert(3)">c</a>\n',
      'content/split.md': '# Split\n\n<div><a title="\n\n`" onmouseover="alert(4)" x="`\n\n">hover</a></div>\n',
    });
    expect(error.code).toBe('content_invalid');
    expect(error.message).toContain('content/index.mdx:3:1: URL "javascript:alert(1)" is not allowed');
    expect(error.message).toContain('content/index.mdx:5:1: attribute href on <a> is not allowed: javascript: URLs');
    expect(error.message).toContain('content/raw.md:3:1: javascript: URLs are not allowed in Folio content');
    expect(error.message).toContain('content/split.md:3:1: raw HTML must close the tags it opens');
  });

  it('refuses set:html, on an element or a component', async () => {
    const { error } = await failingBuild(page('<div set:html="<img src=x onerror=alert(1)>" />\n\n<Callout set:html="<script>alert(2)</script>">c</Callout>'));
    expect(error.code).toBe('content_invalid');
    expect(error.message).toContain('content/index.mdx:3:1: directive set:html on <div> is not allowed in Folio content');
    expect(error.message).toContain('content/index.mdx:5:1: directive set:html on <Callout> is not allowed in Folio content');
  });

  it('refuses HTML and XML documents in public/, which would run script on the site as they are', async () => {
    const { error } = await failingBuild({
      ...page('Hello'),
      'public/promo.html': '<script>alert(document.domain)</script>',
      'public/feeds/x.xml': '<x:script xmlns:x="http://www.w3.org/1999/xhtml">alert(1)</x:script>',
      'public/ok.txt': 'fine',
    });
    expect(error.code).toBe('content_invalid');
    expect(error.message.split('\n').sort()).toEqual([
      'public/feeds/x.xml:1:1: HTML and XML files are not allowed in public/ (a browser would run their scripts as the site): write a page under content/ instead',
      'public/promo.html:1:1: HTML and XML files are not allowed in public/ (a browser would run their scripts as the site): write a page under content/ instead',
    ]);
  });

  it('refuses a frontmatter layout (an import in disguise)', async () => {
    const { error } = await failingBuild({ 'content/index.mdx': '---\nlayout: /etc/passwd\n---\n\nHi\n' });
    expect(error.message).toContain('content/index.mdx:1:1: frontmatter key "layout" is not allowed');
  });

  it('refuses a layout in TOML or blank-line frontmatter, and an expression Astro reads after a short frontmatter (no code runs)', async () => {
    const marker = path.join(os.tmpdir(), `folio-layout-ran-${process.pid}`);
    const { error } = await failingBuild({
      'content/index.mdx': '+++\nlayout = "./run.mjs"\n+++\n\n# Home\n',
      'content/other.mdx': '\n---\nlayout: ./run.mjs\n---\n\n# Other\n',
      'content/third.mdx': '---\ntitle: a\n---x: 1\nz: "{process.env.FOLIO_TEST_SECRET}"\n---\n',
      'content/run.mjs': `import fs from "node:fs"; fs.writeFileSync(${JSON.stringify(marker)}, "ran"); export default function Layout() { return ""; }\n`,
    });
    expect(fs.existsSync(marker)).toBe(false);
    expect(error.code).toBe('content_invalid');
    expect(error.message).toContain('content/index.mdx:1:1: frontmatter key "layout" is not allowed');
    expect(error.message).toContain('content/other.mdx:1:1: frontmatter key "layout" is not allowed');
    expect(error.message).toContain('content/third.mdx:4:5: expression {process.env.FOLIO_TEST_SECRET} is not allowed');
  });

  it('refuses a Markdown image that names a script (Astro would import it at build time)', async () => {
    const marker = path.join(os.tmpdir(), `folio-image-ran-${process.pid}`);
    const { error } = await failingBuild({
      ...page('![x](./run.mjs)'),
      'content/run.mjs': `import fs from "node:fs"; fs.writeFileSync(${JSON.stringify(marker)}, "ran"); export default "";\n`,
    });
    expect(fs.existsSync(marker)).toBe(false);
    expect(error.message).toBe('content/index.mdx:3:1: image "./run.mjs" is not allowed: a local image must be a .jpg, .jpeg, .png, .apng, .gif, .webp, .avif, .svg or .tiff file (without ? or #)');
  });

  it('refuses page and snippet file names that a module loader reads as a query (no code runs)', async () => {
    const marker = path.join(os.tmpdir(), `folio-query-ran-${process.pid}`);
    const script = `import fs from "node:fs"; fs.writeFileSync(${JSON.stringify(marker)}, "ran"); export default function X() { return ""; }\n`;
    const { error } = await failingBuild({
      ...page('Hello'),
      'content/a?x=.mdx': '# A\n',
      'content/a': script,
      'content/b#c.md': '# B\n',
      'content/d%3Fe.mdx': '# D\n',
      '_snippets/s?raw.mdx': 'S\n',
    });
    expect(fs.existsSync(marker)).toBe(false);
    expect(error.code).toBe('content_invalid');
    const reason = 'file names in content/ and _snippets/ may not contain "?", "#", "%" or "\\" (the build would read them as a module query)';
    expect(error.message.split('\n').sort()).toEqual([
      `_snippets/s?raw.mdx:1:1: ${reason}`,
      `content/a?x=.mdx:1:1: ${reason}`,
      `content/b#c.md:1:1: ${reason}`,
      `content/d%3Fe.mdx:1:1: ${reason}`,
    ]);
  });

  it('builds with an environment holding only the build inputs', () => {
    process.env.FOLIO_API_TOKEN = SECRET;
    const env = workerEnv('/tmp/b', '/tmp/root', '/tmp/out', 'https://x.example');
    expect(Object.keys(env).sort()).toEqual([
      'ASTRO_TELEMETRY_DISABLED', 'FOLIO_BUILD_ROOT', 'FOLIO_CONTENT_ROOT', 'FOLIO_OUT_DIR', 'FOLIO_ROLE', 'FOLIO_SITE_URL', 'HOME', 'NODE_ENV', 'PATH', 'TMPDIR',
    ]);
    expect(JSON.stringify(env)).not.toContain(SECRET);
  });
});

describe('what the build reads differently from other parsers (GFM tables and footnotes) fails the check before it', () => {
  it('refuses expressions in a table cell and in footnotes, and event handlers in a .md table cell and footnote', async () => {
    const { error } = await failingBuild({
      'content/index.mdx': '# Home\n\n| a | b |\n|---|---|\n| `x | <b data-leak={process.env.FOLIO_TEST_SECRET}>t</b> | ` |\n\nNote[^1]\n\n[^1]:\t{process.env.FOLIO_TEST_SECRET}\n',
      'content/plain.md': '# Plain\n\n| a | b |\n|---|---|\n| <img src=x onerror=alert(1)> | c |\n\nSee[^1]\n\n[^1]: <img src=x onerror=alert(2)>\n',
      'content/jsx.mdx': '# JSX\n\nSee[^1]\n\n[^1]: <img src="x" onerror="alert(1)"/>\n',
    });
    expect(error.code).toBe('content_invalid');
    expect(error.problems.map((p) => `${p.file}:${p.line}:${p.column}`)).toEqual([
      'content/index.mdx:5:8', 'content/index.mdx:9:7', 'content/jsx.mdx:5:7', 'content/plain.md:5:3', 'content/plain.md:9:7',
    ]);
    expect(error.message).toContain('content/plain.md:5:3: event handler attribute "onerror" is not allowed');
    expect(error.message).toContain('content/jsx.mdx:5:7: event handler attribute "onerror" is not allowed');
  });

  it('fails on a page too complex to check in time, naming it', async () => {
    const { error } = await failingBuild({ ...page('Fine.'), 'content/slow.mdx': '{'.repeat(300_000) });
    expect(error.code).toBe('content_invalid');
    expect(error.message).toMatch(/^content\/slow\.mdx:1:1: this page is too complex to check within \d+(\.\d+)? s: split it into smaller pages/);
  });
});

describe('ApiMethod and Snippet errors name the page and the value', () => {
  it('fails on a method outside the seven, naming page, line and value', async () => {
    const { error } = await failingBuild(page('Fine: <ApiMethod method="get" />\n\n<ApiMethod method="FETCH" />\n\n<ApiMethod />'));
    expect(error.message).toContain('content/index.mdx:5:1: ApiMethod method "FETCH" is not one of GET, POST, PUT, PATCH, DELETE, OPTIONS, HEAD (case-insensitive)');
    expect(error.message).toContain('content/index.mdx:7:1: ApiMethod needs a method');
    expect(error.message).not.toContain('"get"');
  });

  it('fails when a snippet\'s method={verb} receives a value outside the seven, naming page and value', async () => {
    const { error } = await failingBuild({
      'content/api/list.mdx': '# List\n\n<Snippet file="endpoint.mdx" vars={{ verb: "FETCH" }} />\n',
      '_snippets/endpoint.mdx': '<ApiMethod method={verb} /> the endpoint\n',
    });
    expect(error.code).toBe('build_failed');
    expect(error.message).toContain('ApiMethod method "FETCH" on page /api/list/ is not one of GET, POST, PUT, PATCH, DELETE, OPTIONS, HEAD');
  });

  it('fails when vars would put a javascript: URL into a Markdown snippet\'s HTML, naming page and snippet', async () => {
    const { error } = await failingBuild({
      'content/index.mdx': '# Home\n\n<Snippet file="link.md" vars={{ target: "script:alert(document.domain)" }} />\n',
      '_snippets/link.md': 'Say javascript: in text.\n\n<a href="java{target}">open</a>\n',
    });
    expect(error.code).toBe('build_failed');
    expect(error.message).toContain('Snippet file "link.md" on page / is not allowed: its vars put markup that runs script into _snippets/link.md');
  });

  it('fails when vars would put an element or an event handler into a Markdown snippet\'s HTML', async () => {
    for (const vars of ['{ attr: "onmouseover" }', '{ tag: "script" }', '{ title: "a onclick=alert(1)" }']) {
      const { error } = await failingBuild({
        'content/index.mdx': `# Home\n\n<Snippet file="raw.md" vars={${vars}} />\n`,
        '_snippets/raw.md': 'Say onclick= in text.\n\n<div>\n<span {attr}=alert(1) title={title}>x</span> <{tag}>alert(2)</{tag}>\n</div>\n',
      });
      expect(error.message, vars).toContain('Snippet file "raw.md" on page / is not allowed: its vars put markup that runs script into _snippets/raw.md');
    }
  });

  it('fails on a missing snippet file, naming page and path', async () => {
    const { error } = await failingBuild({
      'content/guides/setup.mdx': '# Setup\n\n<Snippet file="_snippets/nope.mdx" />\n',
      '_snippets/real.mdx': 'real',
    });
    expect(error.message).toBe('content/guides/setup.mdx:3:1: Snippet file "_snippets/nope.mdx" not found: no _snippets/nope.mdx in this content root');
  });

  it('fails when neither file nor children is given, and for a path outside _snippets/', async () => {
    const { error } = await failingBuild(page('<Snippet vars={{ a: "b" }} />\n\n<Snippet file="../docs.json" />'));
    expect(error.message).toContain('content/index.mdx:3:1: Snippet needs a file (a path under _snippets/) or children');
    expect(error.message).toContain('content/index.mdx:5:1: Snippet file "../docs.json" is outside _snippets/');
  });

  it('fails on a snippet cycle, showing it', async () => {
    const { error } = await failingBuild({
      ...page('<Snippet file="a.mdx" />'),
      '_snippets/a.mdx': 'A <Snippet file="b.mdx" />',
      '_snippets/b.mdx': 'B <Snippet file="_snippets/a.mdx" />',
    });
    expect(error.message).toBe('_snippets/b.mdx:1:3: snippet cycle: _snippets/a.mdx -> _snippets/b.mdx -> _snippets/a.mdx');
  });

  it('fails on a cycle through 6,000 snippets, naming its first dozen and how many more', async () => {
    // The check used to recurse once per snippet of the chain: a few thousand overflowed its stack.
    const name = (n: number) => `r${String(n).padStart(4, '0')}.mdx`;
    const ring = Object.fromEntries(Array.from({ length: 6_000 }, (_, n) => [`_snippets/${name(n)}`, `R <Snippet file="${name((n + 1) % 6_000)}" />`]));
    const { error } = await failingBuild({ ...page(`<Snippet file="${name(0)}" />`), ...ring });
    const first = Array.from({ length: 12 }, (_, n) => `_snippets/${name(n)}`).join(' -> ');
    expect(error.message).toBe(`_snippets/${name(5_999)}:1:3: snippet cycle: ${first} -> … 5988 more -> _snippets/${name(0)}`);
  });

  it('reports an MDX syntax error with line and column', async () => {
    const { error } = await failingBuild(page('Some text\n\n<ApiMethod method="get"'));
    expect(error.message).toMatch(/^content\/index\.mdx:[56]:\d+: MDX syntax error: /);
  });
});

describe('site configuration and build limits', () => {
  it('fails on an invalid docs.json, naming the key', async () => {
    const { error } = await failingBuild({ ...page('Hi'), 'docs.json': JSON.stringify({ colors: { primary: 42, brand: '#fff' }, navigation: 'x' }, null, 2) });
    expect(error.message).toContain('docs.json:3:5: colors.primary: must be a CSS colour such as "#16a34a", or {"light": colour, "dark": colour}');
    expect(error.message).toContain('docs.json:6:3: navigation: must be an object such as {"groups": [');
    // An unknown key is a warning, never a failure (content/docs-json.mdx).
    expect(error.message).not.toContain('brand');
  });

  it('fails on an invalid OpenAPI file, naming the file, line, column and JSON pointer', async () => {
    const spec = [
      'openapi: 3.0.3',
      'info: { title: T, version: "1" }',
      'paths:',
      '  /items:',
      '    get:',
      '      parameters:',
      '        - { name: q, in: query, schema: { type: strin } }',
      '      responses:',
      "        '200': { description: OK }",
      '',
    ].join('\n');
    const { error, log } = await failingBuild({ ...page('Hi'), 'specs/api.yaml': spec, 'docs.json': JSON.stringify({ openapi: 'specs/api.yaml' }) });
    // Refused by the check before Astro starts (docs/decisions.md#openapi-reference-pages).
    expect(error.code).toBe('content_invalid');
    expect(error.message).toMatch(/^specs\/api\.yaml:7:\d+: Invalid OpenAPI document specs\/api\.yaml:$/m);
    expect(error.message).toMatch(/specs\/api\.yaml:7:\d+ at #\/paths\/~1items\/get\/parameters\/0\/schema\/type: /);
    expect(log.join('\n')).toContain('specs/api.yaml:7:');
  });

  it('fails when the OpenAPI file named in docs.json is missing or outside the content root', async () => {
    const missing = await failingBuild({ ...page('Hi'), 'docs.json': JSON.stringify({ openapi: ['openapi.yaml'] }) });
    // Named where docs.json names the file.
    expect(missing.error.message).toMatch(/^docs\.json:\d+:\d+: OpenAPI file "openapi\.yaml" not found in the content root$/);
    const outside = await failingBuild({ ...page('Hi'), 'docs.json': JSON.stringify({ openapi: '../../etc/passwd' }) });
    expect(outside.error.message).toMatch(/^docs\.json:\d+:\d+: OpenAPI file "\.\.\/\.\.\/etc\/passwd" is outside the content root$/);
  });

  it('serves a written page that takes the address of a generated API reference page, leaving the generated one out with a warning', async () => {
    const spec = JSON.stringify({ openapi: '3.1.0', info: { title: 'T', version: '1' }, paths: { '/items': { get: { operationId: 'listItems', responses: { '200': { description: 'OK' } } } }, '/other': { get: { responses: { '200': { description: 'OK' } } } } } });
    // Mintlify's address of an operation without tag or summary: method and path (get-items).
    const site = await buildFixture({ ...page('Hi'), 'content/api-reference/get-items.mdx': '# Mine\n\nWritten by hand.', 'openapi.json': spec, 'docs.json': JSON.stringify({ openapi: 'openapi.json' }) });
    expect(site.result.ok).toBe(true);
    expect(site.read('api-reference/get-items/index.html')).toContain('Written by hand.');
    expect(site.exists('api-reference/get-other/index.html')).toBe(true);
    expect(site.result.log).toContain('[folio] warning: content/api-reference/get-items.mdx:1:1: this page takes the address /api-reference/get-items/ of the OpenAPI operation GET /items, whose generated page is left out');
  });

  it('fails when two files would be served at the same address', async () => {
    const { error } = await failingBuild({
      ...page('Hi'),
      'content/guides.mdx': '# Guides',
      'content/guides/index.md': '# Guides too',
      'content/a.md': 'a',
      'content/a.mdx': 'a',
    });
    expect(error.message).toContain('content/guides/index.md:1:1: content/guides.mdx and content/guides/index.md would both be served at /guides');
    expect(error.message).toContain('content/a.mdx:1:1: content/a.md and content/a.mdx would both be served at /a');
  });

  it('fails with no_pages when content/ is empty', async () => {
    const { error } = await failingBuild({ '_snippets/a.mdx': 'a' });
    expect(error.code).toBe('no_pages');
  });

  it('refuses an output directory where the build reads, or one holding the content root', async () => {
    const root = makeContentRoot(page('Hi'));
    for (const outDir of [path.join(root, 'public/out'), path.join(root, 'content'), root, path.dirname(root)]) {
      const result = await buildSite({ contentRoot: root, outDir });
      expect(result.error?.message, outDir).toContain('must not contain the content root nor be inside its content/, _snippets/, public/');
    }
    expect(fs.existsSync(path.join(root, 'public/out'))).toBe(false);
    expect(fs.readFileSync(path.join(root, 'content/index.mdx'), 'utf8')).toContain('Hi');
  });

  it('stops a build over its time limit', async () => {
    const root = makeContentRoot(page('Hi'));
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-out-'));
    const result = await buildSite({ contentRoot: root, outDir: out, timeoutMs: 300 });
    expect(result.error?.code).toBe('timeout');
    expect(listFiles(out)).toEqual([]);
  });

  it('refuses a site URL that is not an http(s) address', async () => {
    const root = makeContentRoot(page('Hi'));
    const result = await buildSite({ contentRoot: root, outDir: fs.mkdtempSync(path.join(os.tmpdir(), 'folio-out-')), siteUrl: 'javascript:alert(1)' });
    expect(result.error?.message).toBe('site URL "javascript:alert(1)" must be an http(s) address such as https://docs.example.com');
  });

  it('removes build roots a crashed build left behind (older than a day)', async () => {
    const stale = path.join(process.cwd(), '.folio-builds', `stale-${process.pid}`);
    fs.mkdirSync(path.join(stale, '.astro'), { recursive: true });
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600_000);
    fs.utimesSync(stale, twoDaysAgo, twoDaysAgo);
    await failingBuild(page('<script>alert(1)</script>'));
    expect(fs.existsSync(stale)).toBe(false);
  });

  it('stops a build when its signal aborts', async () => {
    const root = makeContentRoot(page('Hi'));
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-out-'));
    const result = await buildSite({ contentRoot: root, outDir: out, signal: AbortSignal.timeout(300) });
    expect(result.error?.code).toBe('canceled');
    expect(listFiles(out)).toEqual([]);
  });
});
