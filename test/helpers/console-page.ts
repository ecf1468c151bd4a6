// Checks of a console page in Chromium shared by the browser tests: axe-core's serious and critical
// violations, words split across lines in tables, and screenshots at desktop and phone width in
// light and dark (test-artifacts/console/, gitignored), each checked for sideways scrolling.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { ROOT } from './server.ts';

export const ARTIFACTS = path.join(ROOT, 'test-artifacts/console');
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core on the current page: the serious and critical violations (none expected). */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe.run();
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.targets.join(', ')}`);
}

/**
 * Words of the tables matching `selector` that the browser split over two lines (a word laid out
 * in more than one box), as `"word" in <th|td>`.
 */
export function brokenWords(page: Page, selector = 'table'): Promise<string[]> {
  return page.evaluate((sel) => {
    const broken: string[] = [];
    for (const cell of document.querySelectorAll(`${sel} th, ${sel} td`)) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const word of (node.textContent ?? '').matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (lines.size > 1) broken.push(`"${word[0]}" in <${cell.tagName.toLowerCase()}>`);
        }
      }
    }
    return broken;
  }, selector);
}

export interface CaptureOptions {
  /** Colour schemes to check and save (default light only). */
  schemes?: ('light' | 'dark')[];
}

/**
 * Checks the page (axe; no sideways scroll at 390 px) and saves it at both widths, in each scheme
 * asked for, as `{name}-{desktop|phone}[-dark].png`; the page is left at desktop width, light.
 */
export async function capture(page: Page, name: string, options: CaptureOptions = {}): Promise<void> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  for (const scheme of options.schemes ?? ['light']) {
    await page.emulateMedia({ colorScheme: scheme });
    const suffix = scheme === 'dark' ? '-dark' : '';
    expect(await axeViolations(page), `${name} (${scheme}): axe`).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}-desktop${suffix}.png`), fullPage: true });
    await page.setViewportSize(PHONE);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `${name}: page width at 390 px`).toBeLessThanOrEqual(PHONE.width);
    expect(await axeViolations(page), `${name} (${scheme}, 390 px): axe`).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}-phone${suffix}.png`), fullPage: true });
    await page.setViewportSize(DESKTOP);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Presses Tab until the focused element is named `name` (its label, or its text); fails after 80. */
export async function tabTo(page: Page, name: RegExp): Promise<void> {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return '';
      const byFor = el.id ? document.querySelector(`label[for="${CSS.escape(el.id)}"]`)?.textContent : undefined;
      return (byFor ?? el.closest('label')?.textContent ?? el.getAttribute('aria-label') ?? el.textContent ?? '').trim();
    });
    if (name.test(focused)) return;
  }
  throw new Error(`no element named ${name} reached with Tab`);
}
