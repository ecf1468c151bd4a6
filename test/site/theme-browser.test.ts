// The docs-site theme in a real browser (docs/decisions.md#docs-site-theme), on one built fixture
// served by Folio's hosting (with its Content-Security-Policy): the matrix of desktop and phone in
// light and dark mode (screenshots saved under test-artifacts/theme/, git-ignored), no sideways
// scrolling down to 320 px, the ⌘K / Ctrl-K search dialog and its keyboard, the phone drawer, no
// layout shift, self-hosted fonts, and axe-core finding no serious or critical violation.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { buildFixture, serveWithFolio } from './helpers.ts';
import { launchChromium } from '../helpers/browser.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = path.resolve(import.meta.dirname, '../../test-artifacts/theme');
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const GUIDE_PAGES = Array.from({ length: 14 }, (_, i) => `guides/topic-${String(i + 1).padStart(2, '0')}`);

/** A page with every component and element the theme styles. */
const KITCHEN_SINK = `---
title: Everything on one page
description: Callouts, code, tables and headings, to see the theme at work.
---

Folio themes every part of a page. This paragraph has \`inline code\`, **bold text** and [a link](/guides/topic-01/).

## Callouts

<Callout kind="note">A note for the reader, with an icon.</Callout>

<Callout kind="tip" title="Handy">A tip that saves time.</Callout>

<Callout kind="warning">A warning about something that could go wrong.</Callout>

<Callout kind="danger">A danger that loses data.</Callout>

<Info>Mintlify's Info callout, with its own icon.</Info>

<Check>Mintlify's Check callout.</Check>

<CardGroup cols={2}>
  <Card title="Quickstart" icon="rocket" href="/guides/topic-01/">Start here.</Card>
  <Card title="Reference" icon="book" href="/guides/topic-02/">Every setting.</Card>
</CardGroup>

<Tabs>
  <Tab title="npm">Install with npm.</Tab>
  <Tab title="yarn">Install with yarn.</Tab>
</Tabs>

## Wide table

| Setting | Default | Meaning | Example value | Another long column | And one more |
| --- | --- | --- | --- | --- | --- |
| \`retention_period_for_archived_items\` | 30 days | How long archived items are kept before they go | \`thirty_days_of_retention\` | a long value that needs room | yet another long value |
| \`mode\` | fast | The mode | \`fast\` | short | short |

## Code

\`\`\`bash
curl -X POST https://api.example.com/v1/widgets/with/a/rather/long/path/that/does/not/fit/on/a/phone --data '{"name": "widget"}'
\`\`\`

### Zorblax tuning

Tune the zorblax by setting its flux. The quasarwidget hums when tuned.

### Zorblax limits

A zorblax has limits.

## A heading at the end

Last words, with a longword: pneumonoultramicroscopicsilicovolcanoconiosisandthensomemorelettersforgoodmeasure.
`;

let browser: Browser;
let server: Awaited<ReturnType<typeof serveWithFolio>>;

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`this test needs Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  const files: Record<string, string> = {
    'docs.json': JSON.stringify({
      name: 'Theme Fixture Documentation',
      navigation: [
        { group: 'Start', pages: ['index', 'kitchen-sink'] },
        { group: 'Guides', pages: GUIDE_PAGES },
      ],
    }),
    'content/index.mdx': '---\ntitle: Welcome\n---\n\nThe start of the fixture docs.\n',
    'content/kitchen-sink.mdx': KITCHEN_SINK,
  };
  for (const [i, page] of GUIDE_PAGES.entries()) {
    files[`content/${page}.mdx`] = `---\ntitle: Guide topic ${i + 1}\n---\n\nThis guide covers topic ${i + 1}.\n\n## Quasarwidget step ${i + 1}\n\nA quasarwidget appears here too.\n`;
  }
  const site = await buildFixture(files, {
    pageHistory: { editUrl: 'https://github.com/acme/docs/edit/main/', lastUpdated: { 'content/kitchen-sink.mdx': '2025-03-05T12:30:00+00:00' } },
  });
  expect(site.result.error).toBeUndefined();
  server = await serveWithFolio(site.out);
  browser = await launchChromium();
  fs.mkdirSync(ARTIFACTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(pathname: string, options: BrowserContextOptions): Promise<Page> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await page.goto(`${server.url}${pathname}`);
  await page.evaluate(() => document.fonts.ready);
  return page;
}

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

const MATRIX = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

describe('the theme in a browser', () => {
  for (const { name, viewport } of MATRIX) {
    for (const colorScheme of ['light', 'dark'] as const) {
      it(`${name} ${viewport.width}×${viewport.height}, ${colorScheme}: fits the width, shows its mode, screenshot saved`, async () => {
        const page = await open('/kitchen-sink/', { viewport, colorScheme });
        expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(colorScheme);
        expect(await pageWidth(page)).toBeLessThanOrEqual(viewport.width);
        // The wide table scrolls inside itself rather than the page.
        const table = await page.locator('article table').evaluate((t) => ({ scroll: t.scrollWidth, client: t.clientWidth }));
        if (name === 'phone') expect(table.scroll).toBeGreaterThan(table.client);
        // Every callout has its icon: the theme's for Folio's Callout, the component's own for Mintlify's.
        const icons = await page.locator('.callout:not(.mint-callout)').evaluateAll((els) => els.map((el) => getComputedStyle(el, '::before').maskImage || getComputedStyle(el, '::before').webkitMaskImage));
        expect(icons).toHaveLength(4);
        for (const icon of icons) expect(icon).toMatch(/^url\("data:image\/svg\+xml/);
        expect(await page.locator('.callout.mint-callout svg').count()).toBe(2);
        expect(await page.locator('.callout.mint-callout').evaluateAll((els) => els.map((el) => getComputedStyle(el, '::before').content))).toEqual(['none', 'none']);
        // Search button, logo and (on desktop) the sidebar are in the header and beside the content.
        expect(await page.isVisible('.search-button')).toBe(true);
        expect(await page.isVisible('#sidebar a[aria-current="page"]')).toBe(name === 'desktop');
        const file = path.join(ARTIFACTS, `${name}-${colorScheme}.png`);
        await page.screenshot({ path: file, fullPage: true });
        expect(fs.statSync(file).size).toBeGreaterThan(10_000);
        await page.context().close();
      });
    }
  }

  it('has no horizontal page overflow at 320 px, on every kind of page, with the drawer and search open', async () => {
    const page = await open('/kitchen-sink/', { viewport: { width: 320, height: 640 } });
    expect(await pageWidth(page)).toBeLessThanOrEqual(320);
    await page.click('.menu-button');
    await page.locator('#sidebar.open').waitFor();
    expect(await pageWidth(page)).toBeLessThanOrEqual(320);
    await page.keyboard.press('Escape');
    await page.click('.search-button');
    await page.keyboard.type('quasarwidget');
    await page.locator('.search-results [role="option"]').first().waitFor({ timeout: 10_000 });
    const dialog = await page.locator('.search-dialog').boundingBox();
    expect(dialog!.x).toBeGreaterThanOrEqual(0);
    expect(dialog!.x + dialog!.width).toBeLessThanOrEqual(320);
    await page.screenshot({ path: path.join(ARTIFACTS, 'phone-320-search.png') });
    for (const pathname of ['/', '/guides/topic-07/', '/no-such-page/']) {
      await page.goto(`${server.url}${pathname}`);
      expect(await pageWidth(page), pathname).toBeLessThanOrEqual(320);
    }
    await page.context().close();
  });

  for (const [key, label] of [['Control+k', 'Ctrl-K'], ['Meta+k', '⌘K']] as const) {
    it(`opens search with ${label}; results are grouped by page with their headings; arrow keys move through them, Enter opens one`, async () => {
      const page = await open('/', { viewport: { width: 1280, height: 800 } });
      await page.keyboard.press(key);
      await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains('search-input'))).toBe(true);
      expect(await page.locator('.search-dialog').isVisible()).toBe(true);
      await page.keyboard.type('zorblax');
      const options = page.locator('.search-results [role="option"]');
      await options.first().waitFor({ timeout: 10_000 });
      // Grouped: a group per page, its first entry the page, then the headings that match.
      const groups = await page.locator('.search-group').evaluateAll((gs) =>
        gs.map((g) => [...g.querySelectorAll('[role="option"]')].map((o) => `${o.className} ${o.getAttribute('href')}`)));
      expect(groups).toEqual([['search-page /kitchen-sink/', 'search-heading /kitchen-sink/#zorblax-tuning', 'search-heading /kitchen-sink/#zorblax-limits']]);
      const selected = () => page.evaluate(() => {
        const input = document.querySelector('.search-input')!;
        const chosen = [...document.querySelectorAll('[role="option"][aria-selected="true"]')];
        return { active: input.getAttribute('aria-activedescendant'), chosen: chosen.map((o) => o.id), focus: document.activeElement === input };
      });
      const ids = await options.evaluateAll((os) => os.map((o) => o.id));
      expect(ids.length).toBeGreaterThan(2);
      expect(await selected()).toEqual({ active: ids[0], chosen: [ids[0]], focus: true });
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      expect(await selected()).toEqual({ active: ids[2], chosen: [ids[2]], focus: true });
      await page.keyboard.press('ArrowUp');
      expect(await selected()).toEqual({ active: ids[1], chosen: [ids[1]], focus: true });
      const target = await page.locator(`#${ids[1]}`).getAttribute('href');
      await page.keyboard.press('Enter');
      await page.waitForURL(`${server.url}${target}`);
      expect(await page.locator('.search-dialog').isVisible()).toBe(false);
      await page.context().close();
    });
  }

  it('closes search with one Escape, even with a query typed, and gives focus back to the search button', async () => {
    const page = await open('/', { viewport: { width: 1280, height: 800 } });
    await page.click('.search-button');
    expect(await page.locator('.search-dialog').isVisible()).toBe(true);
    await page.keyboard.type('zorblax');
    await page.keyboard.press('Escape');
    expect(await page.locator('.search-dialog').isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('search-button');
    await page.context().close();
  });

  it('on a phone, opens the drawer over the content, traps focus in it, closes it on Escape', async () => {
    const page = await open('/guides/topic-12/', { viewport: { width: 390, height: 844 } });
    const contentBox = await page.locator('main.content').boundingBox();
    expect(await page.isVisible('#sidebar')).toBe(false);
    await page.click('.menu-button');
    const current = page.locator('#sidebar a[aria-current="page"]');
    await current.waitFor({ state: 'visible' });
    expect(await page.getAttribute('.menu-button', 'aria-expanded')).toBe('true');
    // Over the content, not above it: the content has not moved.
    expect(await page.locator('main.content').boundingBox()).toEqual(contentBox);
    // At the left edge once it has slid in, narrower than the screen.
    await expect.poll(async () => (await page.locator('#sidebar').boundingBox())?.x).toBe(0);
    expect((await page.locator('#sidebar').boundingBox())!.width).toBeLessThan(390);
    // The current page's link is in view inside the drawer, and has focus.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-current'))).toBe('page');
    const link = (await current.boundingBox())!;
    expect(link.y + link.height).toBeLessThanOrEqual(844);
    // Tab and Shift-Tab go round the drawer and its button, never into the page behind.
    const inDrawer = () => page.evaluate(() => {
      const el = document.activeElement;
      return !!el && (el.classList.contains('menu-button') || !!el.closest('#sidebar'));
    });
    const stops = await page.locator('#sidebar a').count();
    for (let i = 0; i < stops + 3; i++) {
      await page.keyboard.press('Tab');
      expect(await inDrawer(), `after Tab ${i + 1}`).toBe(true);
    }
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await inDrawer(), `after Shift+Tab ${i + 1}`).toBe(true);
    }
    await page.keyboard.press('Escape');
    await page.locator('#sidebar').waitFor({ state: 'hidden' });
    expect(await page.getAttribute('.menu-button', 'aria-expanded')).toBe('false');
    expect(await page.evaluate(() => document.activeElement?.classList.contains('menu-button'))).toBe(true);
    // The page behind is usable again.
    expect(await page.evaluate(() => (document.querySelector('main.content') as HTMLElement).inert)).toBe(false);
    await page.context().close();
  });

  it('keeps the current page in view in a long sidebar on desktop', async () => {
    const page = await open('/guides/topic-14/', { viewport: { width: 1280, height: 400 } });
    const link = (await page.locator('#sidebar a[aria-current="page"]').boundingBox())!;
    expect(link.y).toBeGreaterThanOrEqual(0);
    expect(link.y + link.height).toBeLessThanOrEqual(400);
    expect(await page.evaluate(() => window.scrollY)).toBe(0); // the sidebar scrolled, not the page
    await page.context().close();
  });

  it('loads its fonts from the site itself and shifts no layout while loading', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const origins = new Set<string>();
    page.on('request', (r) => origins.add(new URL(r.url()).origin));
    await page.addInitScript(() => {
      (window as unknown as { __cls: number }).__cls = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
          if (!entry.hadRecentInput) (window as unknown as { __cls: number }).__cls += entry.value;
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto(`${server.url}/kitchen-sink/`, { waitUntil: 'load' });
    await page.evaluate(() => document.fonts.ready);
    expect(await page.evaluate(() => document.fonts.check('16px "Inter Variable"'))).toBe(true);
    expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toMatch(/^"Inter Variable"/);
    expect([...origins]).toEqual([server.url]);
    // Let a frame pass so shifts from late work (fonts, scripts) are reported.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(await page.evaluate(() => (window as unknown as { __cls: number }).__cls)).toBeLessThan(0.01);
    await context.close();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`axe-core finds no serious or critical violation on a page with every component (${colorScheme}, desktop and phone, search open)`, async () => {
      for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
        const page = await open('/kitchen-sink/', { viewport, colorScheme });
        const audit = async (state: string) => {
          // Evaluated through the DevTools protocol, which the page's CSP does not govern.
          await page.evaluate(AXE_SOURCE);
          const violations = await page.evaluate(async () => {
            const result = await (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe.run();
            return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
          });
          expect(violations, `${colorScheme} ${viewport.width}px ${state}`).toEqual([]);
        };
        await audit('page');
        await page.click('.search-button');
        await page.keyboard.type('quasarwidget');
        await page.locator('.search-results [role="option"]').first().waitFor({ timeout: 10_000 });
        await audit('search open');
        await page.context().close();
      }
    });
  }

  it('links "Edit this page" to the repository and shows the last-updated date from git', async () => {
    const page = await open('/kitchen-sink/', { viewport: { width: 1280, height: 800 } });
    expect(await page.getAttribute('.edit-link', 'href')).toBe('https://github.com/acme/docs/edit/main/content/kitchen-sink.mdx');
    expect(await page.textContent('.last-updated')).toBe('Last updated March 5, 2025');
    expect(await page.getAttribute('.last-updated time', 'datetime')).toBe('2025-03-05T12:30:00+00:00');
    await page.goto(`${server.url}/`);
    expect(await page.getAttribute('.edit-link', 'href')).toBe('https://github.com/acme/docs/edit/main/content/index.mdx');
    expect(await page.locator('.last-updated').count()).toBe(0); // no known date: none shown
    await page.context().close();
  });

  it('prints the content only: no header, sidebar, table of contents or search', async () => {
    const page = await open('/kitchen-sink/', { viewport: { width: 1280, height: 800 } });
    await page.emulateMedia({ media: 'print' });
    for (const selector of ['.site-header', '#sidebar', '.toc', '.copy-button']) expect(await page.isVisible(selector), selector).toBe(false);
    expect(await page.isVisible('article h1')).toBe(true);
    await page.context().close();
  });
});
