// A content root in Mintlify's layout (docs.json at the top, pages beside it, snippets/), built once
// for real: which files become pages and which are served, Mintlify's snippet imports, its
// frontmatter keys, and `npm run check:site` on the same root (docs/decisions.md#content-root).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { article, buildRoot, checkSite, listFiles, makeContentRoot, serveWithFolio, sidebarOf, text, type BuiltSite } from './helpers.ts';
import { repoRoot } from '../../src/site/settings.ts';
import { buildSite } from '../../src/builder/build.ts';

const run = promisify(execFile);
const FIXTURE = path.join(repoRoot, 'test/fixtures/mintlify');

/** The fixture, plus files a repository may hold that must never be read or served. */
function fixtureCopy(extra: Record<string, string> = {}): string {
  const root = makeContentRoot({
    '.env': 'SECRET_TOKEN=never-served\n',
    '.github/workflows/notes.md': '# CI notes\n',
    'node_modules/some-package/README.mdx': '# not a page\n\n{process.exit(1)}\n',
    'legacy/embed.html': '<script>alert(1)</script>\n',
    'snippets/widget.jsx': 'export const Widget = () => null;\n',
    'package.json': '{"name": "lumen-docs"}\n',
    ...extra,
  });
  fs.cpSync(FIXTURE, root, { recursive: true });
  return root;
}

let site: BuiltSite;
beforeAll(async () => {
  site = await buildRoot(fixtureCopy(), { siteUrl: 'https://docs.example.org' });
  if (!site.result.ok) throw new Error(site.result.log.join('\n'));
}, 240_000);

describe('Mintlify layout', () => {
  it('builds every .md/.mdx file beside docs.json as a page at its own path', () => {
    const pages = listFiles(site.out).filter((f) => f.endsWith('index.html')).sort();
    expect(pages).toEqual(['guides/hidden-page/index.html', 'guides/markdown/index.html', 'guides/secret/index.html', 'guides/setup/index.html', 'index.html']);
    expect(site.result.pageCount).toBe(5);
  });

  it('leaves out README/LICENSE, .mintignore patterns, snippets, dot folders and node_modules', () => {
    for (const gone of ['README/index.html', 'LICENSE/index.html', 'drafts/plan/index.html', 'guides/notes.wip/index.html', 'snippets/greeting/index.html', 'node_modules', '.github']) {
      expect(site.exists(gone), gone).toBe(false);
    }
  });

  it('serves every other file at its own path, but never dot files, docs.json or HTML documents', () => {
    expect(site.read('images/lamp.svg')).toContain('<svg');
    expect(site.read('api/spec.pdf')).toContain('%PDF-1.4');
    for (const never of ['.env', '.mintignore', 'docs.json', 'package.json', 'legacy/embed.html', 'snippets/greeting.mdx', 'snippets/widget.jsx', 'index.mdx']) {
      expect(site.exists(never), never).toBe(false);
    }
    expect(site.result.log).toContain('[folio] warning: legacy/embed.html:1:1: not served: an HTML or XML file would run its scripts as the site');
  });

  it('refuses a symbolic link anywhere in the root, without following it', async () => {
    const root = fixtureCopy();
    fs.symlinkSync('/etc/passwd', path.join(root, 'images/passwd.png'));
    const { code, lines } = await checkSite(root);
    expect(code).toBe(1);
    expect(lines).toContain('images/passwd.png:1:1: a symbolic link is not allowed in a content root');
  });
});

describe('snippets the Mintlify way', () => {
  it('renders a default-imported snippet as a component, its props filling {prop} (root-relative and relative imports)', () => {
    expect(text(article(site.read('index.html')))).toContain('Hello Ada, welcome to the lab.');
    expect(text(article(site.read('guides/setup/index.html')))).toContain('Hello Grace, welcome to the workshop.');
  });

  it('places the content between a snippet\'s tags where the snippet writes {children}, as Markdown', () => {
    const callout = /<aside[^>]*callout-note[\s\S]*?<\/aside>/.exec(article(site.read('guides/setup/index.html')))?.[0] ?? '';
    expect(callout).toContain('Unplug it <strong>first</strong> when you move it.');
    expect(text(callout)).toContain('Questions go to the workshop lead.');
    expect(callout.indexOf('Unplug it')).toBeLessThan(callout.indexOf('Questions go to'));
  });

  it('inlines named imports of a snippet\'s export const literals and the page\'s own', () => {
    expect(text(article(site.read('index.html')))).toContain('The current model is L-200 and it gives 1200 lumens. Ask the help desk.');
  });

  it('refuses imports that are code, naming the page, the line and how to enable code', async () => {
    const root = makeContentRoot({
      'docs.json': '{}',
      'index.mdx': '# Home\n\nimport Chart from "/snippets/chart.jsx"\n\nexport const Big = () => <b>big</b>\n\n<Chart />\n',
      'snippets/chart.jsx': 'export default () => null\n',
    });
    const { code, lines } = await checkSite(root);
    expect(code).toBe(1);
    expect(lines[0]).toMatch(/^index\.mdx:3:1: import and export are not allowed in Folio content unless they are snippets or literal values \(it imports code, run at build time and in readers' browsers\): import … from "\/snippets\/chart\.jsx"; enable code for this project with allow_code: true/);
    expect(lines[1]).toMatch(/^index\.mdx:5:1: .*export const Big is code.*allow_code: true/);
    expect(lines.at(-1)).toBe('1 pages, 1 refused, 0 warnings');
  });

  it('renders the same snippet imports in a project with code enabled (compiled as imports, props filling {prop}, built-in components inside)', async () => {
    const root = makeContentRoot({
      'docs.json': '{}',
      'index.mdx': 'import Greeting from "/snippets/greeting.mdx"\nimport { lampModel } from "/snippets/values.mdx"\n\n# Home\n\n<Greeting who="Ada" place="the lab" />\n\nModel {lampModel}.\n\n<Frame center shadow>\n  ![Plan](./plan.svg)\n</Frame>\n\n![Sketch](./sketch.png)\n',
      'plan.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"></svg>\n',
      'snippets/greeting.mdx': '<Note>Hello {who}, welcome to {place}.</Note>\n',
      'snippets/values.mdx': 'export const lampModel = "L-200";\n',
    });
    // An output directory that does not exist yet (as `npm run build:site -- <root> <new dir>` names one).
    const out = path.join(fs.mkdtempSync(path.join(root, '..', 'folio-out-')), 'site');
    const result = await buildSite({ contentRoot: root, outDir: out, allowCode: true, timeoutMs: 180_000 });
    expect(result.error).toBeUndefined();
    const home = text(article(fs.readFileSync(path.join(out, 'index.html'), 'utf8')));
    expect(home).toContain('Hello Ada, welcome to the lab.');
    expect(home).toContain('Model L-200.');
    // Relative images and props Mintlify ignores build with code too (code may not import images).
    expect(fs.readFileSync(path.join(out, 'index.html'), 'utf8')).toMatch(/<figure class="mint-frame[^"]*">[\s\S]*<img src="\/plan\.svg" alt="Plan"[\s\S]*<img src="\/sketch\.png" alt="Sketch"/);
    // The snippet's <Note> is Folio's callout, as on the page itself.
    expect(article(fs.readFileSync(path.join(out, 'index.html'), 'utf8'))).toMatch(/<aside[^>]*callout-note[\s\S]*Hello Ada, welcome to the lab\.[\s\S]*<\/aside>/);
  }, 180_000);

  it('refuses an import of a snippet that does not exist, or of a name it does not export', async () => {
    const root = makeContentRoot({
      'docs.json': '{}',
      'index.mdx': 'import Missing from "/snippets/missing.mdx"\nimport { nope } from "/snippets/values.mdx"\n\n# Home\n',
      'snippets/values.mdx': 'export const yes = "y"\n',
    });
    const { code, lines } = await checkSite(root);
    expect(code).toBe(1);
    expect(lines).toEqual([
      'index.mdx:1:1: import "/snippets/missing.mdx": no snippet snippets/missing.mdx in this content root',
      'index.mdx:2:1: import "/snippets/values.mdx": snippets/values.mdx has no export const nope = <literal value>',
      '1 pages, 1 refused, 0 warnings',
    ]);
  });
});

describe('Mintlify frontmatter', () => {
  it('writes robots noindex, and leaves noindex and hidden pages out of the sitemap and the search index', () => {
    expect(site.read('guides/secret/index.html')).toContain('<meta name="robots" content="noindex">');
    expect(site.read('guides/hidden-page/index.html')).toContain('<meta name="robots" content="noindex">');
    expect(site.read('index.html')).not.toContain('name="robots"');
    const sitemap = site.read('sitemap.xml');
    expect(sitemap).toContain('<loc>https://docs.example.org/guides/setup/</loc>');
    expect(sitemap).not.toContain('/guides/secret/');
    expect(sitemap).not.toContain('/guides/hidden-page/');
    expect(site.read('guides/secret/index.html')).not.toContain('data-pagefind-body');
    expect(site.read('guides/setup/index.html')).toContain('data-pagefind-body');
  });

  it('writes keywords, Open Graph and Twitter meta tags, the page\'s replacing the defaults', () => {
    const head = site.read('index.html').split('</head>')[0]!;
    expect(head).toContain('<meta name="keywords" content="lighting, photon budget">');
    expect(head).toContain('<meta property="og:image" content="https://cdn.example.org/lumen-card.png">');
    expect(head).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(head).toContain('<meta property="og:title" content="Lumen handbook · Lumen Docs">');
  });

  it('makes keywords findable by search without showing them', () => {
    expect(article(site.read('index.html'))).toMatch(/<p class="search-keywords" hidden[^>]*>lighting photon budget<\/p>/);
    // The home page's entry in Pagefind's index (gzipped fragments) holds them.
    const fragments = listFiles(path.join(site.out, 'pagefind/fragment')).map((f) => gunzipSync(fs.readFileSync(path.join(site.out, 'pagefind/fragment', f))).toString('utf8'));
    expect(fragments.find((f) => f.includes('"url":"/"'))).toContain('photon budget');
  });

  it('sets the page mode as a class for the theme', () => {
    expect(site.read('guides/setup/index.html')).toMatch(/<main class="content mode-wide"/);
    expect(site.read('index.html')).toMatch(/<main class="content mode-default"/);
  });

  it('names every frontmatter key it does not use in a warning of the build log', () => {
    expect(site.result.warnings).toEqual(expect.arrayContaining([
      '[folio] warning: guides/setup.mdx:1:1: frontmatter "customThing" is not a key Folio uses; it is ignored',
    ]));
    expect(site.result.warnings.join('\n')).not.toMatch(/"boost"|"searchable"/);
  });

  it('weighs a page\'s words in search by its boost, and leaves a searchable: false page out of search but not out of the sitemap', () => {
    expect(site.read('index.html')).toMatch(/<article id="content-area" class="mdx-content" data-pagefind-body[^>]* data-pagefind-weight="2.5"/);
    expect(site.read('guides/setup/index.html')).toMatch(/<article id="content-area" class="mdx-content" data-pagefind-body[^>]* data-pagefind-weight="3"/);
    expect(site.read('guides/markdown/index.html')).not.toContain('data-pagefind-body');
    expect(site.read('guides/markdown/index.html')).not.toContain('name="robots"');
    expect(site.read('sitemap.xml')).toContain('<loc>https://docs.example.org/guides/markdown/</loc>');
    const fragments = listFiles(path.join(site.out, 'pagefind/fragment')).map((f) => gunzipSync(fs.readFileSync(path.join(site.out, 'pagefind/fragment', f))).toString('utf8'));
    expect(fragments.some((f) => f.includes('"url":"/guides/setup/"'))).toBe(true);
    expect(fragments.some((f) => f.includes('"url":"/guides/markdown/"'))).toBe(false);
  });

  it('keeps the hidden page reachable at its address', () => {
    expect(sidebarOf(site.read('index.html'))).toBeTruthy();
    expect(text(article(site.read('guides/hidden-page/index.html')))).toContain('Reachable by its address only.');
  });
});

// Forms found building real Mintlify repositories (issue 9) that Mintlify renders.
describe('what real repositories write', () => {
  it('ignores a prop a built-in component does not take, as Mintlify does, naming it in a warning', () => {
    expect(site.result.warnings).toEqual(expect.arrayContaining([
      '[folio] warning: guides/markdown.mdx:42:1: <Frame> has no prop "border"; it is ignored; its props: caption, hint, className',
      '[folio] warning: guides/markdown.mdx:42:1: <Frame> has no prop "shadow"; it is ignored; its props: caption, hint, className',
    ]));
    const frame = /<figure class="mint-frame[\s\S]*?<\/figure>/.exec(article(site.read('guides/markdown/index.html')))?.[0] ?? '';
    expect(text(frame)).toContain('How the lamp is wired');
    expect(frame).not.toMatch(/border|shadow/);
  });

  it('shows an image addressed relative to its page from the file beside it, and builds a page whose image is missing', () => {
    const page = article(site.read('guides/markdown/index.html'));
    expect(page).toMatch(/<img src="\/guides\/wiring\.svg" alt="Wiring of the lamp"/);
    expect(site.read('guides/wiring.svg')).toContain('<svg');
    expect(page).toMatch(/<img src="\/guides\/prototype\.png" alt="The first prototype"/);
    expect(site.result.warnings).toContain('[folio] warning: guides/markdown.mdx: image ./prototype.png: no file guides/prototype.png in the content root; the page shows a broken image');
  });

  it('sets a heading\'s anchor from {#id}, as Mintlify does, and refuses any other attribute after a heading', async () => {
    const html = site.read('guides/markdown/index.html');
    expect(article(html)).toMatch(/<h2 id="wiring">Wiring diagram/);
    expect(html).toMatch(/<aside class="toc"[\s\S]*href="#wiring"/);
    const root = makeContentRoot({ 'docs.json': '{}', 'index.mdx': '# Home\n\n## Big {.huge}\n\n## Handler {data-x=1 onclick=alert(1)}\n' });
    const { code, lines } = await checkSite(root);
    expect(code).toBe(1);
    expect(lines).toContain('index.mdx:3:1: heading attribute .class is not allowed: only {#id} may follow a heading (it sets the heading\'s anchor)');
    expect(lines).toContain('index.mdx:5:1: heading attribute "onclick" is not allowed: only {#id} may follow a heading (it sets the heading\'s anchor)');
  });

  it('refuses an expression in a prop the component does not take, as in any other prop', async () => {
    const root = makeContentRoot({ 'docs.json': '{}', 'index.mdx': '# Home\n\n<Frame shadow={globalThis.process}>x</Frame>\n' });
    const { code, lines } = await checkSite(root);
    expect(code).toBe(1);
    expect(lines).toContain('index.mdx:3:1: attribute shadow={globalThis.process} on <Frame> is not allowed: only literal values; anything else is code: enable code for this project with allow_code: true (npm run build:site -- --allow-code; see "Code in pages" in the docs) to use it');
  });
});

describe('npm run check:site', () => {
  it('prints the warnings grouped by kind (each one with --all-warnings) and a summary, and exits 0 when nothing is refused', async () => {
    const root = fixtureCopy();
    const { code, lines } = await checkSite(root);
    expect(code).toBe(0);
    expect(lines).toEqual([
      'warnings by kind: 4 warnings of 3 kinds (--all-warnings lists every one)',
      '  2 × <…> has no prop "…"; it is ignored; its props: caption, hint, className',
      '      guides/markdown.mdx:42:1: <Frame> has no prop "border"; it is ignored; its props: caption, hint, className',
      '      guides/markdown.mdx:42:1: <Frame> has no prop "shadow"; it is ignored; its props: caption, hint, className',
      '  1 × not served: an HTML or XML file would run its scripts as the site',
      '      legacy/embed.html:1:1: not served: an HTML or XML file would run its scripts as the site',
      '  1 × frontmatter "…" is not a key Folio uses; it is ignored',
      '      guides/setup.mdx:1:1: frontmatter "customThing" is not a key Folio uses; it is ignored',
      '5 pages, 0 refused, 4 warnings',
    ]);
    const all = await run(process.execPath, [path.join(repoRoot, 'scripts/check-site.ts'), root, '--all-warnings'], { cwd: repoRoot });
    expect(all.stdout.trim().split('\n')).toEqual([
      'legacy/embed.html:1:1: warning: not served: an HTML or XML file would run its scripts as the site',
      'guides/markdown.mdx:42:1: warning: <Frame> has no prop "border"; it is ignored; its props: caption, hint, className',
      'guides/markdown.mdx:42:1: warning: <Frame> has no prop "shadow"; it is ignored; its props: caption, hint, className',
      'guides/setup.mdx:1:1: warning: frontmatter "customThing" is not a key Folio uses; it is ignored',
      '5 pages, 0 refused, 4 warnings',
    ]);
  });

  it('checks Folio\'s own layout too, and answers usage errors with exit code 2', async () => {
    const { code, lines } = await checkSite(repoRoot);
    expect(code).toBe(0);
    expect(lines.at(-1)).toMatch(/^\d+ pages, 0 refused, 0 warnings$/);
    const usage = await run(process.execPath, [path.join(repoRoot, 'scripts/check-site.ts')], { cwd: repoRoot }).catch((e: { code: number; stderr: string }) => e);
    expect(usage).toMatchObject({ code: 2, stderr: expect.stringContaining('usage: npm run check:site -- <content-root>') });
  });
});

describe('the Markdown authors rely on', () => {
  const page = () => article(site.read('guides/markdown/index.html'));
  const blocks = () => page().split(/<div class="code-block(?=[ "])/).slice(1);

  it('renders each code block as div.code-block with data-title, data-language, a title bar and a Copy button above the code', () => {
    const [titled, plain] = blocks();
    expect(titled).toMatch(/^ lines wrap" data-title="lamp\/client\.ts" data-language="ts" data-icon="code"><div class="code-block-bar"><svg[^>]*>.*?<\/svg><span class="code-block-title">lamp\/client\.ts<\/span><button type="button" class="code-block-copy"[^>]*>Copy<\/button><\/div><pre/);
    expect(plain).toMatch(/^" data-title="" data-language="bash"><div class="code-block-bar"><span class="code-block-title">bash<\/span>/);
  });

  it('highlights the lines named in {2,4-5}', () => {
    const lines = blocks()[0]!.split('<span class="line').slice(1).map((l) => l.startsWith(' highlighted'));
    expect(lines).toEqual([false, true, false, true, true]);
  });

  it('reads Shiki\'s diff and focus notations, and unfolds expandable blocks with a button', () => {
    const changes = blocks()[2]!;
    expect(changes).toMatch(/^ expandable" data-title="Changes" data-language="js">/);
    expect(changes).toContain('<button type="button" class="code-block-expand" aria-expanded="false">Expand</button>');
    expect(changes).toContain('<span class="line diff remove">');
    expect(changes).toContain('<span class="line diff add">');
    expect(changes).toContain('<span class="line focused">');
    expect(changes).not.toContain('[!code');
  });

  it('typesets $…$ and $$…$$ at build time with KaTeX, served from the site, and leaves prices alone', () => {
    expect(page()).toMatch(/Energy is <span class="katex">.*<annotation encoding="application\/x-tex">E = mc\^2<\/annotation>/);
    expect(page()).toContain('<div class="math-display"><span class="katex-display">');
    expect(text(page())).toContain('a lamp costs $5 or $10.');
    expect(site.read('guides/markdown/index.html')).toContain('<link rel="stylesheet" href="/_folio/vendor/katex/katex.min.css">');
    expect(site.exists('_folio/vendor/katex/katex.min.css')).toBe(true);
    expect(listFiles(path.join(site.out, '_folio/vendor/katex/fonts')).some((f) => f.endsWith('.woff2'))).toBe(true);
  });

  it('turns ```mermaid into a diagram drawn by a self-hosted Mermaid, loaded only on pages with one', () => {
    expect(page()).toContain('<div class="mermaid-diagram"><pre class="mermaid">graph TD\n  Switch --&gt; Lamp</pre></div>');
    expect(page()).toContain('<script src="/_folio/vendor/mermaid/mermaid.min.js" defer></script>');
    expect(site.exists('_folio/vendor/mermaid/mermaid.min.js')).toBe(true);
    expect(site.read('guides/setup/index.html')).not.toContain('mermaid');
  });

  it('keeps className for light/dark images, with the utility classes defined for the theme', () => {
    expect(page()).toContain('<img class="block dark:hidden" src="/images/lamp.svg" alt="Lamp in light mode"');
    expect(page()).toContain('<img class="hidden dark:block" src="/images/lamp.svg" alt="Lamp in dark mode"');
    const css = listFiles(path.join(site.out, '_astro')).filter((f) => f.endsWith('.css')).map((f) => site.read(`_astro/${f}`)).join('');
    expect(css).toMatch(/\[data-theme=(?:'dark'|"dark"|dark)\] \.dark\\:hidden\{display:none\}/);
    expect(css).toMatch(/\[data-theme=(?:'dark'|"dark"|dark)\] \.dark\\:block\{display:block\}/);
  });

  it('renders <video>, and <iframe> embeds of allowed hosts with Folio\'s sandbox (the author\'s is replaced)', () => {
    expect(page()).toContain('<video controls src="/api/demo.mp4"></video>');
    expect(page()).toMatch(/<iframe src="https:\/\/www\.youtube-nocookie\.com\/embed\/abc123" title="Lamp demo" allowFullScreen sandbox="allow-scripts allow-same-origin allow-presentation allow-popups allow-popups-to-escape-sandbox" referrerpolicy="strict-origin-when-cross-origin" loading="lazy"><\/iframe>/);
    expect(page()).not.toContain('allow-top-navigation');
  });

  it('refuses an iframe of any other host, and srcdoc', async () => {
    const root = makeContentRoot({
      'docs.json': '{}',
      'index.mdx': '# Home\n\n<iframe src="https://evil.example/x" />\n\n<iframe srcdoc="<script>1</script>" />\n',
    });
    const { code, lines } = await checkSite(root);
    expect(code).toBe(1);
    expect(lines[0]).toMatch(/^index\.mdx:3:1: <iframe src="https:\/\/evil\.example\/x"> is not allowed: an iframe may embed only pages of www\.youtube-nocookie\.com, www\.youtube\.com, player\.vimeo\.com, www\.loom\.com/);
    expect(lines[1]).toBe('index.mdx:5:1: the srcdoc attribute of <iframe> is not allowed (it would put a page of its own on the site)');
  });
});

describe('in a browser (Chromium)', () => {
  let browser: Browser;
  let server: Awaited<ReturnType<typeof serveWithFolio>>;
  beforeAll(async () => {
    server = await serveWithFolio(site.out);
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('draws the diagram and the math under the site\'s Content-Security-Policy; Copy sits beside the code and copies it', async () => {
    const context = await browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (m) => m.type() === 'error' && violations.push(m.text()));
    await page.goto(`${server.url}/guides/markdown/`);
    await page.locator('.mermaid-diagram svg').waitFor({ timeout: 20_000 });
    expect(await page.locator('.mermaid-diagram svg').textContent()).toContain('Lamp');
    // KaTeX's stylesheet applies: its HTML rendering is laid out, its MathML copy hidden.
    expect(await page.locator('.katex-mathml').first().evaluate((el) => getComputedStyle(el).position)).toBe('absolute');
    const bash = page.locator('.code-block[data-language="bash"]');
    const button = await bash.locator('.code-block-copy').boundingBox();
    const code = await bash.locator('pre').boundingBox();
    expect(button!.y + button!.height).toBeLessThanOrEqual(code!.y);
    await bash.locator('.code-block-copy').click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('npm install lumen-sdk');
    const diff = page.locator('.code-block[data-title="Changes"]');
    await diff.locator('.code-block-copy').click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('const a = 2; \nfocusHere(); ');
    await diff.locator('.code-block-expand').click();
    expect(await diff.getAttribute('class')).toContain('expanded');
    expect(violations.filter((v) => /Content Security Policy/i.test(v))).toEqual([]);
    await context.close();
  }, 60_000);
});
