// Mintlify's components in a real browser, on the component fixture (test/fixtures/components) served
// by Folio's hosting with its Content-Security-Policy: tabs, accordions, code groups and copy
// buttons work by mouse and keyboard, Mermaid draws from the site's own script, nothing breaks the
// policy, and axe-core finds no serious or critical accessibility violation.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { buildRoot, serveWithFolio } from './helpers.ts';
import { launchChromium } from '../helpers/browser.ts';

const CHROMIUM = '/usr/bin/chromium';
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let browser: Browser;
let context: BrowserContext;
let server: Awaited<ReturnType<typeof serveWithFolio>>;
/** Console errors of every page (a Content-Security-Policy violation is one). */
const consoleErrors: string[] = [];

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`this test needs Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  const site = await buildRoot(path.resolve('test/fixtures/components'));
  expect(site.result.error).toBeUndefined();
  server = await serveWithFolio(site.out);
  browser = await launchChromium();
  context = await browser.newContext({ colorScheme: 'light' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(pathname: string): Promise<Page> {
  const page = await context.newPage();
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(`${pathname}: ${m.text()} (${m.location().url})`));
  page.on('pageerror', (e) => consoleErrors.push(`${pathname}: ${e.message}`));
  await page.goto(`${server.url}${pathname}`);
  return page;
}

/** Serious and critical axe-core violations of the page, as `rule: target` lines. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const { violations } = await axe.run(document);
    return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
  }).then((found) =>
    // Syntax colours of highlighted code come from the theme's token palette (theme.css), not from
    // these components; they are the theme's to check.
    found.filter((v) => !/^color-contrast: .* > code > \.line > span/.test(v)),
  );
}

const visibleText = (page: Page, selector: string) => page.locator(selector).filter({ visible: true }).allInnerTexts();

describe('components in a browser', () => {
  it('Tabs: a click and the arrow keys switch panels; nested tabs switch on their own', async () => {
    const page = await open('/layout/');
    const tabs = page.locator('.fruit-tabs > .mint-tab-bar [role="tab"]');
    expect(await visibleText(page, '.fruit-tabs > [role="tabpanel"]')).toEqual(['Pears are soft.']);
    await tabs.nth(0).click();
    expect(await visibleText(page, '.fruit-tabs > [role="tabpanel"]')).toEqual(['Apples are crisp.']);
    expect(await tabs.nth(0).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowLeft'); // wraps to the last tab
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Plums');
    expect(await tabs.nth(2).getAttribute('aria-selected')).toBe('true');
    expect(await tabs.nth(2).getAttribute('tabindex')).toBe('0');
    expect(await tabs.nth(0).getAttribute('tabindex')).toBe('-1');
    const inner = page.locator('.fruit-tabs [role="tabpanel"] .mint-tabs');
    expect(await visibleText(page, '.fruit-tabs [role="tabpanel"] .mint-tabs [role="tabpanel"]')).toEqual(['Nested first.']);
    await inner.locator('[role="tab"]', { hasText: 'Inner two' }).click();
    expect(await visibleText(page, '.fruit-tabs [role="tabpanel"] .mint-tabs [role="tabpanel"]')).toEqual(['Nested second.']);
    expect(await tabs.nth(2).getAttribute('aria-selected')).toBe('true'); // the outer set is unchanged
    await page.keyboard.press('Home');
    expect(await visibleText(page, '.fruit-tabs [role="tabpanel"] .mint-tabs [role="tabpanel"]')).toEqual(['Nested first.']);
    await page.close();
  });

  it('Tabs: the other sets of the page with a tab of the same title follow a choice, unless sync={false}', async () => {
    const page = await open('/more/');
    await page.locator('.lead-tabs [role="tab"]', { hasText: 'Apples' }).click();
    expect(await visibleText(page, '.lead-tabs [role="tabpanel"]')).toEqual(['Lead apples.']);
    expect(await visibleText(page, '.follow-tabs [role="tabpanel"]')).toEqual(['Follow apples.']);
    expect(await visibleText(page, '.alone-tabs [role="tabpanel"]')).toEqual(['Alone pears.']);
    await page.locator('.follow-tabs [role="tab"]', { hasText: 'Pears' }).click();
    expect(await visibleText(page, '.lead-tabs [role="tabpanel"]')).toEqual(['Lead pears.']);
    await page.close();
  });

  it('Accordion: opens by click and by keyboard, closes again', async () => {
    const page = await open('/layout/');
    const first = page.locator('#q-one');
    expect(await page.isVisible('#q-one .mint-accordion-body')).toBe(false);
    await first.locator('summary').click();
    expect(await page.isVisible('#q-one .mint-accordion-body')).toBe(true);
    await first.locator('summary').focus();
    await page.keyboard.press('Enter');
    expect(await page.isVisible('#q-one .mint-accordion-body')).toBe(false);
    expect(await page.isVisible('#second-question .mint-accordion-body')).toBe(true); // defaultOpen
    await page.close();
  });

  it('CodeGroup: tabs and a dropdown switch code blocks, and the copy button copies the block shown', async () => {
    const page = await open('/layout/');
    const group = page.locator('.mint-code-group').first();
    expect(await group.locator('pre').filter({ visible: true }).count()).toBe(1);
    expect(await group.locator('pre').filter({ visible: true }).innerText()).toContain('npm install gizmo');
    await group.locator('[role="tab"]').nth(1).click();
    expect(await group.locator('pre').filter({ visible: true }).innerText()).toContain('print("gizmo")');
    const copy = group.locator('.code-block-copy').filter({ visible: true });
    expect(await copy.count()).toBe(1);
    await copy.click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('print("gizmo")');

    const dropdown = page.locator('.mint-code-group-dropdown').first();
    expect(await dropdown.locator('pre').filter({ visible: true }).innerText()).toContain("console.log('dropdown one')");
    await dropdown.locator('select').selectOption('1');
    expect(await dropdown.locator('pre').filter({ visible: true }).innerText()).toContain("puts 'dropdown two'");
    await page.close();
  });

  it('Prompt: the copy button copies the prompt', async () => {
    const page = await open('/more/');
    await page.click('.mint-prompt-copy');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('Explain how a gizmo flies.');
    expect(await page.textContent('.mint-prompt-copy')).toBe('Copied');
    await page.close();
  });

  it('Mermaid: the diagram is drawn by the site\'s own copy of Mermaid', async () => {
    const page = await open('/more/');
    await page.locator('.mermaid svg').waitFor();
    expect(await page.locator('.mermaid svg').count()).toBe(1);
    await page.close();
  });

  it('Tooltip: shown on keyboard focus', async () => {
    const page = await open('/');
    expect(await page.isVisible('.mint-tooltip-bubble')).toBe(false);
    await page.focus('.mint-tooltip-trigger');
    expect(await page.isVisible('.mint-tooltip-bubble')).toBe(true);
    await page.close();
  });

  it('has no serious or critical accessibility violations (axe-core), and nothing breaks the Content-Security-Policy', async () => {
    for (const pathname of ['/', '/layout/', '/api/', '/more/']) {
      const page = await open(pathname);
      if (pathname === '/more/') await page.locator('.mermaid svg').waitFor();
      expect(await axeViolations(page), pathname).toEqual([]);
      await page.close();
    }
    expect(consoleErrors.filter((e) => !/example\.com/.test(e))).toEqual([]);
  });
});
