// `npm run dev` previews a content root with `astro dev` and reloads when a page, a snippet,
// docs.json or the OpenAPI file it names changes, or a page is added (docs.json's redirects too). The server runs in its own Astro root, like a build.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeContentRoot } from './helpers.ts';

interface DevServer {
  process: ChildProcess;
  base: string;
  buildRoot: string;
}

let dev: DevServer;
/** A second preview, of a repository in Mintlify's layout. */
let mintlify: DevServer;
let base: string;
let root: string;
let mintlifyRoot: string;

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function page(pathname: string, server = base): Promise<string> {
  const response = await fetch(`${server}${pathname}`);
  return response.text();
}

/** A one-operation OpenAPI file; `extra` adds a second operation. */
function openapi(summary: string, extra?: { operationId: string; summary: string }): string {
  const operation = (operationId: string, title: string) => ({ operationId, summary: title, responses: { '200': { description: 'OK' } } });
  const items: Record<string, unknown> = { get: operation('listItems', summary) };
  if (extra) items.post = operation(extra.operationId, extra.summary);
  return JSON.stringify({ openapi: '3.1.0', info: { title: 'Items', version: '1' }, paths: { '/items': items } });
}

/**
 * Polls until the page contains `text` (the dev server reloads content asynchronously), for up to
 * 90 s: a reload re-syncs the content; it takes 4 s here alone, and took over 40 s while builds of
 * other tests and benchmarks held both cores.
 */
async function eventually(pathname: string, text: string, server = base): Promise<string> {
  let html = '';
  for (const deadline = Date.now() + 90_000; Date.now() < deadline; ) {
    html = await page(pathname, server).catch(() => '');
    if (html.includes(text)) return html;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return html;
}

/** Starts `astro dev` of `contentRoot` in an Astro root of its own, as `npm run dev` does. */
async function startDev(contentRoot: string, name: string): Promise<DevServer> {
  const buildRoot = path.join(process.cwd(), '.folio-builds', `dev-${name}-${process.pid}`);
  fs.mkdirSync(buildRoot, { recursive: true });
  const port = await freePort();
  const config = path.relative(buildRoot, path.join(process.cwd(), 'astro.config.mjs'));
  const child = spawn(process.execPath, [path.join(process.cwd(), 'node_modules/astro/bin/astro.mjs'), 'dev', '--root', buildRoot, '--config', config, '--host', '127.0.0.1', '--port', String(port)], {
    env: { PATH: process.env.PATH, HOME: buildRoot, FOLIO_ROLE: 'site', FOLIO_STATIC_MDX: '0', FOLIO_CONTENT_ROOT: contentRoot, FOLIO_BUILD_ROOT: buildRoot, ASTRO_TELEMETRY_DISABLED: '1' },
    stdio: 'ignore',
    detached: true,
  });
  return { process: child, base: `http://127.0.0.1:${port}`, buildRoot };
}

beforeAll(async () => {
  root = makeContentRoot({
    'docs.json': JSON.stringify({
      name: 'Preview One',
      openapi: 'api.json',
      redirects: [
        { source: '/old-home', destination: '/' },
        { source: '/moved/:slug*', destination: '/api-reference/:slug*', permanent: false },
        // The dev server's own files are never redirected, whatever the rules say.
        { source: '/@vite/*', destination: '/' },
      ],
    }),
    'api.json': openapi('List items'),
    'content/index.mdx': '# Home\n\n<Snippet file="greet.mdx" vars={{ name: "Ada" }} />\n',
    '_snippets/greet.mdx': 'Hello {name} from the first snippet.\n',
  });
  dev = await startDev(root, 'folio');
  base = dev.base;
});

afterAll(() => {
  for (const server of [dev, mintlify]) {
    if (server?.process.pid) process.kill(-server.process.pid, 'SIGKILL');
    if (server) fs.rmSync(server.buildRoot, { recursive: true, force: true });
  }
});

describe('dev preview', () => {
  it('answers docs.json redirects as the live site does, before rendering, and never for its own files', async () => {
    await eventually('/', 'Hello Ada');
    const old = await fetch(`${base}/old-home?ref=mail`, { redirect: 'manual' });
    expect(old.status).toBe(308);
    expect(old.headers.get('location')).toBe('/?ref=mail');
    const moved = await fetch(`${base}/moved/list-items/`, { redirect: 'manual' });
    expect(moved.status).toBe(307);
    expect(moved.headers.get('location')).toBe('/api-reference/list-items');
    const client = await fetch(`${base}/@vite/client`, { redirect: 'manual' });
    expect(client.status).toBe(200);
    expect(client.headers.get('content-type')).toMatch(/javascript/);
  });

  it('serves the content root and reloads after a snippet, a page or docs.json changes', async () => {
    expect(await eventually('/', 'Hello Ada from the first snippet.')).toContain('<title>Home · Preview One</title>');

    fs.writeFileSync(path.join(root, '_snippets/greet.mdx'), 'Hi {name}, the snippet changed.\n');
    expect(await eventually('/', 'Hi Ada, the snippet changed.')).toContain('Hi Ada, the snippet changed.');

    fs.writeFileSync(path.join(root, 'content/index.mdx'), '# Home again\n\nThe page changed.\n');
    expect(await eventually('/', 'The page changed.')).toContain('The page changed.');

    fs.writeFileSync(path.join(root, 'docs.json'), JSON.stringify({ name: 'Preview Two', openapi: 'api.json' }));
    const renamed = await eventually('/', '<title>Home again · Preview Two</title>');
    expect(renamed).toContain('<title>Home again · Preview Two</title>');
    expect(renamed).toContain('The page changed.');
  }, 400_000);

  it('reloads after the OpenAPI file changes: new operations get pages', async () => {
    expect(await eventually('/api-reference/list-items/', '<title>List items · Preview')).toContain('/items');

    fs.writeFileSync(path.join(root, 'api.json'), openapi('List all items', { operationId: 'createItem', summary: 'Create an item' }));
    // At Mintlify's address, from the summary (the operationId's old address only sends readers on).
    expect(await eventually('/api-reference/create-an-item/', '<title>Create an item · Preview')).toContain('<title>Create an item · Preview');
    // A new summary is a new address, as on Mintlify.
    expect(await page('/api-reference/list-all-items/')).toContain('<title>List all items · Preview');
  });

});

// A second preview, started once the first is done with (two at once slow both down on a busy machine).
describe('dev preview of a repository in Mintlify\'s layout', () => {
  beforeAll(async () => {
    mintlifyRoot = makeContentRoot({
      'docs.json': JSON.stringify({ name: 'Lamp Works', navigation: { pages: ['index', 'guides/start'] } }),
      'index.mdx': '---\ntitle: Welcome\n---\n\n![The lamp](/images/lamp.svg)\n',
      'guides/start.mdx': '---\ntitle: Start\n---\n\n![Wiring](./wiring.svg)\n',
      'guides/wiring.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"><title>wiring</title></svg>\n',
      'images/lamp.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><title>lamp</title></svg>\n',
      'snippets/note.mdx': 'A snippet, never served.\n',
      '.env': 'TOKEN=never-served\n',
    });
    mintlify = await startDev(mintlifyRoot, 'mintlify');
  });

  it('serves its static files at their own paths, and nothing else of it', async () => {
    const at = (pathname: string) => fetch(`${mintlify.base}${pathname}`);
    let home = '';
    for (let i = 0; i < 100 && !home.includes('<title>Welcome · Lamp Works</title>'); i++) {
      home = await at('/').then((r) => r.text()).catch(() => '');
      if (!home.includes('<title>Welcome')) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(home).toContain('src="/images/lamp.svg"');
    for (const file of ['/images/lamp.svg', '/guides/wiring.svg']) {
      const response = await at(file);
      expect(response.status, file).toBe(200);
      expect(response.headers.get('content-type'), file).toBe('image/svg+xml');
      // An SVG opened directly runs none of its scripts, as on the live site.
      expect(response.headers.get('content-security-policy'), file).toBe('sandbox');
      expect(await response.text(), file).toContain('<svg');
    }
    for (const never of ['/docs.json', '/.env', '/snippets/note.mdx', '/index.mdx']) {
      const response = await at(never);
      expect(await response.text(), never).not.toMatch(/never-served|never served|"navigation"|title: Welcome/);
    }
  });

  it('reloads each listed page after it changes', async () => {
    fs.writeFileSync(path.join(mintlifyRoot, 'guides/start.mdx'), '---\ntitle: Start\n---\n\nThe wiring guide changed.\n');
    expect(await eventually('/guides/start/', 'The wiring guide changed.', mintlify.base)).toContain('The wiring guide changed.');
    fs.writeFileSync(path.join(mintlifyRoot, 'index.mdx'), '---\ntitle: Welcome\n---\n\nThe home page changed.\n');
    expect(await eventually('/', 'The home page changed.', mintlify.base)).toContain('The home page changed.');
  }, 200_000);

  it('serves a page added and listed in docs.json, and the redirects docs.json gains, as it is saved', async () => {
    fs.writeFileSync(path.join(mintlifyRoot, 'guides/dimmer.mdx'), '---\ntitle: The dimmer\n---\n\nTurn it slowly.\n');
    fs.writeFileSync(path.join(mintlifyRoot, 'docs.json'), JSON.stringify({
      name: 'Lamp Works',
      navigation: { groups: [{ group: 'Wiring and dimming', pages: ['index', 'guides/start', 'guides/dimmer'] }] },
      redirects: [{ source: '/dim', destination: '/guides/dimmer' }],
    }));
    let page = '';
    for (const deadline = Date.now() + 90_000; Date.now() < deadline && !page.includes('Turn it slowly.'); ) {
      page = await fetch(`${mintlify.base}/guides/dimmer/`).then((r) => r.text()).catch(() => '');
      if (!page.includes('Turn it slowly.')) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(page).toContain('<title>The dimmer · Lamp Works</title>');
    expect(page).toContain('Wiring and dimming');
    const dim = await fetch(`${mintlify.base}/dim`, { redirect: 'manual' });
    expect(dim.status).toBe(308);
    expect(dim.headers.get('location')).toBe('/guides/dimmer');
  }, 120_000);
});
