// Custom CSS and JavaScript of a repository in Mintlify's layout (docs/decisions.md#custom-css-and-javascript):
// every .css file of the root is linked into every page after Folio's own styles, and a stylesheet
// written against the ids and classes Mintlify documents (#navbar, #sidebar-content, .card, .toc-item…)
// restyles Folio's pages, seen in Chromium through Folio's own serving (its Content-Security-Policy
// included). What that policy will not load (another origin's @import or font) is a warning naming
// file:line:col; .js files run only in projects with code, and are a warning otherwise.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser.ts';
import { buildSite, type BuildSiteResult } from '../../src/builder/build.ts';
import { blockedLoads } from '../../src/site/custom-files.ts';
import { checkSite, makeContentRoot, serveWithFolio } from './helpers.ts';

const LANTERN = {
  'docs.json': JSON.stringify({
    name: 'Lantern Works',
    navbar: { primary: { type: 'button', label: 'Order a lantern', href: 'https://shop.example.com/' } },
    navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/wicks'] }] },
  }),
  'index.mdx': `---
title: Lantern basics
---

## Lighting up

<Note>Keep the glass clean.</Note>

<CardGroup cols={2}>
  <Card title="Wicks">Cotton or fibreglass.</Card>
  <Card title="Oil">Paraffin burns cleanest.</Card>
</CardGroup>

<Steps>
  <Step title="Trim the wick">Cut it straight.</Step>
</Steps>

<Badge color="blue" size="sm">Tested</Badge>

<div className="lantern-box">A box styled by the repository's own class.</div>

## Storing
`,
  'guides/wicks.mdx': '---\ntitle: Wicks\n---\n\nA second page, so the sidebar has a link that is not the current one.\n',
  // The repository's stylesheets: one at the top, one in a folder with a space in its name.
  'style.css': `@import url("https://fonts.example.com/css2?family=Lantern");
@import "shared/extra layer.css";
/* A comment naming url(https://ignored.example/x.css) is not a load. */
#navbar { background-color: rgb(12, 34, 56); }
#sidebar-content li[data-active] > a { color: rgb(200, 10, 10); }
.card { border-top-color: rgb(0, 128, 0); }
.card-group { row-gap: 42px; }
#content-area .callout { padding-left: 29px; }
#table-of-contents .toc-item a { color: rgb(1, 2, 3); }
[data-badge][data-color="blue"] { text-transform: uppercase; }
.steps .step { margin-left: 31px; }
.lantern-box { background-color: rgb(255, 200, 0); }
@font-face {
  font-family: Lantern;
  src: url(fonts/lantern.woff2) format("woff2"), url('https://fonts.example.com/lantern.woff2');
}
`,
  'shared/extra layer.css': '#page-title { letter-spacing: 3px; }\n#footer { padding-top: 77px; }\n#topbar-cta-button { letter-spacing: 2px; }\n',
  // Runs on every page only with code: it marks the document.
  'analytics.js': 'document.documentElement.dataset.lantern = "lit";\n',
  'snippets/helper.js': 'document.documentElement.dataset.snippet = "ran";\n',
};

const FONT_IMPORT = 'style.css:1:1: @import of "https://fonts.example.com/css2?family=Lantern" is not loaded';
const FONT_SOURCE = `style.css:15:50: font "https://fonts.example.com/lantern.woff2" is not loaded`;
const SCRIPT_NOT_RUN = 'analytics.js:1:1: not run: custom JavaScript runs on every page only in projects with code enabled (allow_code)';

interface Built {
  result: BuildSiteResult;
  out: string;
}

async function build(root: string, allowCode: boolean): Promise<Built> {
  const out = fs.mkdtempSync(path.join(path.dirname(root), 'folio-custom-out-'));
  const result = await buildSite({ contentRoot: root, outDir: out, allowCode, timeoutMs: 180_000 });
  if (!result.ok) throw new Error(result.log.join('\n'));
  return { result, out };
}

/** A page of the served site, with the policy violations its document reported. */
async function open(browser: Browser, url: string): Promise<{ page: Page; violations: () => Promise<string[]> }> {
  const page = await browser.newPage();
  // Before the page's own scripts, and not subject to its policy (Playwright injects it).
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { violations: string[] }).violations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.effectiveDirective} ${event.blockedURI}`));
  });
  await page.goto(url, { waitUntil: 'load' });
  return { page, violations: () => page.evaluate(() => (window as unknown as { violations: string[] }).violations) };
}

const style = (page: Page, selector: string, property: string) =>
  page.locator(selector).first().evaluate((element, name) => getComputedStyle(element).getPropertyValue(name), property);

let browser: Browser;
let root: string;
let plain: Built;
let code: Built;
beforeAll(async () => {
  root = makeContentRoot(LANTERN);
  // One after the other: two builds at once would only compete for the machine's cores.
  plain = await build(root, false);
  code = await build(root, true);
  browser = await launchChromium();
}, 420_000);
afterAll(async () => {
  await browser?.close();
});

describe('custom CSS of a Mintlify repository', () => {
  it('links every stylesheet of the root into every page, after Folio\'s own, at its served address', () => {
    for (const page of ['index.html', 'guides/wicks/index.html', '404.html']) {
      const html = fs.readFileSync(path.join(plain.out, page), 'utf8');
      const links = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]);
      expect(links.filter((href) => !href.startsWith('/_astro/')), page).toEqual(['/shared/extra%20layer.css', '/style.css']);
      expect(links.findIndex((href) => !href.startsWith('/_astro/')), page).toBe(links.length - 2);
    }
    expect(fs.readFileSync(path.join(plain.out, 'shared/extra layer.css'), 'utf8')).toContain('#page-title');
  });

  it('restyles the navbar, sidebar, content, table of contents, callouts, cards, steps, badges and footer through the names Mintlify documents', async () => {
    const server = await serveWithFolio(plain.out);
    try {
      const { page, violations } = await open(browser, `${server.url}/`);
      expect(await style(page, '#navbar', 'background-color')).toBe('rgb(12, 34, 56)');
      expect(await style(page, '#sidebar-content li[data-active] > a', 'color')).toBe('rgb(200, 10, 10)');
      expect(await page.locator('#sidebar-content li[data-active] > a').textContent()).toBe('Lantern basics');
      // Same specificity as Folio's own card rule: the author's wins because it comes later.
      expect(await style(page, '.card', 'border-top-color')).toBe('rgb(0, 128, 0)');
      expect(await style(page, '.card-group', 'row-gap')).toBe('42px');
      expect(await style(page, '#content-area .callout', 'padding-left')).toBe('29px');
      expect(await style(page, '#table-of-contents .toc-item a', 'color')).toBe('rgb(1, 2, 3)');
      // The section being read: its item is marked once the page's script has looked.
      await page.locator('#table-of-contents .toc-item[data-active]').waitFor();
      expect(await page.locator('#table-of-contents .toc-item[data-active]').allTextContents()).toEqual(['Lighting up']);
      expect(await style(page, '[data-badge][data-color="blue"]', 'text-transform')).toBe('uppercase');
      expect(await style(page, '.steps .step', 'margin-left')).toBe('31px');
      expect(await style(page, '.lantern-box', 'background-color')).toBe('rgb(255, 200, 0)');
      // From the second stylesheet (a folder and file name with a space).
      expect(await style(page, '#page-title', 'letter-spacing')).toBe('3px');
      expect(await style(page, '#footer', 'padding-top')).toBe('77px');
      expect(await style(page, '#topbar-cta-button', 'letter-spacing')).toBe('2px');
      // What the policy forbids was never loaded: the other origin's stylesheet and font.
      await page.evaluate(() => document.fonts.load('1em Lantern').catch(() => undefined));
      expect((await violations()).sort()).toEqual(['font-src https://fonts.example.com/lantern.woff2', 'style-src-elem https://fonts.example.com/css2?family=Lantern']);
      // Without code, the repository's script is not on the page and did not run.
      expect(await page.evaluate(() => document.documentElement.dataset.lantern)).toBeUndefined();
      await page.close();
    } finally {
      await server.close();
    }
  });

  it('names each @import and font the site will not load, with file:line:col, in the build log and check:site', async () => {
    for (const expected of [FONT_IMPORT, FONT_SOURCE]) {
      expect(plain.result.warnings.some((line) => line.includes(expected)), expected).toBe(true);
    }
    // The same-origin @import, the relative font and the commented-out address are not warned about.
    expect(plain.result.warnings.filter((line) => /\.css:/.test(line))).toHaveLength(2);
    const { code: exit, lines } = await checkSite(root, ['--all-warnings']);
    expect(exit).toBe(0);
    expect(lines.some((line) => line.startsWith(`${FONT_IMPORT.replace(': @import', ': warning: @import')}`))).toBe(true);
    expect(lines.some((line) => line.startsWith(SCRIPT_NOT_RUN.replace(': not run', ': warning: not run')))).toBe(true);
  });
});

describe('custom JavaScript of a Mintlify repository', () => {
  it('without code: a warning naming each file, and the pages build without it', () => {
    expect(plain.result.warnings.filter((line) => line.includes('custom JavaScript'))).toEqual([`[folio] warning: ${SCRIPT_NOT_RUN}; without it the file is only served as it is`]);
    expect(fs.readFileSync(path.join(plain.out, 'index.html'), 'utf8')).not.toContain('analytics.js');
  });

  it('with code: runs on every page (never a snippet\'s file), with no warning', async () => {
    expect(code.result.warnings.filter((line) => line.includes('custom JavaScript'))).toEqual([]);
    const html = fs.readFileSync(path.join(code.out, 'guides/wicks/index.html'), 'utf8');
    expect(html).toContain('<script defer src="/analytics.js"></script>');
    expect(html).not.toContain('helper.js');
    const server = await serveWithFolio(code.out, { allowCode: true });
    try {
      const { page } = await open(browser, `${server.url}/guides/wicks/`);
      expect(await page.evaluate(() => document.documentElement.dataset.lantern)).toBe('lit');
      expect(await page.evaluate(() => document.documentElement.dataset.snippet)).toBeUndefined();
      expect(await style(page, '#navbar', 'background-color')).toBe('rgb(12, 34, 56)');
      await page.close();
    } finally {
      await server.close();
    }
  });
});

describe('what a stylesheet loads (blockedLoads)', () => {
  it('reads past comments and strings, and tells fonts from images', () => {
    const css = [
      '/* @import "https://a.example/x.css"; */',
      '.a::before { content: "@import url(https://b.example/y.css)"; background: url(https://img.example/bg.png); }',
      '@media print { @font-face { src: url(//c.example/f.woff) } }',
      '@font-face { src: url(data:font/woff2;base64,AAAA), local(Arial); }',
      "@import 'data:text/css,a{}';",
    ].join('\n');
    expect(blockedLoads(css).map(({ line, column }) => `${line}:${column}`)).toEqual(['3:34', '5:1']);
  });

});
