// The page menu (docs.json `contextual`, docs/decisions.md#page-menu) in Chromium, on real builds
// served by Folio's hosting (with its Content-Security-Policy): the configured options in order,
// "Copy page" putting the page's Markdown on the clipboard, the "Open in" links and an author's own
// option carrying the page's .md address, a hidden page offering no link to a .md that is not
// served, the keyboard opening and closing the menu, axe finding no serious or critical violation;
// and a site without `contextual` showing Folio's default. A screenshot of the open menu is saved
// under test-artifacts/page-menu/ (git-ignored).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { buildFixture, serveWithFolio } from './helpers.ts';
import { CHROMIUM, launchChromium } from '../helpers/browser.ts';

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SITE_URL = 'https://docs.example.com';
const ARTIFACTS = path.resolve(import.meta.dirname, '../../test-artifacts/page-menu');

const PAGE = (title: string) => `---
title: ${title}
description: What ${title.toLowerCase()} is about.
---

Set the **flux** of the zorblax before the first run.

<Note>The quasarwidget hums when tuned.</Note>
`;

const pages = {
  'content/index.mdx': PAGE('Welcome'),
  'content/guides/setup.mdx': PAGE('Setup'),
  'content/guides/secret.mdx': `---\ntitle: Secret\nhidden: true\n---\n\nNot for search.\n`,
};

const CONFIGURED = {
  name: 'Zorblax Docs',
  navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/setup'] }] },
  contextual: {
    options: [
      'copy',
      'chatgpt',
      'claude',
      'mcp',
      {
        title: 'Ask Zorbot',
        description: 'Our own assistant',
        href: { base: 'https://zorbot.example.com/ask', query: [{ key: 'q', value: 'Explain $page please' }, { key: 'from', value: '$path' }] },
      },
    ],
  },
};

type Site = Awaited<ReturnType<typeof serveWithFolio>>;
let browser: Browser;
let configured: Site;
let plain: Site;

async function serve(docsJson: object): Promise<Site> {
  const built = await buildFixture({ 'docs.json': JSON.stringify(docsJson), ...pages }, { siteUrl: SITE_URL });
  expect(built.result.error).toBeUndefined();
  const site = await serveWithFolio(built.out);
  fs.rmSync(built.out, { recursive: true, force: true });
  fs.rmSync(built.root, { recursive: true, force: true });
  return site;
}

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`this test needs Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  configured = await serve(CONFIGURED);
  plain = await serve({ name: 'Plain Docs', navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/setup'] }] } });
  browser = await launchChromium();
  fs.mkdirSync(ARTIFACTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await configured?.close();
  await plain?.close();
});

async function open(site: Site, path: string, context?: BrowserContext) {
  const ctx = context ?? (await browser.newContext());
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(`${site.url}${path}`);
  return { page, ctx, errors };
}

const menuItems = (page: import('playwright-core').Page) =>
  page.locator('.page-menu-list .page-menu-item').evaluateAll((els) => els.map((e) => ({ option: e.getAttribute('data-option'), title: e.querySelector('.page-menu-title')!.textContent, href: e.getAttribute('href') })));

const prompt = (href: string) => new URL(href).searchParams.get('q');

describe('the page menu', () => {
  it('shows the configured options in order, the first as its button, with the right addresses', async () => {
    const { page, ctx } = await open(configured, '/guides/setup/');
    expect(await page.locator('.page-menu-action').textContent()).toBe('Copy page');
    const items = await menuItems(page);
    expect(items.map((i) => i.title)).toEqual(['Copy page', 'Open in ChatGPT', 'Open in Claude', 'Copy MCP server URL', 'Ask Zorbot']);
    const byOption = Object.fromEntries(items.map((i) => [i.title, i.href]));
    const mdUrl = `${SITE_URL}/guides/setup.md`;
    expect(new URL(byOption['Open in ChatGPT']!).origin).toBe('https://chatgpt.com');
    expect(prompt(byOption['Open in ChatGPT']!)).toContain(mdUrl);
    expect(new URL(byOption['Open in Claude']!).origin).toBe('https://claude.ai');
    expect(prompt(byOption['Open in Claude']!)).toContain(mdUrl);
    const custom = new URL(byOption['Ask Zorbot']!);
    expect(custom.origin + custom.pathname).toBe('https://zorbot.example.com/ask');
    expect(custom.searchParams.get('q')).toBe(`Explain ${mdUrl} please`);
    expect(custom.searchParams.get('from')).toBe('/guides/setup');
    // Links open in a new tab and tell the other site nothing of the reader's page.
    expect(await page.locator('.page-menu-item[href]').evaluateAll((els) => els.every((e) => e.getAttribute('target') === '_blank' && e.getAttribute('rel')?.includes('noopener')))).toBe(true);
    await ctx.close();
  });

  it('"Copy page" puts the page\'s Markdown on the clipboard, and "Copy MCP server URL" the address', async () => {
    const ctx = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    const { page, errors } = await open(configured, '/guides/setup/', ctx);
    const markdown = await (await fetch(`${configured.url}/guides/setup.md`)).text();
    expect(markdown).toContain('Set the **flux** of the zorblax');
    await page.locator('.page-menu-action').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(markdown);
    await expect.poll(() => page.locator('.page-menu [role=status]').textContent()).toBe('Copied');

    await page.locator('.page-menu-more > summary').click();
    await page.locator('.page-menu-item[data-option=mcp]').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(`${SITE_URL}/mcp`);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('opens and closes from the keyboard, and axe finds no serious or critical violation', async () => {
    const { page, ctx } = await open(configured, '/guides/setup/');
    const summary = page.locator('.page-menu-more > summary');
    await summary.focus();
    await page.keyboard.press('Enter');
    expect(await page.locator('.page-menu-more').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-option'))).toBe('copy');
    await page.screenshot({ path: path.join(ARTIFACTS, 'open.png') });
    await page.evaluate(AXE_SOURCE);
    const result = await page.evaluate(async () => (window as unknown as { axe: { run(c: string): Promise<{ violations: { id: string; impact: string }[] }> } }).axe.run('.page-menu'));
    expect(result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    await page.keyboard.press('Escape');
    expect(await page.locator('.page-menu-more').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.matches('.page-menu-more > summary'))).toBe(true);
    await ctx.close();
  });

  it('on a hidden page, which has no .md file, offers nothing that points at one', async () => {
    expect((await fetch(`${configured.url}/guides/secret.md`)).status).toBe(404);
    const { page, ctx } = await open(configured, '/guides/secret/');
    const items = await menuItems(page);
    expect(await page.locator('.page-menu-action').textContent()).toBe('Copy MCP server URL');
    expect(items.map((i) => i.option)).toEqual([]); // one option left: the button alone, no list
    expect(await page.locator('.page-menu').innerHTML()).not.toContain('.md');
    await ctx.close();
  });

  it('without `contextual`, shows Folio\'s default: copy, view, ChatGPT, Claude and Perplexity', async () => {
    const { page, ctx } = await open(plain, '/');
    expect(await page.locator('.page-menu-action').textContent()).toBe('Copy page');
    const items = await menuItems(page);
    expect(items.map((i) => i.option)).toEqual(['copy', 'view', 'chatgpt', 'claude', 'perplexity']);
    expect(items.find((i) => i.option === 'view')?.href).toBe('/index.md');
    expect(prompt(items.find((i) => i.option === 'perplexity')!.href!)).toContain(`${SITE_URL}/index.md`);
    await ctx.close();
  });
});
