// `folio dev`, run as an author runs it (the installed command, in a docs repository outside
// Folio's checkout): it serves the repository, Chromium sees a saved change (a page, docs.json, a
// new page) without reloading by hand and without the preview restarting, and a page or docs.json
// with a problem shows in the terminal and as an overlay, never as a dead server.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devBuildRoot } from '../../src/cli/dev.ts';
import { launchChromium } from '../helpers/browser.ts';
import { installFolio, type InstalledFolio } from '../helpers/folio-cli.ts';
import { freePort } from '../helpers/free-port.ts';
import { makeContentRoot } from '../site/helpers.ts';

let folio: InstalledFolio;
let repo: string;
let preview: ChildProcess;
let output = '';
let url: string;
let browser: Browser;
let tab: Page;

const page = (body: string) => `---\ntitle: Home\n---\n\n${body}\n`;

/** Waits until the command's output contains `text` (a reload on a busy machine may take seconds). */
async function printed(text: string, from = 0): Promise<void> {
  for (const deadline = Date.now() + 60_000; !output.slice(from).includes(text); ) {
    if (Date.now() > deadline || preview.exitCode !== null) throw new Error(`never printed ${JSON.stringify(text)}:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const docsJson = (groups: Array<{ group: string; pages: string[] }>) => JSON.stringify({ name: 'Preview', navigation: { groups } });

/** Waits until the open page's sidebar (reloaded by the preview, never by the test) shows `text`. */
async function inSidebar(text: string): Promise<void> {
  await tab.waitForFunction((t) => document.querySelector('#sidebar')?.textContent?.includes(t) ?? false, text, { timeout: 60_000 }).catch(withOutput);
}

/** A wait that failed, with what the command printed (the preview's own log says why). */
function withOutput(error: Error): never {
  throw new Error(`${error.message}\nfolio dev printed:\n${output}`);
}

/** Waits until the open page (reloaded by the preview, never by the test) shows `text`. */
async function shows(text: string): Promise<void> {
  await tab.waitForFunction((t) => document.querySelector('article')?.textContent?.includes(t) ?? false, text, { timeout: 60_000 }).catch(withOutput);
}

beforeAll(async () => {
  folio = installFolio();
  repo = makeContentRoot({ 'docs.json': JSON.stringify({ name: 'Preview', navigation: { pages: ['index'] } }), 'index.mdx': page('The first draft.') });
  const port = await freePort();
  preview = folio.start(repo, ['dev', '--port', String(port)]);
  preview.stdout?.setEncoding('utf8').on('data', (d: string) => (output += d));
  preview.stderr?.setEncoding('utf8').on('data', (d: string) => (output += d));
  url = `http://127.0.0.1:${port}/`;
  await printed(`Folio preview of ${fs.realpathSync(repo)}: ${url}`);
  browser = await launchChromium();
  tab = await browser.newPage();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  if (preview?.pid && preview.exitCode === null) {
    const exited = new Promise((resolve) => preview.once('exit', resolve));
    process.kill(-preview.pid, 'SIGTERM');
    await exited;
  }
  folio.remove();
  fs.rmSync(devBuildRoot(fs.realpathSync(repo)), { recursive: true, force: true });
  fs.rmSync(repo, { recursive: true, force: true });
});

describe('folio dev', () => {
  it('serves the repository and shows a saved change in the open page', async () => {
    await tab.goto(url);
    expect(await tab.locator('article').innerText()).toContain('The first draft.');
    fs.writeFileSync(path.join(repo, 'index.mdx'), page('The second draft.'));
    await shows('The second draft.');
    // The first request makes astro dev compile the site's modules: on a busy machine, over a minute.
  }, 180_000);

  it('shows a problem in the terminal and over the page, and recovers when it is fixed', async () => {
    const from = output.length;
    fs.writeFileSync(path.join(repo, 'index.mdx'), page('A {broken expression'));
    await printed('index.mdx:5:3: MDX syntax error', from);
    await tab.waitForFunction(() => !!document.querySelector('vite-error-overlay') || document.title === 'MDXError', undefined, { timeout: 60_000 }).catch(withOutput);
    fs.writeFileSync(path.join(repo, 'index.mdx'), page('The third draft.'));
    // The page under the overlay reloads by itself once the problem is fixed.
    await shows('The third draft.');
    expect(preview.exitCode).toBe(null);
  }, 180_000);

  it('shows a docs.json change in the open page without restarting the preview', async () => {
    const from = output.length;
    fs.writeFileSync(path.join(repo, 'docs.json'), docsJson([{ group: 'First steps', pages: ['index'] }]));
    await inSidebar('First steps');
    await printed('docs.json changed: reloaded', from);
    // A restart would list and sync every page again (seconds on a large repository).
    expect(output.slice(from)).not.toContain('Restarting');
  }, 180_000);

  it('reloads a page that was still loading when docs.json changed', async () => {
    // Another tab is open, so the preview's reload goes out at once, to the pages connected then.
    const other = await browser.newPage();
    const connected = other.waitForEvent('console', (message) => message.text().includes('[vite] connected'));
    await other.goto(url);
    await connected;
    // This tab's connection to the preview is held back until the change is done: as for a page
    // that was reloading (after a saved page) a moment before docs.json was saved.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await tab.route('**/@vite/client', async (route) => {
      await held;
      await route.continue();
    });
    await tab.goto(url, { waitUntil: 'commit' });
    await tab.waitForSelector('#sidebar', { state: 'attached' });
    expect(await tab.locator('#sidebar').textContent()).toContain('First steps');
    const from = output.length;
    fs.writeFileSync(path.join(repo, 'docs.json'), docsJson([{ group: 'Getting started', pages: ['index'] }]));
    await printed('docs.json changed: reloaded', from);
    release();
    await inSidebar('Getting started');
    await tab.unrouteAll();
    await other.close();
  }, 180_000);

  it('shows a page added and listed in docs.json, without a restart', async () => {
    const from = output.length;
    fs.mkdirSync(path.join(repo, 'guides'));
    fs.writeFileSync(path.join(repo, 'guides/wiring.mdx'), '---\ntitle: Wiring the lamp\n---\n\nRed to red, blue to blue.\n');
    fs.writeFileSync(path.join(repo, 'docs.json'), docsJson([{ group: 'First steps', pages: ['index', 'guides/wiring'] }]));
    await inSidebar('Wiring the lamp');
    expect(await tab.locator('#sidebar a', { hasText: 'Wiring the lamp' }).getAttribute('href')).toBe('/guides/wiring/');
    // Opened in a tab of its own: the open tab may still get the reload of the content sync that
    // followed the change, and a reload of the page a click is leaving takes the reader back to it.
    const opened = await browser.newPage();
    await opened.goto(`${url}guides/wiring/`);
    await opened.waitForFunction(() => document.querySelector('article')?.textContent?.includes('Red to red, blue to blue.') ?? false, undefined, { timeout: 60_000 }).catch(withOutput);
    await opened.close();
    expect(output.slice(from)).not.toContain('Restarting');
  }, 180_000);

  it('keeps the last good docs.json while a saved one is broken, in the terminal and over the page', async () => {
    const from = output.length;
    fs.writeFileSync(path.join(repo, 'docs.json'), '{ "name": "Preview", "navigation": ');
    await printed('docs.json changed and cannot be used; the preview keeps the last good version', from);
    await tab.waitForFunction(() => !!document.querySelector('vite-error-overlay'), undefined, { timeout: 60_000 }).catch(withOutput);
    // The server still answers, with the last good settings.
    expect(await (await fetch(`${url}guides/wiring/`)).text()).toContain('First steps');
    fs.writeFileSync(path.join(repo, 'docs.json'), docsJson([{ group: 'Wiring', pages: ['guides/wiring', 'index'] }]));
    await inSidebar('Wiring');
    expect(preview.exitCode).toBe(null);
  }, 180_000);
});
