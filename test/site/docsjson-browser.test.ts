// docs.json navigation in a real browser, on one built site with versions and languages (the
// multi-site fixture) served by Folio's site handler: the version and language switchers keep the
// reader on the same page, tabs lead to their section, redirects answer (followed by the browser),
// each language has its own search index and each version its own search filter.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { buildFixture, serveWithFolio } from './helpers.ts';
import { MULTI_SITE_FILES } from './fixtures/multi-site.ts';
import { launchChromium } from '../helpers/browser.ts';

const CHROMIUM = '/usr/bin/chromium';
let browser: Browser;
let server: Awaited<ReturnType<typeof serveWithFolio>>;
let site: Awaited<ReturnType<typeof buildFixture>>;

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`this test needs Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  site = await buildFixture(MULTI_SITE_FILES);
  expect(site.result.error).toBeUndefined();
  expect(site.result.warnings).toEqual([
    expect.stringMatching(/^\[folio\] warning: docs\.json:\d+:\d+: interaction: not supported by Folio yet: ignored$/),
    expect.stringMatching(/^\[folio\] warning: docs\.json:\d+:\d+: fonts\.body\.source: a font on another host is not loaded \(Folio serves fonts from the site itself\)/),
  ]);
  server = await serveWithFolio(site.out);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens a header switcher (a <details>; the phone drawer repeats it) and follows its option named `label`. */
async function switchTo(page: Page, kind: 'versions' | 'languages', label: string): Promise<void> {
  const from = new URL(page.url()).pathname;
  await page.click(`.site-header .switcher-${kind} > summary`);
  await Promise.all([page.waitForURL((url) => url.pathname !== from), page.locator(`.site-header .switcher-${kind} a.switcher-option`).filter({ hasText: label }).click()]);
}

describe('versions and languages', () => {
  it('the version switcher keeps the page, both ways, and falls back to the version’s first page', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/quickstart/`);
    expect(await page.textContent('.switcher-versions > summary')).toBe('v2');
    await switchTo(page, 'versions', 'v1');
    expect(new URL(page.url()).pathname).toBe('/v1/quickstart/');
    expect(await page.textContent('h1')).toBe('Quickstart (v1)');
    expect(await page.getAttribute('html', 'data-version')).toBe('v1');
    await switchTo(page, 'versions', 'v2');
    expect(new URL(page.url()).pathname).toBe('/quickstart/');
    await page.goto(`${server.url}/guides/upgrade/`);
    await switchTo(page, 'versions', 'v1');
    expect(new URL(page.url()).pathname).toBe('/v1/');
    await page.close();
  });

  it('the language switcher keeps the page and sets <html lang>, with hreflang alternates', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/quickstart/`);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    await switchTo(page, 'languages', 'Español');
    expect(new URL(page.url()).pathname).toBe('/es/quickstart/');
    expect(await page.getAttribute('html', 'lang')).toBe('es');
    expect(await page.textContent('h1')).toBe('Inicio rápido');
    expect(await page.locator('link[rel="alternate"][hreflang="en"]').getAttribute('href')).toBe('/quickstart/');
    // Spanish has its own sidebar.
    expect(await page.locator('#sidebar a').allTextContents()).toEqual(expect.arrayContaining(['Bienvenido a Lantern', 'Inicio rápido']));
    expect(await page.locator('#sidebar a:text-is("Wicks")').count()).toBe(0);
    await switchTo(page, 'languages', 'English');
    expect(new URL(page.url()).pathname).toBe('/quickstart/');
    await page.close();
  });

  it('tabs lead to their section and mark the current one', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/quickstart/`);
    await Promise.all([page.waitForURL('**/reference/cli/'), page.click('.site-tabs a:text-is("Reference")')]);
    expect(await page.getAttribute('.site-tabs a[aria-current="page"]', 'href')).toBe('/reference/cli/');
    // The drawer's copy of the header links and switchers (shown on phones) aside: the section's own links.
    expect(await page.locator('#sidebar > :not(.drawer-extras) a').allTextContents()).toEqual(['Community', 'CLI reference']);
    await page.close();
  });

  it('search covers the reader’s language (an index per <html lang>) and version (a filter)', async () => {
    const page = await browser.newPage();
    // A string, so the test runner leaves the browser's own import() alone.
    const search = (term: string, version?: string): Promise<string[]> =>
      page.evaluate(`(async () => {
        const pagefind = await import('/pagefind/pagefind.js');
        const { results } = await pagefind.search(${JSON.stringify(term)}, ${version ? JSON.stringify({ filters: { version } }) : 'undefined'});
        return Promise.all(results.map(async (r) => (await r.data()).url));
      })()`);
    await page.goto(`${server.url}/v1/`);
    expect(await search('oldwaymarker', 'v1')).toEqual(['/v1/quickstart/']);
    await page.goto(`${server.url}/quickstart/`);
    expect(await search('oldwaymarker', await page.getAttribute('html', 'data-version') ?? undefined)).toEqual([]);
    expect(await search('linterna')).toEqual([]);
    await page.goto(`${server.url}/es/`);
    expect(await search('linterna')).toEqual(['/es/quickstart/']);
    await page.close();
  });
});

describe('a language’s and a version’s own header links, footer and banner', () => {
  it('Spanish pages show Spanish links, footer and banner; v1 its banner; the rest the site’s', () => {
    const es = site.read('es/quickstart/index.html');
    expect(es).toContain('>Estado</a>');
    expect(es).not.toContain('>Status</a>');
    expect(es).toContain('<p class="footer-header">Empresa</p>');
    expect(es).not.toContain('>Company<');
    expect(es).toContain('Lantern 2 ya está aquí.');
    expect(site.read('v1/quickstart/index.html')).toContain('You are reading the docs of Lantern 1.');
    const en = site.read('quickstart/index.html');
    expect(en).toContain('>Status</a>');
    expect(en).toContain('<p class="footer-header">Company</p>');
    expect(en).toContain('upgrade guide</a>');
  });
});

describe('fonts and background', () => {
  it('serve the heading font from the site (preloaded, swapped in), never the body font from another host, over the background colour and decoration', async () => {
    const html = site.read('quickstart/index.html');
    expect(html).toContain('<link rel="preload" href="/fonts/lantern-serif.woff2" as="font" type="font/woff2" crossorigin>');
    expect(html).toContain('@font-face{font-family:"Lantern Serif";src:url("/fonts/lantern-serif.woff2") format("woff2");font-weight:600;font-display:swap}');
    expect(html).not.toContain('fonts.example.com');
    // Both families are set: the theme's own font is not preloaded.
    expect(html).not.toMatch(/rel="preload" href="\/_astro\/inter-/);
    const page = await browser.newPage();
    await page.goto(`${server.url}/quickstart/`);
    const look = await page.evaluate(() => ({
      heading: getComputedStyle(document.querySelector('h1')!).fontFamily,
      headingWeight: getComputedStyle(document.querySelector('h1')!).fontWeight,
      body: getComputedStyle(document.body).fontFamily,
      background: getComputedStyle(document.body).backgroundColor,
      decoration: getComputedStyle(document.body, '::before').backgroundImage,
    }));
    expect(look.heading).toMatch(/^"Lantern Serif", "Inter Variable"/);
    expect(look.headingWeight).toBe('600');
    expect(look.body).toMatch(/^"Lantern Sans", "Inter Variable"/);
    // appearance.default is dark: the dark background colour.
    expect(look.background).toBe('rgb(11, 18, 16)');
    expect(look.decoration).toContain('linear-gradient');
    await page.close();
  });
});

describe('search engines', () => {
  it('keep hidden pages out of the sitemap (seo.indexing "navigable") and get docs.json meta tags', () => {
    const sitemap = site.read('sitemap.xml');
    expect(sitemap).toContain('<loc>/es/quickstart/</loc>');
    expect(sitemap).toContain('<loc>/v1/quickstart/</loc>');
    expect(sitemap).not.toContain('secret');
    expect(site.read('secret/index.html')).toContain('<meta name="robots" content="noindex">');
    expect(site.read('quickstart/index.html')).toContain('<meta property="og:site_name" content="Lantern">');
  });
});

describe('redirects in a browser', () => {
  it('follows docs.json redirects: exact, with a rest parameter, and from the banner link', async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${server.url}/old-start`);
    expect(new URL(page.url()).pathname).toBe('/quickstart');
    expect(response?.request().redirectedFrom()?.url()).toBe(`${server.url}/old-start`);
    await page.goto(`${server.url}/moved/deep/wicks`);
    expect(new URL(page.url()).pathname).toBe('/guides/deep/wicks');
    expect(await page.textContent('h1')).toBe('Wicks');
    await page.goto(`${server.url}/`);
    await Promise.all([page.waitForURL('**/guides/upgrade'), page.click('.site-banner a')]);
    expect(await page.textContent('h1')).toBe('Upgrade guide');
    await page.close();
  });

  it('shows the docs.json 404 page for paths no rule and no page match', async () => {
    const page = await browser.newPage();
    const response = await page.goto(`${server.url}/nothing/here`);
    expect(response?.status()).toBe(404);
    expect(await page.textContent('h1')).toBe('Lost in the dark');
    await page.close();
  });
});
