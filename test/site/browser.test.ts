// A real browser on a built site served by Folio's hosting (with its Content-Security-Policy):
// badge colours come from the theme tokens (docs/decisions.md#content-root rule 3), stay readable in light and dark mode,
// the mode is remembered, search finds a page, written or generated from an OpenAPI file, and
// script injected into a page is refused by the browser.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { BADGE_METHODS } from '../../src/site/components/catalog.ts';
import { buildFixture, serveWithFolio } from './helpers.ts';
import { launchChromium } from '../helpers/browser.ts';

let browser: Browser;
let server: Awaited<ReturnType<typeof serveWithFolio>>;

const CHROMIUM = '/usr/bin/chromium';

/** One generated API reference page: /api-reference/create-a-gizmo/. */
const GIZMO_API = `openapi: 3.0.3
info: { title: Gizmos, version: '1' }
servers: [{ url: 'https://api.example.com' }]
paths:
  /gizmos/{shelf_identifier_that_is_rather_long}:
    post:
      operationId: createGizmo
      summary: Create a gizmo
      description: Builds one quokkagizmo on the shelf.
      parameters:
        - { name: shelf_identifier_that_is_rather_long, in: path, required: true, schema: { type: string } }
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                a_rather_long_property_name_for_a_narrow_screen: { type: string, description: A long description that has to wrap on a phone screen rather than push the page sideways. }
      responses:
        '201': { description: Created }
`;

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`this test needs Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  const site = await buildFixture({
    'docs.json': JSON.stringify({ name: 'Browser Test Documentation Site', colors: { info: { light: '#aa00aa', dark: '#f0a0f0' } }, openapi: 'openapi.yaml' }),
    'content/index.mdx': `# Badges\n\n${BADGE_METHODS.map((m) => `<ApiMethod method="${m.toLowerCase()}" />`).join(' ')}\n`,
    'content/guides/zebra.mdx': '---\ntitle: Striped animals\n---\n\nThe zebracorn is a rare striped creature.\n\n## Feeding\n\n```bash\necho "hay"\n```\n',
    'openapi.yaml': GIZMO_API,
  });
  expect(site.result.error).toBeUndefined();
  expect(site.result.warnings).toEqual([]); // a root without _snippets/ is fine
  server = await serveWithFolio(site.out);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const badgeColor = (page: Page, method: string) =>
  page.locator(`article .api-method[data-method="${method}"]`).evaluate((el) => getComputedStyle(el).color);

/** WCAG contrast of every badge's text against its own (tinted) background. */
async function badgeContrasts(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() => {
    const canvas = document.createElement('canvas').getContext('2d')!;
    const rgb = (css: string) => {
      canvas.fillStyle = '#000';
      canvas.fillStyle = css;
      canvas.fillRect(0, 0, 1, 1);
      return [...canvas.getImageData(0, 0, 1, 1).data.slice(0, 3)];
    };
    const lum = (c: number[]) => {
      const [r, g, b] = c.map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const out: Record<string, number> = {};
    for (const el of document.querySelectorAll<HTMLElement>('.api-method')) {
      const style = getComputedStyle(el);
      const [a, b] = [lum(rgb(style.color)), lum(rgb(style.backgroundColor))];
      out[el.dataset.method!] = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    }
    return out;
  });
}

describe('in a browser', () => {
  it('colours a GET badge from --docs-success, and follows a token override', async () => {
    const page = await browser.newPage({ colorScheme: 'light' });
    await page.goto(`${server.url}/`);
    expect(await badgeColor(page, 'GET')).toBe('rgb(22, 101, 52)'); // the default light --docs-success
    expect(await badgeColor(page, 'POST')).toBe('rgb(170, 0, 170)'); // docs.json colors.info
    await page.evaluate(() => document.documentElement.style.setProperty('--docs-success', 'rgb(1, 2, 3)'));
    expect(await badgeColor(page, 'GET')).toBe('rgb(1, 2, 3)');
    expect(await badgeColor(page, 'DELETE')).toBe('rgb(185, 28, 28)'); // other badges keep their tokens
    await page.close();
  });

  it('keeps every badge readable (contrast at least 4.5:1) in light and dark mode', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await browser.newPage({ colorScheme });
      await page.goto(`${server.url}/`);
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(colorScheme);
      const contrasts = await badgeContrasts(page);
      expect(Object.keys(contrasts).sort()).toEqual([...BADGE_METHODS].sort());
      for (const [method, ratio] of Object.entries(contrasts)) expect(ratio, `${colorScheme} ${method}`).toBeGreaterThanOrEqual(4.5);
      await page.close();
    }
  });

  it('switches to dark mode and remembers the choice on the next page', async () => {
    const context = await browser.newContext({ colorScheme: 'light' });
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await page.click('.theme-toggle');
    expect(await badgeColor(page, 'GET')).toBe('rgb(74, 222, 128)'); // the dark --docs-success
    await page.goto(`${server.url}/guides/zebra`);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await context.close();
  });

  it('fits a phone screen: no sideways scrolling, the sidebar behind a menu button', async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 700 } });
    await page.goto(`${server.url}/guides/zebra/`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await page.isVisible('#sidebar a[href="/guides/zebra/"]')).toBe(false);
    await page.click('.menu-button');
    await page.locator('#sidebar a[href="/guides/zebra/"]').waitFor({ state: 'visible' });
    expect(await page.getAttribute('.menu-button', 'aria-expanded')).toBe('true');
    await page.close();
  });

  it('copies a code block with its Copy button, and links headings', async () => {
    const context = await browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const page = await context.newPage();
    await page.goto(`${server.url}/guides/zebra/`);
    await page.click('.code-block-copy');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('echo "hay"');
    expect(await page.textContent('.code-block-copy')).toBe('Copied');
    expect(await page.getAttribute('#feeding .heading-anchor', 'href')).toBe('#feeding');
    await context.close();
  });

  it('shows a generated API page: the badge beside the title in its token colour, copyable curl, fits a phone', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 700 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const page = await context.newPage();
    await page.goto(`${server.url}/api-reference/create-a-gizmo/`);
    const badge = page.locator('h1 .api-method[data-method="POST"]');
    expect(await badge.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(170, 0, 170)'); // docs.json colors.info
    expect(await page.locator('h1').textContent()).toBe('POST Create a gizmo');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.locator('.openapi-curl + .copy-button').click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain("curl -X POST 'https://api.example.com/gizmos/<shelf_identifier_that_is_rather_long>'");
    await context.close();
  });

  it('finds a generated API page with the search box', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    await page.click('.search-button');
    await page.fill('.search-input', 'quokkagizmo');
    const result = page.locator('.search-results a').first();
    await result.waitFor({ timeout: 10_000 });
    expect(await result.getAttribute('href')).toBe('/api-reference/create-a-gizmo/');
    expect(await result.textContent()).toContain('Create a gizmo');
    await page.close();
  });

  it('finds a page with the search dialog (opened with "/", closed with Escape)', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    await page.keyboard.press('/');
    await page.keyboard.type('zebracorn');
    const result = page.locator('.search-results a').first();
    await result.waitFor({ timeout: 10_000 });
    expect(await result.getAttribute('href')).toBe('/guides/zebra/');
    expect(await result.textContent()).toContain('Striped animals');
    await page.keyboard.press('Escape');
    expect(await page.locator('.search-dialog').isVisible()).toBe(false);
    await page.close();
  });
});

describe('the Content-Security-Policy in a browser', () => {
  it('refuses script injected into a served page (inline handler, inline and foreign script, a foreign frame) and reports it', async () => {
    // A check gap, simulated: markup the content rules would refuse, written into a built page.
    const zebra = fs.readFileSync(`${server.dir}/guides/zebra/index.html`, 'utf8');
    const injected = [
      '<img src="/no-such-image.png" onerror="window.__injected = (window.__injected || 0) + 1">',
      '<script>window.__injected = (window.__injected || 0) + 1</script>',
      '<script src="https://evil.example/steal.js"></script>',
      '<iframe src="https://evil.example/frame"></iframe>',
      '<a id="js-link" href="javascript:window.__injected=1">link</a>',
    ].join('\n');
    fs.mkdirSync(`${server.dir}/injected`);
    fs.writeFileSync(`${server.dir}/injected/index.html`, zebra.replace('<article', `${injected}\n<article`));

    const page = await browser.newPage();
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __violations: string[] }).__violations = seen;
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI}`));
    });
    await page.goto(`${server.url}/injected/`);
    await page.click('#js-link');
    await page.waitForFunction(() => (window as unknown as { __violations: string[] }).__violations.length >= 5);
    expect(await page.evaluate(() => (window as unknown as { __injected?: number }).__injected)).toBeUndefined();
    const violations = await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
    expect(violations).toEqual(expect.arrayContaining([
      'script-src-attr inline', 'script-src-elem inline', 'script-src-elem https://evil.example/steal.js', 'frame-src https://evil.example',
    ]));
    expect(violations.filter((v) => v === 'script-src-elem inline')).toHaveLength(2); // the inline script and the javascript: link
    // Folio's own scripts still run on that page: the theme is set and code blocks got Copy buttons.
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toMatch(/^(light|dark)$/);
    expect(await page.locator('.code-block-copy').count()).toBe(1);
    await page.close();
  });

  it('reports no violation on Folio\'s own pages, search included', async () => {
    const page = await browser.newPage();
    const violations: string[] = [];
    await page.exposeFunction('__reportViolation', (v: string) => violations.push(v));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { __reportViolation(v: string): void }).__reportViolation(`${e.effectiveDirective} ${e.blockedURI}`));
    });
    for (const path of ['/', '/guides/zebra/', '/api-reference/create-a-gizmo/', '/no/such/page']) await page.goto(`${server.url}${path}`);
    await page.click('.search-button');
    await page.fill('.search-input', 'zebracorn');
    await page.locator('.search-results a').first().waitFor({ timeout: 10_000 });
    expect(violations).toEqual([]);
    await page.close();
  });
});
