// The MCP server of every site (docs/decisions.md#ai-ready-docs): a real server deploys two
// projects from real repositories; the official MCP TypeScript SDK client connects to one site's
// /mcp over HTTP, lists tools, searches and reads pages, and cannot reach the other project's
// pages, hidden or noindex pages, or any file outside the build.
import http from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestDeployment, startDeployingServer, waitForDeployment, type DeployingServer } from '../helpers/deployments.ts';
import { uniqueSlug } from '../helpers/server.ts';
import { addressGroup, MCP_REQUESTS_PER_MINUTE } from '../../src/hosting/serve-site.ts';
import { MAX_QUERY_CHARS, MCP_SEARCHES_PER_MINUTE } from '../../src/hosting/site-mcp.ts';

let fixture: DeployingServer;
let docs: { slug: string };
let other: { slug: string };

/** fetch for the SDK that reaches the test server with the site's Host header (`{slug}.localhost` needs no DNS). */
function siteFetch(slug: string, address = '127.0.0.1') {
  return (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: fixture.server.port, path: url.pathname + url.search, method: init?.method ?? 'GET', localAddress: address, headers: { ...headers, host: `${slug}.localhost` } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
          resolve(new Response([204, 202, 304].includes(res.statusCode!) ? null : Buffer.concat(chunks), { status: res.statusCode!, headers: h }));
        });
      });
      req.on('error', reject);
      req.end(typeof init?.body === 'string' ? init.body : undefined);
    });
  };
}

async function connect(slug: string, address?: string): Promise<Client> {
  const mcp = new Client({ name: 'folio-test', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`http://${slug}.localhost/mcp`), { fetch: siteFetch(slug, address) }));
  return mcp;
}

const textOf = (result: unknown) => ((result as { content: { text: string }[] }).content[0]!.text);

async function deployed(owner: string, files: Record<string, string>): Promise<{ slug: string }> {
  const repo = fixture.host.repo(owner, 'docs');
  repo.commit(files);
  const slug = uniqueSlug(owner);
  const api = fixture.api;
  const created = await api('POST', '/v1/projects', { body: { name: owner, slug, source_repo: repo.slug } });
  const done = await waitForDeployment(api, created.body.id, (await latestDeployment(api, created.body.id)).id);
  expect(done.status).toBe('succeeded');
  return { slug };
}

beforeAll(async () => {
  fixture = await startDeployingServer();
  docs = await deployed('gizmo', {
    'docs.json': JSON.stringify({ name: 'Gizmo Docs' }),
    'content/index.mdx': '# Gizmo\n\nThe gizmo toolkit.\n',
    'content/guides/install.mdx': '---\ntitle: Install the gizmo\ndescription: Get it running.\n---\n\n<Steps>\n  <Step title="Download">Fetch the gizmo archive.</Step>\n</Steps>\n\nThe gizmo needs a sprocket.\n',
    'content/guides/sprockets.mdx': '# Sprockets\n\nA sprocket turns. Every gizmo has one sprocket.\n',
    'content/hidden-plans.mdx': '---\ntitle: Hidden plans\nhidden: true\n---\n\nHIDDEN-PLANS sprocket.\n',
    'content/internal.mdx': '---\ntitle: Internal\nnoindex: true\n---\n\nNOINDEX-NOTES sprocket.\n',
  });
  other = await deployed('othercorp', {
    'docs.json': JSON.stringify({ name: 'Other Docs' }),
    'content/index.mdx': '# Other\n\nOTHER-PROJECT-SECRET sprocket.\n',
    'content/secret.mdx': '# Secret\n\nOTHER-PROJECT-SECRET again.\n',
  });
}, 300_000);
afterAll(() => fixture?.close());

describe('the MCP server of a site', () => {
  it('lists its tools to the official SDK client', async () => {
    const mcp = await connect(docs.slug);
    const { tools } = await mcp.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['get_page', 'search']);
    expect(mcp.getServerVersion()?.name).toBe('Gizmo Docs docs');
    await mcp.close();
  });

  it('searches the site: ranked pages with title, URL and a snippet', async () => {
    const mcp = await connect(docs.slug);
    const result = await mcp.callTool({ name: 'search', arguments: { query: 'sprocket' } });
    const found = JSON.parse(textOf(result)) as { title: string; url: string; path: string; snippet: string }[];
    // The page titled for the word ranks first; hidden and noindex pages are not found.
    expect(found.map((f) => f.path)).toEqual(['guides/sprockets', 'guides/install']);
    expect(found[0]!.title).toBe('Sprockets');
    expect(found[0]!.url).toBe(`http://${docs.slug}.localhost:${fixture.server.port}/guides/sprockets.md`);
    expect(found[1]!.snippet).toContain('The gizmo needs a sprocket.');
    await mcp.close();
  });

  it('reads a page as Markdown, by path or URL', async () => {
    const mcp = await connect(docs.slug);
    for (const path of ['guides/install', '/guides/install/', 'http://anything.example/guides/install.md']) {
      const text = textOf(await mcp.callTool({ name: 'get_page', arguments: { path } }));
      expect(text, path).toContain('# Install the gizmo\n\n> Get it running.');
      expect(text).toContain('#### Step 1: Download\n\nFetch the gizmo archive.');
    }
    await mcp.close();
  });

  it('lists the site\'s pages as resources, and reads them', async () => {
    const mcp = await connect(docs.slug);
    const { resources } = await mcp.listResources();
    const site = `http://${docs.slug}.localhost:${fixture.server.port}`;
    expect(resources.map((r) => r.uri).sort()).toEqual([`${site}/guides/install.md`, `${site}/guides/sprockets.md`, `${site}/index.md`]);
    const read = await mcp.readResource({ uri: `${site}/guides/sprockets.md` });
    expect((read.contents[0] as { text: string }).text).toContain('Every gizmo has one sprocket.');
    await mcp.close();
  });

  it('reaches no other project\'s page, no hidden or noindex page and no file outside the build', async () => {
    const mcp = await connect(docs.slug);
    const attempts = ['hidden-plans', 'internal', 'secret', `http://${other.slug}.localhost/secret.md`, '../../../folio.json', '/etc/passwd', '../othercorp/secret', 'llms-full.txt', '_folio/redirects.json'];
    for (const path of attempts) {
      const result = await mcp.callTool({ name: 'get_page', arguments: { path } });
      expect(result.isError, path).toBe(true);
      expect(textOf(result)).not.toMatch(/HIDDEN-PLANS|NOINDEX-NOTES|OTHER-PROJECT-SECRET|root:/);
    }
    const search = textOf(await mcp.callTool({ name: 'search', arguments: { query: 'sprocket secret hidden' } }));
    expect(search).not.toMatch(/HIDDEN-PLANS|NOINDEX-NOTES|OTHER-PROJECT-SECRET/);
    await expect(mcp.readResource({ uri: `http://${docs.slug}.localhost:${fixture.server.port}/hidden-plans.md` })).rejects.toThrow(/No resource/);
    await mcp.close();
    // The other site's own server answers for its own pages only.
    const theirs = await connect(other.slug);
    expect(textOf(await theirs.callTool({ name: 'get_page', arguments: { path: 'secret' } }))).toContain('OTHER-PROJECT-SECRET again.');
    expect((await theirs.callTool({ name: 'get_page', arguments: { path: 'guides/install' } })).isError).toBe(true);
    await theirs.close();
  });

  it('names the missing argument of a tool call', async () => {
    const mcp = await connect(docs.slug);
    const result = await mcp.callTool({ name: 'search', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/`query`/);
    await mcp.close();
  });

  it('refuses a query longer than its limit, naming it; a repeated word searches as one', async () => {
    const mcp = await connect(docs.slug);
    // The review's attack: single letters then thousands of absent words (each scanned over every result's page).
    const attack = `${'abcdefghijklmnop'.split('').join(' ')} ${Array.from({ length: 9000 }, (_, i) => `x${i}`).join(' ')}`;
    const refused = await mcp.callTool({ name: 'search', arguments: { query: attack } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain(`at most ${MAX_QUERY_CHARS}`);
    // Within the limit, a repeated word searches as one, and the snippet shows it.
    const found = JSON.parse(textOf(await mcp.callTool({ name: 'search', arguments: { query: 'Sprocket sprocket SPROCKET' } }))) as { path: string; snippet: string }[];
    expect(found.map((f) => f.path)).toEqual(['guides/sprockets', 'guides/install']);
    expect(found[1]!.snippet).toContain('The gizmo needs a sprocket.');
    await mcp.close();
  });

  it('limits each client address per minute, and another address is not held back', async () => {
    const ping = (address: string) => siteFetch(docs.slug, address)('http://x/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) });
    let status = 200;
    for (let i = 0; i <= MCP_REQUESTS_PER_MINUTE && status === 200; i++) status = (await ping('127.0.0.2')).status;
    expect(status).toBe(429);
    const limited = await ping('127.0.0.2');
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await limited.text()).toMatch(/at most 120 a minute/);
    expect((await ping('127.0.0.3')).status).toBe(200);
  });

  it('gives searches a smaller budget than other calls, per client address', async () => {
    const mcp = await connect(docs.slug, '127.0.0.4');
    const refused = [];
    for (let i = 0; i <= MCP_SEARCHES_PER_MINUTE; i++) refused.push(!!(await mcp.callTool({ name: 'search', arguments: { query: 'gizmo' } })).isError);
    expect(refused.indexOf(true)).toBe(MCP_SEARCHES_PER_MINUTE);
    const last = await mcp.callTool({ name: 'search', arguments: { query: 'gizmo' } });
    expect(textOf(last)).toMatch(new RegExp(`at most ${MCP_SEARCHES_PER_MINUTE} a minute; retry after \\d+ s`));
    // Cheap calls still answer.
    expect((await mcp.listTools()).tools).toHaveLength(2);
    await mcp.close();
    const other = await connect(docs.slug, '127.0.0.5');
    expect((await other.callTool({ name: 'search', arguments: { query: 'gizmo' } })).isError).toBeFalsy();
    await other.close();
  });

  it('counts an IPv6 client by its /64 network, and an IPv4-mapped address as IPv4', () => {
    expect(addressGroup('2001:db8:1:2:aaaa::1')).toBe(addressGroup('2001:db8:1:2:bbbb:cccc:dddd:eeee'));
    expect(addressGroup('2001:db8:1:2::1')).not.toBe(addressGroup('2001:db8:1:3::1'));
    expect(addressGroup('2001:0db8:0001:0002::')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
    expect(addressGroup('::ffff:127.0.0.2')).toBe('127.0.0.2');
    expect(addressGroup('203.0.113.9')).toBe('203.0.113.9');
  });
});
