// The API playground in a real browser (issue 11): a site built from Folio's own OpenAPI document,
// served by Folio's hosting (with its Content-Security-Policy), sends requests from the page to a
// running Folio server that allows the site's origin (FOLIO_CORS_ORIGINS). A GET and a POST show
// their status and body, a request without a key shows the 401, the key stays in the tab's
// sessionStorage, and the chosen example language follows the reader to the next page.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildFixture, freePort, serveWithFolio } from './helpers.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const CHROMIUM = '/usr/bin/chromium';
let browser: Browser;
let page: Page;
let api: TestServer;
let site: Awaited<ReturnType<typeof serveWithFolio>>;
let csp: string;

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`this test needs Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  // The site's address must be known before the API starts, to be its one allowed origin.
  const sitePort = await freePort();
  api = await startServer({ env: { FOLIO_CORS_ORIGINS: `http://127.0.0.1:${sitePort}` } });
  const document = JSON.parse(fs.readFileSync('src/api/openapi.json', 'utf8')) as Record<string, unknown>;
  const built = await buildFixture({
    'docs.json': JSON.stringify({ name: 'Folio API', api: { openapi: 'openapi.json' } }),
    'content/index.mdx': '# Folio API\n',
    'openapi.json': JSON.stringify({ ...document, servers: [{ url: api.url }] }),
  });
  expect(built.result.error).toBeUndefined();
  site = await serveWithFolio(built.out, { port: sitePort });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  page = await browser.newPage();
  const response = await page.goto(`${site.url}/api-reference/projects/list-projects/`);
  csp = response?.headers()['content-security-policy'] ?? '';
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await api?.stop();
});

const status = () => page.locator('.playground-status');
const shownBody = () => page.locator('.playground-body code');

describe('the API playground', () => {
  it('may reach exactly the servers the spec lists (connect-src)', () => {
    expect(csp).toContain(`connect-src 'self' ${api.url};`);
  });

  it('sends a GET with the key from the reader\'s browser and shows status, time, headers and body', async () => {
    await page.getByLabel('bearerAuth (Bearer token)').fill(api.defaultKey!);
    await page.getByRole('button', { name: 'Send GET request' }).click();
    await expect.poll(() => status().textContent()).toBe('200 OK');
    expect(await page.locator('.playground-time').textContent()).toMatch(/^\d+ ms$/);
    expect(await page.locator('.playground-headers code').textContent()).toContain('x-ratelimit-remaining:');
    expect(JSON.parse((await shownBody().textContent()) ?? '')).toEqual({ data: [], next_cursor: null });
    expect(await shownBody().locator('.json-key').first().textContent()).toBe('"data"');
  });

  it('keeps the key in the tab\'s sessionStorage and sends a POST built from the body fields, by keyboard', async () => {
    await page.goto(`${site.url}/api-reference/projects/create-a-project/`);
    const key = page.getByLabel('bearerAuth (Bearer token)');
    expect(await key.inputValue()).toBe(api.defaultKey);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    // A required field left empty is refused in the page; nothing is sent.
    await page.locator('#try-body-slug').fill('');
    await page.getByRole('button', { name: 'Send POST request' }).click();
    expect(await page.locator('[data-error-for="try-body-slug"]').textContent()).toBe('Required.');
    expect(await page.locator('#try-body-slug').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('.playground-result').isHidden()).toBe(true);
    await page.locator('#try-body-name').fill('Playground docs');
    await page.locator('#try-body-slug').fill('playground-docs');
    await page.locator('#try-body-slug').press('Enter');
    await expect.poll(() => status().textContent()).toBe('201 Created');
    expect(JSON.parse((await shownBody().textContent()) ?? '')).toMatchObject({ name: 'Playground docs', slug: 'playground-docs', status: 'pending' });
  });

  it('shows a 401 as such when the request carries no key', async () => {
    await page.goto(`${site.url}/api-reference/projects/list-projects/`);
    await page.getByLabel('bearerAuth (Bearer token)').fill('');
    await page.getByRole('button', { name: 'Send GET request' }).click();
    await expect.poll(() => status().textContent()).toBe('401 Unauthorized');
    expect(await status().getAttribute('data-ok')).toBe('false');
    expect(JSON.parse((await shownBody().textContent()) ?? '')).toMatchObject({ error: 'unauthorized' });
  });

  it('remembers the chosen example language on the next page, and the tabs work with the keyboard', async () => {
    await page.getByRole('tab', { name: 'Python' }).click();
    expect(await page.getByRole('tabpanel').textContent()).toContain('import requests');
    await page.goto(`${site.url}/api-reference/projects/get-a-project/`);
    expect(await page.getByRole('tab', { name: 'Python' }).getAttribute('aria-selected')).toBe('true');
    await page.getByRole('tab', { name: 'Python' }).press('ArrowRight');
    expect(await page.getByRole('tab', { name: 'Go' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Go');
    expect(await page.getByRole('tabpanel').textContent()).toContain('http.NewRequest');
  });
});
