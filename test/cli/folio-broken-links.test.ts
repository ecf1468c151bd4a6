// `folio broken-links`, run as an author runs it (the installed command, from a docs repository
// outside Folio's checkout), on a fixture with each kind of break; external links go only to a
// server on 127.0.0.1 the test starts.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installFolio, type InstalledFolio } from '../helpers/folio-cli.ts';
import { freePort } from '../helpers/free-port.ts';
import { makeContentRoot } from '../site/helpers.ts';
import { ROOT } from '../helpers/server.ts';
import { OPENAPI_LINK_SITE } from '../helpers/broken-link-site.ts';

let folio: InstalledFolio;
let repo: string;
let clean: string;
let withApi: string;
let server: http.Server;
let origin: string;
let closed: string;

beforeAll(async () => {
  folio = installFolio();
  server = http.createServer((req, res) => {
    res.writeHead(req.url === '/fine' ? 200 : 404, { 'content-type': 'text/plain' });
    res.end('x');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closed = `http://127.0.0.1:${await freePort()}/`;
  repo = makeContentRoot({
    'docs.json': JSON.stringify({
      name: 'Links',
      navigation: { pages: ['index', 'guides/setup'] },
      redirects: [
        { source: '/old-setup', destination: '/guides/setup' },
        { source: '/retired', destination: '/nowhere' },
        { source: '/ping', destination: '/pong' },
        { source: '/pong', destination: '/ping' },
      ],
    }),
    'index.mdx': [
      '---',
      'title: Home',
      '---',
      '',
      '# Welcome',
      '',
      'Read [setup](/guides/setup) or [the old address](/old-setup) or [relative](guides/setup#install-it).',
      '[missing page](/guides/missing)',
      '[missing anchor](/guides/setup#no-such-part)',
      '[looping](/ping)',
      '<Card title="Card" href="/card-target" />',
      '<Snippet file="absent.mdx" />',
      `[fine](${origin}/fine) [dead](${origin}/dead) [closed](${closed})`,
      '[own anchor](#welcome) [logo](/images/logo.png)',
      '',
    ].join('\n'),
    'guides/setup.mdx': '---\ntitle: Setup\n---\n\n## Install it\n\n<div id="by-id">x</div>\n\n[by id](#by-id) [home](/)\n',
    'images/logo.png': 'not really a png',
  });
  clean = makeContentRoot({
    'docs.json': JSON.stringify({ name: 'Clean', navigation: { pages: ['index', 'more'] } }),
    'index.mdx': '---\ntitle: Home\n---\n\n[more](/more#details)\n',
    'more.mdx': '---\ntitle: More\n---\n\n## Details\n',
  });
  withApi = makeContentRoot(OPENAPI_LINK_SITE);
});

afterAll(async () => {
  folio.remove();
  await new Promise((resolve) => server.close(resolve));
  for (const dir of [repo, clean, withApi]) fs.rmSync(dir, { recursive: true, force: true });
});

describe('folio broken-links', () => {
  it('finds links to missing pages, redirects that lead nowhere or loop, and missing snippets', async () => {
    const { code, stdout } = await folio.run(repo, ['broken-links']);
    expect(code).toBe(1);
    expect(stdout).toContain('index.mdx:8:1: link "/guides/missing": no page or file has this address');
    expect(stdout).toContain('index.mdx:10:1: link "/ping": redirects in a loop: /ping → /pong → /ping');
    expect(stdout).toContain('index.mdx:11:1: link "/card-target": no page or file has this address');
    expect(stdout).toContain('index.mdx:12:1: Snippet file "absent.mdx" not found');
    expect(stdout).toMatch(/^docs\.json:\d+:\d+: redirect \/retired → \/nowhere: redirected to \/nowhere, where there is no page or file$/m);
    expect(stdout).toMatch(/^docs\.json:\d+:\d+: redirect \/ping → \/pong: redirects in a loop/m);
    // Anchors and external links only when asked for; pages, redirects to pages and files are fine.
    expect(stdout).not.toContain('no-such-part');
    expect(stdout).not.toContain(origin);
    expect(stdout).not.toMatch(/old-setup|logo\.png|"\/guides\/setup"/);
  });

  it('--check-anchors finds anchors no heading or element defines', async () => {
    const { code, stdout } = await folio.run(repo, ['broken-links', '--check-anchors']);
    expect(code).toBe(1);
    expect(stdout).toContain('index.mdx:9:1: link "/guides/setup#no-such-part": no heading or element with id "no-such-part" on /guides/setup/');
    expect(stdout).not.toMatch(/#install-it|#welcome|#by-id/);
  });

  it('--check-external reports external links that fail or cannot be reached', async () => {
    const { stdout } = await folio.run(repo, ['broken-links', '--check-external']);
    expect(stdout).toContain(`link "${origin}/dead": answered 404`);
    expect(stdout).toContain(`link "${closed}": could not be reached (ECONNREFUSED)`);
    expect(stdout).not.toContain(`${origin}/fine"`);
  });

  it('knows the pages generated from an OpenAPI file as a deployment does (test/service/deployments-broken-links.test.ts)', async () => {
    const { code, stdout } = await folio.run(withApi, ['broken-links', '--check-anchors']);
    expect(code).toBe(1);
    expect(stdout).toContain('index.mdx:7:19: link "/api-reference/list-eggs": no page or file has this address');
    // An operation the navigation entry does not list gets no page, as in the build.
    expect(stdout).toContain('index.mdx:9:26: link "/api-reference/add-a-nest": no page or file has this address');
    expect(stdout).not.toContain('list-nests');
  });

  it('exits 0 when nothing is broken', async () => {
    const { code, stdout } = await folio.run(clean, ['broken-links', '--check-anchors']);
    expect(code).toBe(0);
    expect(stdout).toContain('0 broken');
  });

  it("finds none in Folio's own docs, whose links go to generated API reference pages and a Snippet with children", async () => {
    const { code, stdout } = await folio.run(ROOT, ['broken-links']);
    expect(stdout).toMatch(/ 0 broken$/m);
    expect(code).toBe(0);
  });
});
