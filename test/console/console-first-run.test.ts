// A new user's first minutes, from `npm start` on an empty data dir: the one-time link it prints
// makes its holder the first owner (they choose their address and password, and are signed in),
// then Settings → API Keys → Create API Key, the key used with the API, revoked, refused. In
// Chromium at 1280 and 390 px, light and dark, checked with axe and saved as screenshots
// (test-artifacts/console/first-run-*); once more with the keyboard alone; and no word of the
// keys, members or deployments tables split over two lines.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { admin, client, removeDir, startServer, type TestServer } from '../helpers/server.ts';
import { consoleRequest, PASSWORD, sessionCookie } from '../helpers/console.ts';
import { CHROMIUM, launchChromium } from '../helpers/browser.ts';
import { brokenWords, capture, DESKTOP, PHONE, tabTo } from '../helpers/console-page.ts';

const LINK = /http:\/\/console\.localhost:\d+\/invite\/[A-Za-z0-9_-]{43}/;
const BOTH = { schemes: ['light', 'dark'] as ('light' | 'dark')[] };

let browser: Browser;
const servers: TestServer[] = [];

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`this test needs Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  for (const server of servers) {
    await server.stop();
    await removeDir(server.dataDir);
  }
});

/** `npm start` on an empty data dir: the server, its first key and the first owner's link it printed. */
async function firstStart(): Promise<{ server: TestServer; link: string; origin: string }> {
  const server = await startServer();
  servers.push(server);
  const link = LINK.exec(server.output())?.[0];
  if (!link) throw new Error(`no first owner's link in the output:\n${server.output()}`);
  return { server, link, origin: `http://console.localhost:${server.port}` };
}

/** Script errors and CSP refusals on a page (answers with an error status are expected). */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

describe("a new user's first start", () => {
  it('goes from the printed link to a created, used and revoked key through Settings → API Keys → Create API Key', async () => {
    const { server, link, origin } = await firstStart();
    // A project with a deployment (it fails at once: the repository does not exist), for its table.
    const setup = client(server.url, server.defaultKey);
    const project = await setup('POST', '/v1/projects', { body: { name: 'Team handbook for the platform group', slug: 'handbook', source_repo: 'acme/missing' } });
    expect(project.status).toBe(201);

    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const errors = collectErrors(page);

    await page.goto(link);
    await expect(page.locator('h1').textContent()).resolves.toBe('Welcome to Folio');
    await capture(page, 'first-run-welcome', BOTH);
    await page.getByLabel('Your email').fill('ada@example.com');
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByLabel('Repeat the password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create my account' }).click();
    // Signed in at once, as the owner.
    await page.waitForURL(`${origin}/settings?welcome=1`);
    await expect(page.locator('.notice[role=status]').textContent()).resolves.toContain('you own default');
    await capture(page, 'first-run-settings', BOTH);

    // The spec's path, from anywhere: Settings → API Keys → Create API Key.
    const sidebar = page.getByRole('navigation', { name: 'Console' });
    await sidebar.getByRole('link', { name: 'Projects', exact: true }).click();
    await sidebar.getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByRole('main').getByRole('link', { name: 'API Keys' }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe('API Keys');
    await page.getByLabel('Name').fill('Docs deploy bot');
    await page.getByLabel('projects:read').check();
    await page.getByRole('button', { name: 'Create API Key' }).click();
    const key = (await page.locator('#new-key-value').textContent())!;
    expect(key).toMatch(/^folio_[A-Za-z0-9_-]{43}$/);
    await expect(page.locator('#new-key').textContent()).resolves.toContain('shown only this once');
    await capture(page, 'first-run-key-created', BOTH);

    // Used with the API: the list says when.
    const api = client(server.url, key);
    expect((await api('GET', '/v1/projects')).status).toBe(200);
    await page.goto(`${origin}/settings/api-keys`);
    const row = page.getByRole('row').filter({ hasText: 'Docs deploy bot' });
    await expect(row.locator('td[data-label="Last used"]').textContent()).resolves.toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    expect(await page.content()).not.toContain(key);
    for (const width of [DESKTOP, PHONE]) {
      await page.setViewportSize(width);
      expect(await brokenWords(page, 'table.keys'), `keys table at ${width.width} px`).toEqual([]);
    }
    await page.setViewportSize(DESKTOP);

    // Revoked: a confirmation on the page, and the API refuses the key at once.
    await row.getByText('Revoke…').click();
    await row.getByRole('button', { name: /Yes, revoke/ }).click();
    await page.locator('.notice[role=status]', { hasText: 'Revoked the key "Docs deploy bot"' }).waitFor(); // the answer to the form
    expect((await api('GET', '/v1/projects')).status).toBe(401);
    await capture(page, 'first-run-key-revoked', BOTH);

    // The other tables keep their words whole too.
    await page.goto(`${origin}/settings/members`);
    await capture(page, 'first-run-members', BOTH);
    for (const width of [DESKTOP, PHONE]) {
      await page.setViewportSize(width);
      expect(await brokenWords(page, 'table.members'), `members table at ${width.width} px`).toEqual([]);
    }
    await page.setViewportSize(DESKTOP);
    await page.goto(`${origin}/projects/${project.body.id}/deployments`);
    await page.locator('.status', { hasText: 'failed' }).waitFor();
    await capture(page, 'first-run-deployments', BOTH);
    for (const width of [DESKTOP, PHONE]) {
      await page.setViewportSize(width);
      expect(await brokenWords(page), `deployments table at ${width.width} px`).toEqual([]);
    }
    // Usage at a glance: the two API requests of this organization (the setup and the key's), charted.
    await page.goto(`${origin}/settings/organization`);
    await expect(page.locator('#usage-caption').textContent()).resolves.toMatch(/In the last hour: 2 API requests, at most \d in a minute/);
    expect(await page.locator('figure.chart rect.bar').count()).toBeGreaterThanOrEqual(1);
    await capture(page, 'first-run-organization', BOTH);
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);

  it('takes the same path with the keyboard alone, on a phone in dark mode', async () => {
    const { server, link, origin } = await firstStart();
    const context = await browser.newContext({ viewport: PHONE, colorScheme: 'dark' });
    const page = await context.newPage();
    const errors = collectErrors(page);
    await page.goto(link);
    await tabTo(page, /^Your email$/);
    await page.keyboard.type('grace@example.com');
    await tabTo(page, /^New password$/);
    await page.keyboard.type(PASSWORD);
    await tabTo(page, /^Repeat the password$/);
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${origin}/settings?welcome=1`);
    await tabTo(page, /^Projects$/);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${origin}/projects`);
    await tabTo(page, /^Settings$/);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${origin}/settings`);
    await tabTo(page, /^API Keys$/);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${origin}/settings/api-keys`);
    await tabTo(page, /^Name$/);
    await page.keyboard.type('Keyboard key');
    await tabTo(page, /projects:read/);
    await page.keyboard.press('Space');
    await tabTo(page, /^Create API Key$/);
    await page.keyboard.press('Enter');
    await page.locator('#new-key-value').waitFor();
    const key = (await page.locator('#new-key-value').textContent())!;
    const api = client(server.url, key);
    expect((await api('GET', '/v1/projects')).status).toBe(200);
    await tabTo(page, /^Revoke…$/);
    await page.keyboard.press('Enter');
    await tabTo(page, /^Yes, revoke Keyboard key$/);
    await page.keyboard.press('Enter');
    await page.locator('.notice[role=status]', { hasText: 'Revoked the key "Keyboard key"' }).waitFor(); // the answer to the form
    expect((await api('GET', '/v1/projects')).status).toBe(401);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  it('honours the first owner link once, for an address of its holder, and prints none on a later start', async () => {
    const { server, link } = await firstStart();
    const path = new URL(link).pathname;
    const page = await consoleRequest(server, 'GET', path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('first owner of default');
    for (const [email, message] of [['', 'email must be an address'], ['me@folio.invalid', 'email must be your own address']]) {
      const refused = await consoleRequest(server, 'POST', path, { form: { email, password: PASSWORD, confirm: PASSWORD } });
      expect(refused.status).toBe(400);
      expect(refused.text).toContain(message);
      expect(sessionCookie(refused)).toBeUndefined();
    }
    const claimed = await consoleRequest(server, 'POST', path, { form: { email: 'Ada@Example.com', password: PASSWORD, confirm: PASSWORD } });
    expect(claimed.status).toBe(303);
    const session = sessionCookie(claimed)!.value;
    expect((await consoleRequest(server, 'GET', '/settings/api-keys', { session })).status).toBe(200); // an owner
    expect((await consoleRequest(server, 'POST', path, { form: { email: 'eve@example.com', password: PASSWORD, confirm: PASSWORD } })).status).toBe(404);
    const users = JSON.parse((await admin(server.dataDir, 'user', 'list', '--org', 'default', '--json')).stdout).users;
    expect(users.map((u: { email: string; memberships: { role: string }[] }) => [u.email, u.memberships[0].role])).toEqual([['ada@example.com', 'owner']]);

    await server.stop();
    const again = await startServer({ dataDir: server.dataDir });
    servers.push(again);
    expect(again.output()).not.toMatch(LINK);
    expect(again.defaultKey).toBeUndefined();
  }, 60_000);
});
