// Brand colours that stay readable (docs/decisions.md#readable-brand-colours): sites
// built with a range of docs.json `colors` (pale, dark, saturated, pastel, Mintlify's default
// greens), each served by Folio's hosting and audited by axe-core in Chromium in light and dark
// mode: no serious or critical violation, the navbar button, the active sidebar item, the TOC and
// the pager in the brand's hue. A screenshot of each is saved under test-artifacts/brand-colors/
// (git-ignored). Anchors whose icon no library has show no empty box.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { buildFixture, serveWithFolio } from './helpers.ts';
import { CHROMIUM, launchChromium } from '../helpers/browser.ts';
import { contrast, parseColor, type Rgb } from '../../src/site/brand-colors.ts';

const ARTIFACTS = path.resolve(import.meta.dirname, '../../test-artifacts/brand-colors');
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** docs.json `colors` of each site: what brands really pick, the hard cases for contrast. */
const BRANDS: Record<string, Record<string, string>> = {
  'mintlify-green': { primary: '#16A34A', light: '#07C983', dark: '#15803D' },
  'mintlify-teal': { primary: '#0D9373', light: '#07C983', dark: '#0D9373' },
  'pale-yellow': { primary: '#FDE047' },
  'dark-navy': { primary: '#1E1B4B' },
  'saturated-magenta': { primary: '#FF00FF' },
  'pastel-mint': { primary: '#A7F3D0', light: '#A7F3D0' },
  'hsl-orange': { primary: 'hsl(28, 100%, 55%)' },
};

const PAGE = (title: string, next: string) => `---
title: ${title}
---

Read [the next page](/${next}/) or the <a href="https://example.com/reference">reference</a>.

## Setting up

<Card title="Quickstart" icon="rocket" href="/guides/install/">Start here.</Card>

<Tabs>
  <Tab title="npm">Install with npm.</Tab>
  <Tab title="yarn">Install with yarn.</Tab>
</Tabs>

## Going further

More words under a second heading, so the table of contents has two entries.
`;

const files = (colors: Record<string, string>) => ({
  'docs.json': JSON.stringify({
    name: 'Brand Fixture',
    colors,
    navbar: { links: [{ label: 'Support', href: 'https://example.com/support' }], primary: { type: 'button', label: 'Get started', href: 'https://example.com/start' } },
    navigation: {
      global: {
        anchors: [
          { anchor: 'Blog', href: 'https://example.com/blog', icon: 'newspaper' },
          // A Font Awesome Pro name, which Folio has no icon for; and an anchor without an icon.
          { anchor: 'Community', href: 'https://example.com/community', icon: 'book-open-cover' },
          { anchor: 'Status', href: 'https://example.com/status' },
        ],
      },
      tabs: [
        { tab: 'Guides', groups: [{ group: 'Start', icon: 'rocket', pages: ['index', 'guides/install'] }] },
        { tab: 'Reference', groups: [{ group: 'API', pages: ['reference/overview'] }] },
      ],
    },
  }),
  'content/index.mdx': PAGE('Welcome', 'guides/install'),
  'content/guides/install.mdx': PAGE('Install', 'reference/overview'),
  'content/reference/overview.mdx': PAGE('Overview', 'index'),
});

type Site = Awaited<ReturnType<typeof serveWithFolio>>;
let browser: Browser;
const sites = new Map<string, Site>();

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`this test needs Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  for (const [name, colors] of Object.entries(BRANDS)) {
    const site = await buildFixture(files(colors));
    expect(site.result.error, name).toBeUndefined();
    sites.set(name, await serveWithFolio(site.out));
    fs.rmSync(site.out, { recursive: true, force: true });
    fs.rmSync(site.root, { recursive: true, force: true });
  }
  browser = await launchChromium();
  fs.mkdirSync(ARTIFACTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  for (const site of sites.values()) await site.close();
});

interface Violation {
  id: string;
  impact: string;
  nodes: { target: string[] }[];
}

/** The hue (0–360) of a colour, to tell that a shade keeps the brand's. */
function hue([r, g, b]: Rgb): number {
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  if (d === 0) return 0;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

/** A computed colour: `rgb(…)`, or `color(srgb …)` (0–1 channels) for what color-mix() gives. */
const rgbOf = (css: string): Rgb => {
  const channels = css.match(/[\d.]+/g)!.slice(0, 3).map(Number);
  return (css.startsWith('color(srgb') ? channels.map((c) => c * 255) : channels) as Rgb;
};

describe('brand colours in a browser', () => {
  for (const name of Object.keys(BRANDS)) {
    for (const colorScheme of ['light', 'dark'] as const) {
      it(`${name}, ${colorScheme}: axe finds nothing serious or critical; text in the brand's shades reads at 4.5:1; screenshot saved`, async () => {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme });
        const page = await context.newPage();
        await page.goto(`${sites.get(name)!.url}/guides/install/`);
        await page.evaluate(() => document.fonts.ready);
        // Evaluated through the DevTools protocol, which the page's CSP does not govern.
        await page.evaluate(AXE_SOURCE);
        const violations = await page.evaluate(async () => {
          const result = await (window as unknown as { axe: { run(): Promise<{ violations: Violation[] }> } }).axe.run();
          return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
        });
        expect(violations).toEqual([]);

        // The places found unreadable with brand colours before, measured against what is behind them.
        const pairs = await page.evaluate(() => {
          const background = (el: Element): string => {
            for (let at: Element | null = el; at; at = at.parentElement) {
              const bg = getComputedStyle(at).backgroundColor;
              if (bg !== 'rgba(0, 0, 0, 0)' && bg !== 'transparent') return bg;
            }
            return getComputedStyle(document.body).backgroundColor;
          };
          return ['.navbar-primary', '.sidebar a[aria-current="page"]', '.pager a', 'article a[href="/reference/overview/"]', '.mint-tab[aria-selected="true"]'].map((selector) => {
            const el = document.querySelector(selector);
            return { selector, color: el ? getComputedStyle(el).color : '', background: el ? background(el) : '' };
          });
        });
        // The mode's brand colour: Mintlify's `light` is the dark mode's, its `dark` the light mode's text and buttons.
        const brand = BRANDS[name]!;
        const accent = parseColor((colorScheme === 'dark' ? brand.light : brand.dark) ?? brand.primary!)!;
        for (const { selector, color, background } of pairs) {
          expect(color, selector).not.toBe('');
          expect(contrast(rgbOf(color), rgbOf(background)), `${selector}: ${color} on ${background}`).toBeGreaterThanOrEqual(4.5);
        }
        // The active sidebar item keeps the brand's hue (a shade of it, not black or white).
        const active = rgbOf(pairs[1]!.color);
        if (Math.max(...accent) - Math.min(...accent) > 40) expect(Math.abs(hue(active) - hue(accent)) % 360, `hue of ${pairs[1]!.color}`).toBeLessThan(12);

        // No icon box stands empty: each anchor's icon holds an SVG or image, or there is none.
        const icons = await page.locator('.sidebar-anchor').evaluateAll((anchors) => anchors.map((a) => {
          const icon = a.querySelector('.nav-icon');
          return icon ? !!icon.querySelector('svg, img') : null;
        }));
        expect(icons).toEqual([true, null, null]);

        await page.screenshot({ path: path.join(ARTIFACTS, `${name}-${colorScheme}.png`), fullPage: true });
        await context.close();
      });
    }
  }
});
