// One real build of a fixture content root that exercises docs/decisions.md#content-root (Snippet, planned rule 3 in
// effect), docs/decisions.md#content-root (ApiMethod), the theme tokens and the site features of docs/decisions.md#content-root.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BADGE_METHODS, METHOD_TOKENS } from '../../src/site/components/catalog.ts';
import { article, buildFixture, listFiles, sidebarOf, text, type BuiltSite } from './helpers.ts';
import { THEME_SCRIPT } from '../../src/site/theme-script.ts';
import { PAGE_SETTINGS_EVENT, PREVIEW_SETTINGS_META } from '../../src/site/dev/preview-settings-names.ts';

const SECRET = 'sekrit-7f3a9c1e-do-not-leak';
const methods = BADGE_METHODS.flatMap((m) => [m, m.toLowerCase()]);

const files: Record<string, string> = {
  'docs.json': JSON.stringify({
    name: 'Fixture Docs',
    description: 'Docs used by the site tests.',
    colors: { success: '#123456', danger: { light: '#aa0000', dark: '#ff8888' } },
    logo: { light: '/logo-light.svg', dark: '/logo-dark.svg' },
    favicon: '/favicon.svg',
  }),
  'content/index.mdx': [
    '---',
    'title: Welcome home',
    'description: The home page of the fixture.',
    '---',
    '',
    ...methods.map((m) => `<div id="m-${m}"><ApiMethod method="${m}" /></div>`),
    '',
    '## First section',
    '',
    '### A subsection',
    '',
    '```js',
    'const answer = 42;',
    '```',
  ].join('\n'),
  'content/snippets.mdx': [
    '---',
    'title: Snippet cases',
    '---',
    '',
    '<div id="s-full"><Snippet file="_snippets/intro.mdx" vars={{ name: "Ada", html: "<script>alert(1)</script>" }} /></div>',
    '',
    '<div id="s-dot"><Snippet file="./_snippets/intro.mdx" vars={{ name: "Dot", html: "x", unmatched: "y" }} /></div>',
    '',
    '<div id="s-slash"><Snippet file="/_snippets/intro.mdx" vars={{ name: "Slash", html: "x", unmatched: "y" }} /></div>',
    '',
    '<div id="s-short"><Snippet file="legacy.md" vars={{ who: "<i>Legacy</i>" }} /></div>',
    '',
    '<div id="s-children"><Snippet file="_snippets/does-not-exist.mdx">Children **win** here</Snippet></div>',
    '',
    '<div id="s-nested"><Snippet file="nested/outer.mdx" vars={{ who: "Outer", verb: "delete" }} /></div>',
  ].join('\n'),
  '_snippets/intro.mdx': [
    '---',
    'title: Frontmatter of a snippet',
    '---',
    '',
    'Hello **{name}**, here is {html} and {unmatched}.',
    '',
    '```bash',
    'echo "{name}"',
    '```',
    '',
    'Inline `{name}` code.',
  ].join('\n'),
  '_snippets/legacy.md': '---\ntitle: Legacy\n---\n\nLegacy markdown for {who}.\n',
  '_snippets/nested/outer.mdx': 'Outer for {who} <ApiMethod method="patch" /> <ApiMethod method={verb} />\n\n<Snippet file="_snippets/nested/inner.mdx" vars={{ depth: "two" }} />\n',
  '_snippets/nested/inner.mdx': 'Inner at depth {depth}.\n\n<Callout kind="tip">Tip inside a nested snippet</Callout>\n',
  'content/guides/index.mdx': '---\ntitle: Guides\n---\n\n# Every guide\n\nAll guides.\n',
  'content/guides/install.mdx': '---\norder: 2\ndescription: Install it.\n---\n\n# Install the CLI\n\nRun the installer.\n\n## Verify\n\nDone.\n',
  'content/guides/configure.md': '---\norder: 1\n---\n\nConfigure things in *Markdown*.\n',
  'public/logo.txt': 'a public file',
};

let site: BuiltSite;
beforeAll(async () => {
  process.env.FOLIO_TEST_SECRET = SECRET; // must never reach the build or its output
  site = await buildFixture(files, { siteUrl: 'https://docs.example.com' });
  expect(site.result.error).toBeUndefined();
  expect(site.result.ok).toBe(true);
});

const block = (html: string, id: string) => {
  const start = html.indexOf(`<div id="${id}">`);
  expect(start, `#${id} in output`).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf('<div id=', start + 10) === -1 ? html.indexOf('</article>', start) : html.indexOf('<div id=', start + 10));
};

const badgeOf = (html: string, m: string) => new RegExp(`<div id="m-${m}">(.*?)</div>`).exec(html)?.[1];

describe('ApiMethod (docs/decisions.md#content-root)', () => {
  it.each(methods)('renders %s as the upper-case label coloured by its token', (m) => {
    const html = badgeOf(site.read('index.html'), m) ?? '';
    const upper = m.toUpperCase() as keyof typeof METHOD_TOKENS;
    expect(html).toContain(`style="--method-color: var(${METHOD_TOKENS[upper]})"`);
    expect(text(html).trim()).toBe(upper);
  });

  it('gives lower-case and upper-case input the same output', () => {
    const html = site.read('index.html');
    const badge = (m: string) => badgeOf(html, m);
    for (const m of BADGE_METHODS) {
      expect(badge(m)).toMatch(/^<span class="api-method/);
      expect(badge(m.toLowerCase())).toBe(badge(m));
    }
  });

  it('colours the badge only through the token (no fixed colour)', () => {
    const css = siteCss();
    const rule = /\.api-method\{[^}]*\}/.exec(css)?.[0] ?? '';
    expect(rule).toContain('color:var(--method-color)');
    expect(rule).not.toMatch(/#[0-9a-f]{3,8}|rgb\(/i);
  });

  it('puts a docs.json colour onto the token the badge reads, in light and dark mode', () => {
    const html = site.read('index.html');
    expect(html).toMatch(/html:root\{[^}]*--docs-success:#123456/);
    expect(html).toMatch(/html:root\{[^}]*--docs-danger:#aa0000/);
    expect(html).toMatch(/html:root\[data-theme=dark\]\{[^}]*--docs-danger:#ff8888/);
    expect(html).toContain('var(--docs-success)');
  });
});

describe('Snippet (docs/decisions.md#content-root, planned rule 3 in effect)', () => {
  it('inlines the snippet body without its frontmatter and fills vars', () => {
    const html = block(site.read('snippets/index.html'), 's-full');
    expect(html).toContain('Hello <strong>Ada</strong>');
    expect(html).not.toContain('Frontmatter of a snippet');
  });

  it('inserts vars as plain text, never as markup', () => {
    const html = block(site.read('snippets/index.html'), 's-full');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>alert(1)');
  });

  it('leaves a placeholder without a var visible and logs a warning naming page and snippet', () => {
    expect(text(block(site.read('snippets/index.html'), 's-full'))).toContain('and {unmatched}.');
    expect(site.result.warnings).toEqual([
      expect.stringMatching(/page \/snippets\/.*_snippets\/intro\.mdx.*\{unmatched\}/),
    ]);
  });

  it('fills placeholders inside code blocks and inline code', () => {
    const html = block(site.read('snippets/index.html'), 's-full');
    expect(text(html)).toContain('echo &quot;Ada&quot;');
    expect(html).toContain('<code>Ada</code>');
    expect(html).toContain('astro-code');
  });

  it('accepts ./ and / before _snippets/ and the short form looked up inside _snippets/', () => {
    const html = site.read('snippets/index.html');
    expect(text(block(html, 's-dot'))).toContain('Hello Dot, here is x and y.');
    expect(text(block(html, 's-slash'))).toContain('Hello Slash, here is x and y.');
    expect(block(html, 's-short')).toContain('Legacy markdown for &#60;i&#62;Legacy&#60;/i&#62;.');
  });

  it('renders children as they are, without looking up the file', () => {
    expect(block(site.read('snippets/index.html'), 's-children')).toContain('Children <strong>win</strong> here');
  });

  it('renders components and nested snippets inside snippets', () => {
    const html = block(site.read('snippets/index.html'), 's-nested');
    expect(text(html)).toContain('Outer for Outer');
    expect(html).toContain('data-method="PATCH"');
    expect(html).toContain('style="--method-color: var(--docs-danger)" data-method="DELETE">DELETE</span>'); // method={verb}
    expect(text(html)).toContain('Inner at depth two.');
    expect(html).toContain('class="callout callout-tip"');
  });

  it('never routes _snippets/ as pages', () => {
    const outputs = listFiles(site.out);
    expect(outputs.filter((f) => f.includes('_snippets') || f.includes('intro') || f.includes('nested'))).toEqual([]);
    expect(site.read('sitemap.xml')).not.toContain('intro');
  });
});

describe('theme', () => {
  it('defines every token of docs/decisions.md#content-root with a light and a dark value', () => {
    const css = siteCss();
    const light = /:root\{([^}]*)\}/.exec(css)?.[1] ?? '';
    const dark = /:root\[data-theme=(?:"dark"|'dark'|dark)\]\{([^}]*)\}/.exec(css)?.[1] ?? '';
    for (const token of ['--docs-primary', '--docs-success', '--docs-info', '--docs-warning', '--docs-danger', '--docs-fg-muted', '--docs-fg', '--docs-bg', '--docs-border']) {
      expect(light, token).toMatch(new RegExp(`${token}:#[0-9a-f]{3,6}`));
      expect(dark, token).toMatch(new RegExp(`${token}:#[0-9a-f]{3,6}`));
    }
  });

  it('restores the visitor\'s light/dark choice before first paint', () => {
    const head = site.read('index.html').split('</head>')[0] ?? '';
    // A classic inline script in <head> (not a module, not deferred) runs before the body is
    // painted; it is the one the served sites' policy allows by its hash.
    expect(head).toContain(`<script>${THEME_SCRIPT}</script>`);
    expect(THEME_SCRIPT).toContain("localStorage.getItem('folio-theme')");
    expect(THEME_SCRIPT).toContain("r.setAttribute('data-theme',t)");
    expect(pageScripts('index.html')).toContain('folio-theme`,');
  });

  it('puts no inline script in any page but the theme script: every other script is a file (served sites allow only that one by its hash)', () => {
    const pages = listFiles(site.out).filter((f) => f.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(3);
    for (const page of pages) {
      const html = site.read(page);
      const tags = html.match(/<script\b[^>]*>/g) ?? [];
      expect(tags.length, page).toBe(2);
      expect(html.split(`<script>${THEME_SCRIPT}</script>`).length, page).toBe(2);
      const files = tags.filter((tag) => tag !== '<script>');
      expect(files.length, page).toBe(1);
      for (const tag of files) expect(tag, page).toMatch(/ src="\/_astro\/[^"]+\.js"/);
    }
  });

  it('carries nothing of the preview\'s stale-page check (only folio dev renders its meta and sends its event)', () => {
    const files = listFiles(site.out).filter((f) => f.endsWith('.html') || f.endsWith('.js'));
    expect(files.some((f) => f.endsWith('.js'))).toBe(true);
    for (const file of files) {
      const text = site.read(file);
      expect(text, file).not.toContain(PREVIEW_SETTINGS_META);
      expect(text, file).not.toContain(PAGE_SETTINGS_EVENT);
    }
  });
});

describe('site features (docs/decisions.md#content-root)', () => {
  it('writes directory-style pages so /guides/install and /guides/install/ reach the page', () => {
    expect(site.exists('guides/install/index.html')).toBe(true);
    expect(site.exists('guides/configure/index.html')).toBe(true);
    expect(site.exists('guides/index.html')).toBe(true);
    expect(site.read('logo.txt')).toBe('a public file');
  });

  it('takes the title from frontmatter, else the first # heading, else the file name', () => {
    expect(site.read('index.html')).toContain('<title>Welcome home · Fixture Docs</title>');
    const install = site.read('guides/install/index.html');
    expect(install).toContain('<title>Install the CLI · Fixture Docs</title>');
    expect(article(install).match(/<h1/g)).toHaveLength(1);
    expect(site.read('guides/configure/index.html')).toContain('<title>Configure · Fixture Docs</title>');
    expect(article(site.read('guides/configure/index.html'))).toContain('<em>Markdown</em>');
    // A frontmatter title names the page; a body that opens with its own # heading keeps it as the only h1.
    const guides = site.read('guides/index.html');
    expect(guides).toContain('<title>Guides · Fixture Docs</title>');
    expect(article(guides).match(/<h1[^>]*>[^<]*<\/h1>/g)).toEqual(['<h1 id="every-guide">Every guide</h1>']);
  });

  it('derives the sidebar from folders and order, and links previous/next in that order', () => {
    const html = site.read('guides/install/index.html');
    const sidebar = sidebarOf(html);
    const titles = [...sidebar.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1]);
    expect(titles).toEqual(['/', '/snippets/', '/guides/', '/guides/configure/', '/guides/install/']);
    expect(sidebar).toContain('<a href="/guides/install/" aria-current="page">');
    expect(html).toMatch(/<a class="prev pagination-prev" rel="prev" href="\/guides\/configure\/">/);
    expect(html).not.toContain('rel="next"');
    expect(site.read('index.html')).toMatch(/<a class="next pagination-next" rel="next" href="\/snippets\/">/);
  });

  it('has an on-page table of contents of h2 and h3 headings', () => {
    const html = site.read('index.html');
    const toc = html.slice(html.indexOf('<aside class="toc"'));
    expect(toc).toContain('<a href="#first-section">First section</a>');
    expect(toc).toContain('<li class="depth-3 toc-item"><a href="#a-subsection">A subsection</a>');
    expect(html).toContain('<h2 id="first-section">');
  });

  it('highlights code with Shiki, coloured by CSS variables with light and dark values, and adds copy buttons', () => {
    const html = site.read('index.html');
    expect(html).toContain('<pre class="astro-code css-variables"');
    expect(html).toContain('<span style="color:var(--astro-code-token-keyword)">const</span>');
    const css = siteCss();
    expect(/:root\{([^}]*)\}/.exec(css)?.[1]).toContain('--astro-code-token-keyword:#cf222e');
    expect(/:root\[data-theme=(?:"dark"|'dark'|dark)\]\{([^}]*)\}/.exec(css)?.[1]).toContain('--astro-code-token-keyword:#f97583');
    expect(pageScripts('index.html')).toContain('code-block-copy');
    expect(pageScripts('index.html')).toContain('navigator.clipboard.writeText');
  });

  it('builds a Pagefind index of the content pages, and a search box that loads it', () => {
    expect(site.exists('pagefind/pagefind.js')).toBe(true);
    const entry = JSON.parse(site.read('pagefind/pagefind-entry.json')) as { languages: Record<string, { page_count: number }> };
    expect(Object.values(entry.languages).reduce((n, l) => n + l.page_count, 0)).toBe(5);
    expect(pageScripts('index.html')).toContain('/pagefind/pagefind.js');
  });

  it('writes sitemap.xml and robots.txt with the site URL', () => {
    const sitemap = site.read('sitemap.xml');
    for (const p of ['/', '/snippets/', '/guides/', '/guides/install/', '/guides/configure/']) {
      expect(sitemap).toContain(`<loc>https://docs.example.com${p}</loc>`);
    }
    expect(site.read('robots.txt')).toBe('User-agent: *\nAllow: /\n\nSitemap: https://docs.example.com/sitemap.xml\n');
  });

  it('writes llms.txt (page list) and llms-full.txt (every page\'s Markdown)', () => {
    const llms = site.read('llms.txt');
    expect(llms.startsWith('# Fixture Docs\n\n> Docs used by the site tests.')).toBe(true);
    expect(llms).toContain('- [Install the CLI](https://docs.example.com/guides/install.md): Install it.');
    const full = site.read('llms-full.txt');
    expect(full).toContain('Configure things in *Markdown*.');
    expect(full).toContain('# Install the CLI\n\nRun the installer.');
  });

  it('inlines snippets (vars filled, nested ones too, children as written) in llms-full.txt, as clean Markdown', () => {
    const full = site.read('llms-full.txt');
    expect(full).toContain('Hello **Ada**, here is  and .\n\n```bash\necho "Ada"\n```');
    expect(full).toContain('Legacy markdown for *Legacy*.');
    expect(full).toContain('Children **win** here');
    expect(full).toContain('Outer for Outer `PATCH` `DELETE`\n\nInner at depth two.\n\n> **Tip:** Tip inside a nested snippet');
    expect(full).not.toMatch(/<Snippet|<div|<script|alert\(1\)/);
  });

  it('has a 404 page that search does not index', () => {
    const html = site.read('404.html');
    expect(html).toContain('Page not found');
    expect(html).not.toContain('data-pagefind-body');
  });

  it('shows the docs.json logo for each mode and links the favicon', () => {
    const html = site.read('index.html');
    expect(html).toContain('<img class="logo-light" src="/logo-light.svg" alt="">');
    expect(html).toContain('<img class="logo-dark" src="/logo-dark.svg" alt="">');
    expect(html).toContain('<link rel="icon" href="/favicon.svg">');
  });

  it('sets canonical, description and viewport meta, with a phone layout', () => {
    const html = site.read('guides/install/index.html');
    expect(html).toContain('<link rel="canonical" href="https://docs.example.com/guides/install/">');
    expect(html).toContain('<meta name="description" content="Install it.">');
    expect(site.read('index.html')).toContain('<meta name="description" content="The home page of the fixture.">');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(siteCss()).toMatch(/@media \((?:max-width:\s*|width\s*<=\s*)48rem\)\{[^]*\.menu-button\{display:inline-grid/);
  });

  it('keeps the parent\'s secrets out of the build and its output', () => {
    expect(site.result.log.join('\n')).not.toContain(SECRET);
    for (const file of listFiles(site.out)) expect(fs.readFileSync(path.join(site.out, file)).includes(SECRET), file).toBe(false);
  });
});

/** The script files a built page loads, concatenated. */
function pageScripts(page: string): string {
  return [...site.read(page).matchAll(/<script\b[^>]* src="\/([^"]+)"/g)].map((m) => site.read(m[1])).join('\n');
}

function siteCss(): string {
  return listFiles(path.join(site.out, '_astro'))
    .filter((f) => f.endsWith('.css'))
    .map((f) => fs.readFileSync(path.join(site.out, '_astro', f), 'utf8'))
    .join('\n');
}
