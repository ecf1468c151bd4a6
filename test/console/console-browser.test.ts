// The web console in a real browser (Debian's Chromium), the whole way a team takes: invite →
// choose a password (which signs in) → sign out → sign in (by keyboard) → create a project → connect a repository (a local
// bare repo over file://) → deploy → follow the log → Settings → API Keys → Create API Key → use
// it with the API → open the page again (the key is not shown again) → revoke → 401. Every page
// is checked with axe-core (no serious or critical violation), must not scroll sideways at
// 390 px, and is saved as a screenshot at desktop and phone width in test-artifacts/console/.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { startDeployingServer, type DeployingServer } from '../helpers/deployments.ts';
import { client } from '../helpers/server.ts';
import { invite, PASSWORD } from '../helpers/console.ts';
import { CHROMIUM, launchChromium } from '../helpers/browser.ts';
import { capture as checkAndSave, DESKTOP, PHONE } from '../helpers/console-page.ts';

let deploying: DeployingServer;
let browser: Browser;
let page: Page;
let origin: string;

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`this test needs Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  // Progress reports every 100 ms: the deployment page shows the pages of even a small build.
  deploying = await startDeployingServer({ FOLIO_BUILD_PROGRESS_MS: '100' });
  origin = `http://console.localhost:${deploying.server.port}`;
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: DESKTOP });
  page = await context.newPage();
  // Any script error or CSP refusal on a console page is a bug. (Answers with an error status,
  // such as a form sent back with a 400, are logged as failed resources: those are expected.)
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
});

afterAll(async () => {
  await browser?.close();
  await deploying?.close();
});

const consoleErrors: string[] = [];

/** Checks the page (axe, no sideways scroll at 390 px) and saves it at both widths. */
const capture = (name: string) => checkAndSave(page, name);

describe('console in a browser', () => {
  it('takes a team from an invite to a deployed project and a revoked API key', async () => {
    const { server, host } = deploying;
    const repo = host.repo('acme', 'handbook');
    repo.commit({
      'docs.json': JSON.stringify({ name: 'Handbook' }),
      'content/index.mdx': '---\ntitle: Welcome\n---\n\n# Welcome\n\nThe handbook of Acme.\n',
      'content/guides/start.mdx': '---\ntitle: Getting started\n---\n\nInstall the thing.\n',
    });

    // Invite → choose a password.
    const link = await invite(server.dataDir, 'default', 'lead@example.com', 'owner');
    expect(link.startsWith(`${origin}/invite/`)).toBe(true);
    await page.goto(link);
    await expect(page.locator('h1').textContent()).resolves.toBe('Choose a password');
    await capture('invite');
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByLabel('Repeat the password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Save password' }).click();
    // Choosing the password signed in; sign out, then sign in again by keyboard only.
    await page.waitForURL(`${origin}/projects`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${origin}/sign-in`);
    await capture('sign-in');
    await page.getByLabel('Email').focus();
    await page.keyboard.type('lead@example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${origin}/projects`);
    expect((await page.context().cookies()).map((c) => ({ name: c.name, httpOnly: c.httpOnly, sameSite: c.sameSite, domain: c.domain }))).toEqual([
      { name: 'folio_session', httpOnly: true, sameSite: 'Lax', domain: 'console.localhost' },
    ]);

    // Create a project: an invalid slug first shows the API's message beside the field.
    await page.getByLabel('Name').fill('Acme Handbook');
    await page.getByLabel('Slug').fill('Not A Slug');
    await page.getByRole('button', { name: 'Create project' }).click();
    await expect(page.locator('#slug-error').textContent()).resolves.toContain('slug must be 1 to 63 lower-case letters');
    await expect(page.getByLabel('Slug').getAttribute('aria-invalid')).resolves.toBe('true');
    await capture('projects-with-error');
    await page.getByLabel('Slug').fill('acme-handbook');
    await page.getByRole('button', { name: 'Create project' }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe('Acme Handbook');
    await expect(page.locator('.notice[role=status]').textContent()).resolves.toContain('Project created.');

    // Connect the repository: a deployment is queued.
    await page.getByRole('textbox', { name: 'Repository (owner/name)' }).fill(repo.slug);
    await page.getByRole('button', { name: 'Connect repository' }).click();
    await expect(page.locator('.notice[role=status]').textContent()).resolves.toContain('Repository saved');
    await capture('project');

    // Deploy and follow the log until the build succeeds (the page's script updates it).
    await page.getByRole('link', { name: 'Deployments' }).click();
    await capture('deployments');
    await page.getByRole('button', { name: 'Deploy now' }).click();
    await page.waitForURL(/\/deployments\/[0-9a-f-]{36}\?started=1$/);
    await expect(page.locator('.notice[role=status]').textContent()).resolves.toContain('Deployment queued.');
    // While it builds: the step and "n / total pages", and a bar that says as much.
    await page.locator('#deployment-elapsed', { hasText: / [0-2] \/ 2 pages \(building for \d+ s\)$/ }).waitFor({ timeout: 120_000 });
    const bar = await page.locator('#deployment-progress progress').evaluate((el: HTMLProgressElement) => ({ max: el.max, value: el.value, determinate: el.hasAttribute('value') }));
    expect(bar.determinate).toBe(true);
    expect(bar.max).toBe(2);
    expect(bar.value).toBeLessThanOrEqual(2);
    await capture('deployment-building');
    await page.locator('#deployment-status', { hasText: /^(succeeded|failed)$/ }).waitFor({ timeout: 120_000 });
    expect(await page.locator('#deployment-status').textContent()).toBe('succeeded');
    expect(await page.locator('#deployment-progress').count()).toBe(1);
    await expect(page.locator('#deployment-progress').isHidden()).resolves.toBe(true); // the script hid it when the build ended
    expect(await page.locator('#deployment-log').textContent()).toMatch(/\S/);
    await capture('deployment');
    await page.getByRole('link', { name: 'All deployments' }).click();
    await expect(page.locator('td[data-label="Duration"]').first().textContent()).resolves.toMatch(/^\d+ (s|min \d+ s)$/);
    await page.goto(`${origin}/projects`);
    await expect(page.locator('.status').first().textContent()).resolves.toBe('active');
    await capture('projects');

    // Pages of a repository project are read-only.
    await page.getByRole('link', { name: 'Acme Handbook' }).click();
    await page.getByRole('link', { name: 'Pages' }).click();
    await page.getByRole('link', { name: 'guides/start' }).waitFor(); // listed (the click below opens it)
    await capture('pages');
    await page.getByRole('link', { name: 'guides/start' }).click();
    await expect(page.locator('pre.preview').textContent()).resolves.toContain('Install the thing.');
    await expect(page.locator('textarea').count()).resolves.toBe(0);
    await capture('page');

    // Settings → API Keys → Create API Key: shown once, with a Copy button.
    await page.getByRole('link', { name: 'API Keys' }).click();
    await page.getByLabel('Name').fill('CI deploys');
    await page.getByLabel('projects:read').check();
    await page.getByLabel('deployments:read').check();
    await page.getByRole('button', { name: 'Create API Key' }).click();
    const key = (await page.locator('#new-key-value').textContent())!;
    expect(key).toMatch(/^folio_[A-Za-z0-9_-]{43}$/);
    await expect(page.getByRole('button', { name: 'Copy' }).isVisible()).resolves.toBe(true);
    await capture('api-key-created');

    // The key works with the API, with exactly its scopes.
    const api = client(server.url, key);
    const projects = await api('GET', '/v1/projects');
    expect(projects.status).toBe(200);
    expect(projects.body.data.map((p: { slug: string }) => p.slug)).toContain('acme-handbook');
    expect((await api('POST', '/v1/projects', { body: { name: 'No', slug: 'no-scope' } })).status).toBe(403);

    // Opened again, the page lists the key by its prefix, never its value.
    await page.goto(`${origin}/settings/api-keys`);
    const listed = await page.content();
    expect(listed).not.toContain(key);
    expect(listed).toContain(key.slice(0, 12));
    await capture('api-keys');

    // Revoke, confirmed: refused at once.
    const row = page.getByRole('row').filter({ hasText: 'CI deploys' });
    await row.getByText('Revoke…').click();
    await row.getByRole('button', { name: /Yes, revoke/ }).click();
    await expect(page.locator('.notice[role=status]').textContent()).resolves.toContain('Revoked the key "CI deploys"');
    expect((await api('GET', '/v1/projects')).status).toBe(401);

    // Disconnected, the pages become editable here: a live preview, and the API's own messages.
    await page.goto(`${origin}/projects`);
    await page.getByRole('link', { name: 'Acme Handbook' }).click();
    await page.getByRole('button', { name: 'Disconnect repository' }).click();
    await expect(page.locator('.notice[role=status]').textContent()).resolves.toContain('Repository disconnected');
    await page.getByRole('link', { name: 'Pages' }).click();
    await page.getByRole('link', { name: 'guides/start' }).click();
    await page.getByLabel('Content (Markdown or MDX)').fill('## Steps\n\nInstall **the tool**.\n');
    await expect(page.locator('#content-preview strong').textContent()).resolves.toBe('the tool');
    await capture('page-editor');
    await page.getByLabel('Content (Markdown or MDX)').fill('<script>alert(1)</script>\n');
    await page.getByRole('button', { name: 'Save page' }).click();
    await expect(page.locator('#content-error').textContent()).resolves.toContain('the <script> element is not allowed');
    await page.getByLabel('Content (Markdown or MDX)').fill('Install **the tool**.\n');
    await page.getByRole('button', { name: 'Save page' }).click();
    await expect(page.locator('.notice[role=status]').textContent()).resolves.toContain('Saved.');
    const saved = await client(server.url, server.defaultKey)('GET', `/v1/projects/${projects.body.data.find((p: { slug: string }) => p.slug === 'acme-handbook').id}/pages/guides/start`);
    expect(saved.body.content).toBe('Install **the tool**.\n');

    for (const [name, url] of [['organization', '/settings/organization'], ['members', '/settings/members'], ['account', '/account']]) {
      await page.goto(`${origin}${url}`);
      await capture(name);
    }
    expect(consoleErrors).toEqual([]);
  }, 300_000); // a real clone and astro build on a shared 2-core machine

  it('works without JavaScript: password, sign-in, a project, a key, sign-out', async () => {
    const { server } = deploying;
    const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
    const plain = await context.newPage();
    try {
      await plain.goto(await invite(server.dataDir, 'default', 'nojs@example.com', 'owner'));
      await plain.getByLabel('New password').fill(PASSWORD);
      await plain.getByLabel('Repeat the password').fill(PASSWORD);
      await plain.getByRole('button', { name: 'Save password' }).click();
      await plain.waitForURL(`${origin}/projects`); // signed in
      await plain.getByRole('button', { name: 'Sign out' }).click();
      await plain.waitForURL(`${origin}/sign-in`);
      await plain.getByLabel('Email').fill('nojs@example.com');
      await plain.getByLabel('Password').fill(PASSWORD);
      await plain.getByRole('button', { name: 'Sign in' }).click();
      await plain.waitForURL(`${origin}/projects`);
      await plain.getByLabel('Name').fill('Plain HTML');
      await plain.getByLabel('Slug').fill('plain-html');
      await plain.getByRole('button', { name: 'Create project' }).click();
      await expect(plain.locator('h1').textContent()).resolves.toBe('Plain HTML');
      await plain.goto(`${origin}/settings/api-keys`);
      await plain.getByLabel('Name').fill('No script');
      await plain.getByLabel('pages:read').check();
      await plain.getByRole('button', { name: 'Create API Key' }).click();
      const key = (await plain.locator('#new-key-value').textContent())!;
      expect((await client(server.url, key)('GET', '/v1/projects/x/pages')).status).toBe(404); // authenticated, scoped
      // The Copy button needs script: without it, it stays hidden and the key is selectable text.
      await expect(plain.getByRole('button', { name: 'Copy' }).isVisible()).resolves.toBe(false);
      await plain.getByRole('button', { name: 'Sign out' }).click();
      await plain.waitForURL(`${origin}/sign-in`);
      await plain.goto(`${origin}/projects`);
      await plain.waitForURL(`${origin}/sign-in`);
    } finally {
      await context.close();
    }
  });
});
