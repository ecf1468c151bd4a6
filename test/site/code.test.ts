// Projects with code (allow_code / build:site --allow-code): React components imported from .jsx
// files or defined with `export const` are rendered at build time and hydrated in a real browser;
// the same content without code enabled is refused with the page, the line and how to enable code;
// imports that leave the content root fail the build even with code enabled.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { buildSite, type AstroRunner } from '../../src/builder/build.ts';
import { CODE_ROOT, FIRST_CODE_LINE } from '../helpers/code-fixture.ts';
import { ROOT, runNode } from '../helpers/server.ts';
import { article, buildRoot, makeContentRoot, serveWithFolio, text } from './helpers.ts';

const CHROMIUM = '/usr/bin/chromium';
const BUILD_SITE = path.join(ROOT, 'scripts/build-site.ts');

let root: string;
let out: string;
let cli: Awaited<ReturnType<typeof runNode>>;

beforeAll(async () => {
  root = makeContentRoot(CODE_ROOT);
  out = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-code-out-'));
  cli = await runNode(BUILD_SITE, [root, out, '--allow-code'], {});
}, 180_000);

afterAll(() => {
  for (const dir of [root, out]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a build with code (build:site --allow-code)', () => {
  it('renders the React components into the page HTML', () => {
    expect(cli.stderr).not.toMatch(/build failed/);
    expect(cli.code).toBe(0);
    const html = article(fs.readFileSync(path.join(out, 'index.html'), 'utf8'));
    // Server-rendered output of each component, before any script runs.
    expect(text(html)).toContain('Pressed 3 times');
    expect(html).toMatch(/<li>quill \(first\)<\/li><li>ink<\/li><li>vellum<\/li>/);
    expect(html).toContain('<p class="greeting">Good morning, Ada.</p>');
    expect(html).toMatch(/<meter class="gauge" min="0" max="10" value="7">7<!-- --> of 10<\/meter>/);
    expect(text(html)).toContain('Text of the gauge snippet itself.');
    expect(text(html)).toContain('The built-in components still work beside React ones.');
    expect(text(html)).toContain('Written by the docs team.');
    // Each React component is an island hydrated on load (authors write no client: directive).
    expect(html.match(/<astro-island[^>]*client="load"/g)).toHaveLength(5);
    expect(html).toContain('<em class="stamp">APPROVED</em>');
    expect(fs.readFileSync(path.join(out, 'plain/index.html'), 'utf8')).toContain('<strong>just Markdown</strong>');
  });

  it('hydrates the counter in a real browser: a click increments it', async () => {
    if (!fs.existsSync(CHROMIUM)) throw new Error(`this test needs Chromium at ${CHROMIUM}: apt-get install -y chromium`);
    // Served as Folio serves a project with code: its Content-Security-Policy lets its islands run.
    const server = await serveWithFolio(out, { allowCode: true });
    let browser: Browser | undefined;
    try {
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${server.url}/`);
      // An island drops its `ssr` attribute once hydrated.
      await page.waitForSelector('astro-island:not([ssr]) button.tally');
      const button = page.locator('button.tally');
      await button.click();
      await button.click();
      await expect.poll(() => button.textContent()).toBe('Pressed 5 times');
      expect(errors).toEqual([]);
    } finally {
      await browser?.close();
      await server.close();
    }
  });
});

describe('the same content without code enabled', () => {
  it('is refused naming the page, the line and how to enable code', async () => {
    const site = await buildRoot(makeContentRoot(CODE_ROOT));
    expect(site.result.ok).toBe(false);
    expect(site.result.error?.code).toBe('content_invalid');
    const first = site.result.error!.message.split('\n')[0];
    expect(first).toContain(`${FIRST_CODE_LINE}: import and export are not allowed`);
    expect(first).toMatch(/enable .*allow_code/);
  });
});

describe('imports that leave the content root, even with code enabled', () => {
  const page = (importLine: string) => ({ 'content/index.mdx': `${importLine}\n\n# Reach\n\n<Reach />\n` });
  const snippet = (importLine: string) => ({
    'content/index.mdx': "import Reach from '/snippets/reach.jsx';\n\n# Reach\n\n<Reach />\n",
    'snippets/reach.jsx': `${importLine}\n\nexport default function Reach() {\n  return <p>{String(typeof outside)}</p>;\n}\n`,
  });
  const build = (files: Record<string, string>) => {
    const contentRoot = makeContentRoot(files);
    fs.writeFileSync(path.join(path.dirname(contentRoot), 'outside.js'), 'export default "outside";\n');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-code-out-'));
    // A build with code never runs in a shared warm worker, whatever runner it is given.
    const shared: AstroRunner = {
      start() {
        throw new Error('a build with code was given to a shared worker');
      },
    };
    return buildSite({ contentRoot, outDir: dir, allowCode: true, timeoutMs: 180_000, astro: shared });
  };

  // What tenants see names no path outside the content root: such a specifier may show as "…".
  const refusal = (where: string, specifier: string) =>
    new RegExp(`${where}: import "(?:${specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}|…)" is not allowed: code may import only`);

  const OUTSIDE = ['../../outside.js', 'node:fs', 'zod'];

  it('are refused by the content check in a page', async () => {
    for (const specifier of OUTSIDE) {
      const result = await build(page(`import Reach from '${specifier}';`));
      expect(result.error?.code, specifier).toBe('content_invalid');
      expect(result.error?.message).toMatch(refusal('content/index.mdx:1:1', specifier));
    }
  });

  it('fail the build when a code file imports them (the build runs in a fresh process of its own)', async () => {
    for (const specifier of OUTSIDE) {
      const result = await build(snippet(`import outside from '${specifier}';`));
      expect(result.error?.code, specifier).toBe('build_failed');
      expect(result.error?.message).toMatch(refusal('snippets/reach.jsx', specifier));
    }
  }, 120_000);
});
