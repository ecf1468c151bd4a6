// Serving live sites (docs/decisions.md#serving, issue 4 "Serving"): a real server, a real repository over
// file://, a real build, and raw HTTP requests with Host headers.
import { createHash } from 'node:crypto';
import { readdir, readFile, symlink } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articleOf, deploy, latestDeployment, startDeployingServer, waitForDeployment, type DeployingServer } from '../helpers/deployments.ts';
import type { TestRepo } from '../helpers/git-repos.ts';
import { client, getWithHost, uniqueSlug, type TestServer } from '../helpers/server.ts';
import { siteContentSecurityPolicy } from '../../src/hosting/content-security-policy.ts';
import { THEME_SCRIPT_HASH } from '../../src/site/theme-script.ts';
import { EMBED_ORIGINS } from '../../src/site/embeds.ts';

let fixture: DeployingServer;
let server: TestServer;
let repo: TestRepo;
let api: ReturnType<typeof client>;
let project: { id: string; slug: string };
let liveDir: string;
let deploymentId: string;

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><script>alert(1)</script><rect width="10" height="10"/></svg>\n';

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request with the path sent exactly as given (no client-side normalisation). */
function raw(urlPath: string, options: { method?: string; headers?: Record<string, string>; hostName?: string; agent?: http.Agent } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: server.port, path: urlPath, method: options.method ?? 'GET', agent: options.agent, headers: { host: options.hostName ?? `${project.slug}.localhost`, ...options.headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  fixture = await startDeployingServer();
  ({ server, api } = fixture);
  repo = fixture.host.repo('acme', 'site');
  repo.commit({
    'docs.json': JSON.stringify({
      name: 'Served Site',
      // Served before files (docs/decisions.md#redirects); `interaction` is a key Folio ignores.
      redirects: [
        { source: '/old-install', destination: '/guides/install/' },
        { source: '/legacy', destination: '/guides/install/' },
        { source: '/moved/:slug*', destination: '/guides/:slug*', permanent: false },
        { source: '/ext/*', destination: 'https://archive.example.com/*' },
        { source: '/gone/:any+', destination: '/catch-all/:any+' },
      ],
      interaction: { drilldown: false },
    }),
    // A build may write anything into its output; only the redirects Folio validated count.
    'public/_folio/redirects.json': JSON.stringify({ rules: [{ source: '/evil', destination: 'https://evil.example/' }] }),
    'content/index.mdx': '# Home\n\nFirst home.\n',
    'content/guides/install.mdx': '# Install\n\nInstall steps.\n',
    'content/legacy.mdx': '# Legacy\n\nA page a redirect replaces.\n',
    // Kept out of search, so out of every machine-readable file too.
    'content/hidden-notes.mdx': '---\ntitle: Hidden notes\nhidden: true\n---\n\nThe hidden page text.\n',
    'content/internal.mdx': '---\ntitle: Internal\nnoindex: true\n---\n\nThe noindex page text.\n',
    'content/unsearched.mdx': '---\ntitle: Unsearched\nsearchable: false\n---\n\nThe unsearchable page text.\n',
    'public/logo.svg': SVG,
  });
  const slug = uniqueSlug('served');
  const created = await api('POST', '/v1/projects', { body: { name: 'Served', slug, source_repo: repo.slug } });
  project = { id: created.body.id, slug };
  const done = await waitForDeployment(api, project.id, (await latestDeployment(api, project.id)).id);
  expect(done.status).toBe('succeeded');
  liveDir = path.join(server.dataDir, 'projects', project.id, 'builds', done.id);
  deploymentId = done.id;
});
afterAll(() => fixture.close());

describe('headers', () => {
  it('HTML: content type, revalidation, nosniff, ETag', async () => {
    const res = await raw('/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers.etag).toMatch(/^"[^"]+"$/);
    expect(res.body).toBe(await readFile(path.join(liveDir, 'index.html'), 'utf8'));
  });

  it('hashed assets (_astro/, Pagefind chunks) are immutable for a year; other files revalidate', async () => {
    const css = (await readdir(path.join(liveDir, '_astro'))).find((f) => f.endsWith('.css'))!;
    const asset = await raw(`/_astro/${css}`);
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const fragment = (await readdir(path.join(liveDir, 'pagefind/fragment')))[0];
    expect((await raw(`/pagefind/fragment/${fragment}`)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const entry = await raw('/pagefind/pagefind-entry.json');
    expect(entry.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(entry.headers['cache-control']).toBe('no-cache');
    const js = await raw('/pagefind/pagefind.js');
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('no-cache');
    expect((await raw('/sitemap.xml')).headers['content-type']).toBe('application/xml; charset=utf-8');
    expect((await raw('/robots.txt')).headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('HTML carries no inline script but the theme script its hash allows, and every answer the strict Content-Security-Policy', async () => {
    const policy = siteContentSecurityPolicy({ allowCode: false });
    const directives = policy.split('; ');
    expect(directives).toContain(`script-src 'self' 'wasm-unsafe-eval' ${THEME_SCRIPT_HASH}`);
    expect(directives).toContain("object-src 'none'");
    expect(directives).toContain("base-uri 'self'");
    expect(directives).toContain(`frame-src ${EMBED_ORIGINS.join(' ')}`);
    const home = await raw('/');
    expect(home.headers['content-security-policy']).toBe(policy);
    // Folio's own scripts are files, but for the theme script, which runs by its hash: a policy
    // without 'unsafe-inline' lets them run.
    const scripts = [...home.body.matchAll(/<script\b([^>]*)>([^<]*)<\/script>/g)];
    const inline = scripts.filter(([, attributes]) => !/ src=/.test(attributes!));
    expect(inline.map(([, , text]) => `'sha256-${createHash('sha256').update(text!).digest('base64')}'`)).toEqual([THEME_SCRIPT_HASH]);
    const files = scripts.filter((s) => !inline.includes(s));
    expect(files.length).toBeGreaterThanOrEqual(1);
    for (const [tag] of files) expect(tag).toMatch(/ src="\/_astro\/[^"]+\.js"/);
    const etag = home.headers.etag as string;
    const answers = [
      await raw('/no/such/page'), await raw('/guides/..%2f..%2ffolio.json'), await raw('/', { method: 'POST' }),
      await raw('/', { headers: { 'if-none-match': etag } }), await raw('/', { hostName: 'nobody.localhost' }),
      await raw('/pagefind/pagefind.js'),
    ];
    expect(answers.map((r) => r.status)).toEqual([404, 400, 405, 304, 404, 200]);
    for (const res of answers) expect(res.headers['content-security-policy'], String(res.status)).toBe(policy);
  });

  it('SVG is served with the site policy and a sandbox', async () => {
    const res = await raw('/logo.svg');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['content-security-policy']).toBe(`${siteContentSecurityPolicy({ allowCode: false })}; sandbox`);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toBe(SVG);
  });

  it('If-None-Match with the ETag answers 304 without a body; another ETag gets 200', async () => {
    const first = await raw('/guides/install/');
    const etag = first.headers.etag!;
    const again = await raw('/guides/install/', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe('no-cache');
    expect((await raw('/guides/install/', { headers: { 'if-none-match': `"other", W/${etag}` } })).status).toBe(304);
    expect((await raw('/guides/install/', { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
  });

  it('HEAD answers the GET headers without a body', async () => {
    const get = await raw('/');
    const head = await raw('/', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.body)));
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('other methods get 405 with Allow', async () => {
    const res = await raw('/', { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });
});

describe('paths', () => {
  it('/x and /x/ both reach the page', async () => {
    const plain = await raw('/guides/install');
    const slash = await raw('/guides/install/');
    expect(plain.status).toBe(200);
    expect(slash.status).toBe(200);
    expect(articleOf(plain.body)).toContain('Install steps.');
    expect(plain.body).toBe(slash.body);
  });

  it('serves sitemap.xml, robots.txt and llms.txt, addressing pages at the project url', async () => {
    const { url } = (await api('GET', `/v1/projects/${project.id}`)).body;
    const [sitemap, robots, llms] = await Promise.all(['/sitemap.xml', '/robots.txt', '/llms.txt'].map((p) => raw(p)));
    expect([sitemap.status, robots.status, llms.status]).toEqual([200, 200, 200]);
    expect(url).toBe(`http://${project.slug}.localhost:${server.port}/`);
    expect(sitemap.body).toContain(`<loc>${url}guides/install/</loc>`);
    expect(sitemap.body).toContain(`<loc>${url}</loc>`);
    expect(robots.body).toContain(`Sitemap: ${url}sitemap.xml`);
    expect(llms.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(llms.body.startsWith('# Served Site\n')).toBe(true);
    expect(llms.body).toContain(`- [Home](${url}index.md)`);
    expect(llms.body).toContain(`- [Install](${url}guides/install.md)`);
  });

  it('leaves hidden, noindex and unsearchable pages out of llms.txt and llms-full.txt, as out of the search, while serving them', async () => {
    const { url } = (await api('GET', `/v1/projects/${project.id}`)).body;
    const [llms, full] = await Promise.all(['/llms.txt', '/llms-full.txt'].map((p) => raw(p)));
    expect([llms.status, full.status]).toEqual([200, 200]);
    expect(full.body).toContain('Install steps.');
    for (const [address, title, text] of [['hidden-notes', 'Hidden notes', 'The hidden page text.'], ['internal', 'Internal', 'The noindex page text.'], ['unsearched', 'Unsearched', 'The unsearchable page text.']]) {
      expect(llms.body).not.toContain(`${url}${address}/`);
      expect(llms.body).not.toContain(`[${title}]`);
      expect(full.body).not.toContain(text);
      expect(full.body).not.toContain(`${url}${address}/`);
      const page = await raw(`/${address}/`);
      expect(page.status).toBe(200);
      expect(articleOf(page.body)).toContain(text);
      // The search does not index it either (Pagefind indexes only a data-pagefind-body element).
      expect(page.body).not.toContain('data-pagefind-body');
    }
    expect((await raw('/guides/install/')).body).toContain('data-pagefind-body');
  });

  it('a missing page gets the site’s own 404 page with status 404', async () => {
    const res = await raw('/no/such/page');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toBe(await readFile(path.join(liveDir, '404.html'), 'utf8'));
    expect(res.body).toContain('Served Site');
  });

  it('distinct missing paths, however long, leave nothing behind in the server’s memory', async () => {
    // Each distinct missing path used to stay cached (up to 20,000 per site): +72 MB per 5,000
    // paths of 15,000 characters (npm run bench:tenant-limits -- missing-paths).
    const residentBytes = async () => Number(/VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${server.process.pid}/status`, 'utf8'))![1]) * 1024;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    const ask = async (from: number, count: number) => {
      for (let n = from; n < from + count; n += 8) {
        const answers = await Promise.all(Array.from({ length: 8 }, (_, k) => raw(`/missing-${n + k}-${'m'.repeat(15_000)}`, { agent })));
        for (const res of answers) expect(res.status).toBe(404);
      }
    };
    try {
      await ask(0, 1_000); // the server's own allocations for answering 404s settle first
      const before = await residentBytes();
      await ask(1_000, 10_000); // 150 MB of paths
      expect(await residentBytes()).toBeLessThan(before + 48 * 1024 * 1024);
    } finally {
      agent.destroy();
    }
  });

  it('no request path reads outside the live site', async () => {
    const store = await readFile(path.join(server.dataDir, 'folio.json'), 'utf8');
    const attempts = [
      '/../../../../folio.json',
      '/../../../../../../../../etc/passwd',
      '/%2e%2e/%2e%2e/%2e%2e/%2e%2e/folio.json',
      '/%2E%2E/%2E%2E/%2E%2E/%2E%2E/folio.json',
      '/.%2e/.%2e/.%2e/.%2e/folio.json',
      '/..%2f..%2f..%2f..%2ffolio.json',
      '/guides/..%2F..%2F..%2F..%2F..%2Ffolio.json',
      '/..%5c..%5c..%5c..%5cfolio.json',
      '/..\\..\\..\\..\\folio.json',
      '/index.html%00.css',
      '//etc/passwd',
      '/guides//install',
      '/./index.html',
      '/guides/%2e/install',
      '/%',
      '/%c0%ae%c0%ae/%c0%ae%c0%ae/folio.json',
      '/%252e%252e/%252e%252e/folio.json',
      '/..',
    ];
    for (const attempt of attempts) {
      const res = await raw(attempt);
      expect([400, 404], attempt).toContain(res.status);
      expect(res.headers['x-content-type-options'], attempt).toBe('nosniff');
      expect(res.body, attempt).not.toContain('"orgs"');
      expect(res.body, attempt).not.toContain('root:');
      expect(store).toContain('"orgs"');
    }
  });

  it('never follows a link inside a build (file or directory)', async () => {
    await symlink(path.join(server.dataDir, 'folio.json'), path.join(liveDir, 'planted.json'));
    await symlink(server.dataDir, path.join(liveDir, 'planted-dir'));
    for (const attempt of ['/planted.json', '/planted-dir/folio.json']) {
      const res = await raw(attempt);
      expect(res.status, attempt).toBe(404);
      expect(res.body, attempt).not.toContain('"orgs"');
    }
  });
});

describe('redirects', () => {
  it('answer docs.json redirects before files: 308 when permanent (the default), 307 otherwise, with params, wildcards and the query', async () => {
    const answers = await Promise.all(['/old-install?from=mail', '/moved/install', '/ext/a/b', '/legacy/', '/gone/here/too'].map((p) => raw(p)));
    expect(answers.map((r) => [r.status, r.headers.location])).toEqual([
      [308, '/guides/install/?from=mail'],
      [307, '/guides/install'],
      [308, 'https://archive.example.com/a/b'],
      [308, '/guides/install/'],
      [308, '/catch-all/here/too'],
    ]);
    for (const res of answers) {
      expect(res.headers['content-security-policy']).toBe(siteContentSecurityPolicy({ allowCode: false }));
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    expect((await raw('/old-install', { method: 'HEAD' })).status).toBe(308);
  });

  it('more redirects than the server keeps compiled (a 2 MB docs.json of 1,000-character sources) fail the deployment, naming the key and how to fix it', async () => {
    const big = fixture.host.repo('acme', 'many-redirects');
    // 2,000 rules of 495 segments: the server used to compile them into a million trie nodes (+486 MB).
    const rules = Array.from({ length: 2_000 }, (_, i) => ({ source: `/r${i}${'/x'.repeat(494)}`, destination: '/' }));
    big.commit({ 'docs.json': JSON.stringify({ name: 'Many', redirects: rules }), 'content/index.mdx': '# Home\n\nHome.\n' });
    const created = await api('POST', '/v1/projects', { body: { name: 'Many', slug: uniqueSlug('many'), source_repo: big.slug } });
    expect(created.status).toBe(201);
    const done = await waitForDeployment(api, created.body.id, (await latestDeployment(api, created.body.id)).id);
    expect(done.status).toBe('failed');
    expect(done.error.message).toContain('docs.json:1:1: redirects: the sources have 990,000 path segments in all, more than the 20,000 a site may have: merge rules with patterns such as "/old/:slug*"');
    expect((await raw('/r1/x', { hostName: `${created.body.slug}.localhost` })).status).toBe(404);
  });

  it('never redirect Folio’s own assets, and never serve the stored rules or rules a build planted', async () => {
    const css = (await readdir(path.join(liveDir, '_astro'))).find((f) => f.endsWith('.css'))!;
    expect((await raw(`/_astro/${css}`)).status).toBe(200);
    expect((await raw('/pagefind/pagefind.js')).status).toBe(200);
    expect((await raw('/_folio/redirects.json')).status).toBe(404);
    const evil = await raw('/evil');
    expect(evil.status).toBe(404);
    expect(evil.headers.location).toBeUndefined();
  });

  it('the deployment log warns about the docs.json key Folio ignores', async () => {
    const log = await api('GET', `/v1/projects/${project.id}/deployments/${deploymentId}/log`);
    expect(log.text).toMatch(/\[folio\] warning: docs\.json:\d+:\d+: interaction: not supported by Folio yet: ignored/);
  });
});

describe('hosts', () => {
  it('an unknown site host and a project without a deployment answer 404', async () => {
    expect((await raw('/', { hostName: 'nobody-here.localhost' })).status).toBe(404);
    const fresh = await api('POST', '/v1/projects', { body: { name: 'Fresh', slug: uniqueSlug('fresh') } });
    const res = await getWithHost(server.url, '/', `${fresh.body.slug}.localhost`);
    expect(res.status).toBe(404);
    expect(res.text).toContain('nothing deployed here yet');
  });
});

describe('redeploys', () => {
  it('swap the site without one failed request, then serve the new content', async () => {
    repo.commit({ 'content/index.mdx': '# Home\n\nSecond home.\n' });
    let stop = false;
    const statuses: number[] = [];
    const bodies = new Set<string>();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    const hammer = async () => {
      while (!stop) {
        const res = await raw('/', { agent });
        statuses.push(res.status);
        bodies.add(articleOf(res.body).includes('Second home.') ? 'new' : articleOf(res.body).includes('First home.') ? 'old' : 'other');
      }
    };
    const load = Promise.all([hammer(), hammer(), hammer()]);
    const done = await deploy(api, project.id);
    // Load goes on until the new site has been answered, then stops.
    await expect.poll(() => bodies.has('new'), { timeout: 20_000 }).toBe(true);
    stop = true;
    await load;
    agent.destroy();
    expect(done.status).toBe('succeeded');
    expect(statuses.length).toBeGreaterThan(10);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(bodies).toEqual(new Set(['old', 'new']));
    expect(articleOf((await raw('/')).body)).toContain('Second home.');
  });
});
