// The API playground in a real browser (issue 11): a site built from Folio's own OpenAPI document,
// served by Folio's hosting (with its Content-Security-Policy), sends requests from the page to a
// running Folio server that allows the site's origin (FOLIO_CORS_ORIGINS). A GET and a POST show
// their status and body, a request without a key shows the 401, the key stays in the tab's
// sessionStorage, and the chosen example language follows the reader to the next page. A second
// spec stands for a tenant's own API (a small echo server that allows the site's origin): its body
// of nested objects and lists is built field by field, checked before sending, and sent as JSON.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { buildFixture, freePort, serveWithFolio } from './helpers.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { launchChromium } from '../helpers/browser.ts';

const CHROMIUM = '/usr/bin/chromium';
let browser: Browser;
let page: Page;
let api: TestServer;
let site: Awaited<ReturnType<typeof serveWithFolio>>;
let csp: string;
let echo: { url: string; close(): Promise<void> };

/** A document for the echo API: an OAuth 2.0 token, a list in the query, nested objects and lists in the body. */
const echoSpec = (url: string) => ({
  openapi: '3.1.0',
  info: { title: 'Shipping', version: '1' },
  servers: [{ url }],
  security: [{ oauth: [] }],
  components: { securitySchemes: { oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: `${url}/token`, scopes: {} } } } } },
  paths: {
    '/shipments': {
      post: {
        summary: 'Send a shipment',
        parameters: [{ name: 'notify', in: 'query', schema: { type: 'array', items: { type: 'string', enum: ['email', 'sms'] } } }],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['reference', 'parcels'],
                properties: {
                  reference: { type: 'string' },
                  contact: { type: 'string', format: 'email' },
                  address: { type: 'object', required: ['city'], properties: { city: { type: 'string' }, lines: { type: 'array', items: { type: 'string' } } } },
                  parcels: { type: 'array', minItems: 1, items: { type: 'object', required: ['weight'], properties: { weight: { type: 'number' }, fragile: { type: 'boolean' } } } },
                },
              },
            },
          },
        },
        responses: { '200': { description: 'What the server received' } },
      },
    },
  },
});

/** Answers every request with what it received, to pages of `origin` only (CORS). */
async function startEcho(origin: () => string): Promise<typeof echo> {
  const server = http.createServer((request, response) => {
    response.setHeader('Access-Control-Allow-Origin', origin());
    if (request.method === 'OPTIONS') {
      response.writeHead(204, { 'Access-Control-Allow-Methods': 'POST', 'Access-Control-Allow-Headers': 'authorization, content-type' }).end();
      return;
    }
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://echo');
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ method: request.method, path: url.pathname, query: url.search, authorization: request.headers.authorization ?? null, body: JSON.parse(body || 'null') }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`this test needs Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  // The site's address must be known before the API starts, to be its one allowed origin.
  const sitePort = await freePort();
  api = await startServer({ env: { FOLIO_CORS_ORIGINS: `http://127.0.0.1:${sitePort}` } });
  echo = await startEcho(() => `http://127.0.0.1:${sitePort}`);
  const document = JSON.parse(fs.readFileSync('src/api/openapi.json', 'utf8')) as Record<string, unknown>;
  const built = await buildFixture({
    'docs.json': JSON.stringify({ name: 'Folio API', api: { openapi: 'openapi.json' }, navigation: [{ group: 'Start', pages: ['index'] }, { group: 'Shipping', openapi: 'shipping.json' }] }),
    'content/index.mdx': '# Folio API\n',
    'openapi.json': JSON.stringify({ ...document, servers: [{ url: api.url }] }),
    'shipping.json': JSON.stringify(echoSpec(echo.url)),
  });
  expect(built.result.error).toBeUndefined();
  site = await serveWithFolio(built.out, { port: sitePort });
  browser = await launchChromium();
  page = await browser.newPage();
  const response = await page.goto(`${site.url}/api-reference/projects/list-projects/`);
  csp = response?.headers()['content-security-policy'] ?? '';
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await api?.stop();
  await echo?.close();
});

// Answers are awaited (a loaded machine may take seconds): what is asserted is what they show, not how fast.
const status = () => page.locator('.playground-status');
const shownBody = () => page.locator('.playground-body code');

describe('the API playground', () => {
  it('may reach exactly the servers the spec lists (connect-src)', () => {
    expect(csp).toMatch(new RegExp(`connect-src 'self' (${api.url} ${echo.url}|${echo.url} ${api.url});`));
  });

  it('sends a GET with the key from the reader\'s browser and shows status, time, headers and body', async () => {
    await page.getByLabel('bearerAuth (Bearer token)').fill(api.defaultKey!);
    await page.getByRole('button', { name: 'Send GET request' }).click();
    await expect.poll(() => status().textContent(), { timeout: 20_000 }).toBe('200 OK');
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
    await expect.poll(() => status().textContent(), { timeout: 20_000 }).toBe('201 Created');
    expect(JSON.parse((await shownBody().textContent()) ?? '')).toMatchObject({ name: 'Playground docs', slug: 'playground-docs', status: 'pending' });
  });

  it('shows a 401 as such when the request carries no key', async () => {
    await page.goto(`${site.url}/api-reference/projects/list-projects/`);
    await page.getByLabel('bearerAuth (Bearer token)').fill('');
    await page.getByRole('button', { name: 'Send GET request' }).click();
    await expect.poll(() => status().textContent(), { timeout: 20_000 }).toBe('401 Unauthorized');
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

  it('builds nested objects and lists from the schema, checks them next to each field, and sends them as JSON, by keyboard', async () => {
    await page.goto(`${site.url}/api-reference/send-a-shipment/`);
    await page.getByLabel('oauth (OAuth 2.0 access token)').fill('tok-123');
    await page.getByLabel('reference').fill('ref-1');
    await page.getByLabel('contact').fill('not-an-email');
    const send = page.getByRole('button', { name: 'Send POST request' });
    await send.click();
    const error = (id: string) => page.locator(`[data-error-for="${id}"]`).textContent();
    expect(await error('try-body-contact')).toBe('Not an email address (name@example.com).');
    expect(await error('try-body-parcels')).toBe('Add at least 1 item.');
    // An optional object nobody touched is left out, so its required city is not asked for.
    expect(await error('try-body-address-city')).toBe('');
    expect(await page.locator('.playground-result').isHidden()).toBe(true);
    // The first invalid field has the focus; typing clears its message.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('try-body-contact');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('ops@example.com');
    expect(await error('try-body-contact')).toBe('');

    // Add an item with the keyboard: its first field gets the focus.
    await page.getByRole('button', { name: 'Add parcels item' }).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.type('2.5');
    await page.getByRole('button', { name: 'Add parcels item' }).press('Enter');
    const parcels = page.locator('#try-body-parcels .playground-item');
    expect(await parcels.count()).toBe(2);
    await parcels.nth(1).getByRole('button', { name: 'Remove parcels item' }).press('Enter');
    expect(await parcels.count()).toBe(1);
    // Touching the address makes its required city required.
    await page.getByRole('button', { name: 'Add lines item' }).press('Enter');
    await page.keyboard.type('Dock 4');
    await page.getByRole('button', { name: 'Add notify item' }).press('Enter');
    await page.keyboard.press('ArrowDown'); // the select's first choice is email; the second sms
    await send.click();
    expect(await error('try-body-address-city')).toBe('Required.');
    await page.locator('#try-body-address-city').fill('Porto');
    await send.press('Enter');
    await expect.poll(() => status().textContent(), { timeout: 20_000 }).toBe('200 OK');
    expect(JSON.parse((await shownBody().textContent()) ?? '')).toEqual({
      method: 'POST',
      path: '/shipments',
      query: '?notify=sms',
      authorization: 'Bearer tok-123',
      body: { reference: 'ref-1', contact: 'ops@example.com', address: { city: 'Porto', lines: ['Dock 4'] }, parcels: [{ weight: 2.5 }] },
    });
  });
});
