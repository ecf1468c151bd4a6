// The word budget of a site MCP server's search index (docs/decisions.md#ai-ready-docs): a site
// larger than the budget is indexed up to it, and `search` answers over the pages indexed and says
// so; concurrent first searches share the one build. A real build directory on disk, published as
// a live build, read by the hosting's disk site source; JSON-RPC over HTTP.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSiteMcp } from '../../src/hosting/site-mcp.ts';
import { createDiskSiteSource } from '../../src/hosting/site-source.ts';
import { publishBuild } from '../../src/service/builds/disk.ts';
import { buildDir } from '../../src/service/project-files.ts';

const PAGES = 30;
let dataDir: string;
let build: string;
const servers: http.Server[] = [];

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-mcp-budget-'));
  const project = randomUUID();
  const deployment = randomUUID();
  const dir = buildDir(dataDir, project, deployment);
  fs.mkdirSync(path.join(dir, 'guides'), { recursive: true });
  const lines = ['# Budget Docs', ''];
  for (let i = 0; i < PAGES; i++) {
    // 99 words a page (2 of its heading), one of them only on this page.
    fs.writeFileSync(path.join(dir, 'guides', `p${i}.md`), `# Page ${i}\n\n${'filler '.repeat(96)}tag${i}x\n`);
    lines.push(`- [Page ${i}](http://budget.localhost/guides/p${i}.md): page ${i}`);
  }
  fs.writeFileSync(path.join(dir, 'llms.txt'), `${lines.join('\n')}\n`);
  await publishBuild(dataDir, project, deployment);
  build = (await createDiskSiteSource(dataDir).liveBuild(project))!;
});
afterAll(() => {
  for (const server of servers) server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A site MCP server over the published build, with this word budget; a search call to it. */
async function serverWith(options: { indexedWords?: number }) {
  const mcp = createSiteMcp(createDiskSiteSource(dataDir), options);
  const server = http.createServer((req, res) => void mcp.handle(build, req, res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return async (query: string) => {
    const response = await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search', arguments: { query } } }) });
    const { result } = (await response.json()) as { result: { content: { text: string }[]; structuredContent: { results: { path: string }[]; searched?: string } } };
    return result;
  };
}

describe('the word budget of a site MCP search index', () => {
  it('indexes a site up to its budget and answers over the pages indexed, saying so', async () => {
    const search = await serverWith({ indexedWords: 990 });
    // The first searches, at once, share one build: all answer alike.
    const first = await Promise.all(Array.from({ length: 5 }, () => search('filler')));
    for (const answer of first) {
      expect(answer.structuredContent.searched).toMatch(/^The first 10 of the site's 30 pages/);
      expect(answer.content[1]!.text).toBe(answer.structuredContent.searched);
      expect(answer.structuredContent.results).toHaveLength(10);
    }
    expect((await search('tag0x')).structuredContent.results.map((r) => r.path)).toEqual(['guides/p0']);
    expect((await search('tag29x')).structuredContent.results).toEqual([]);
  });

  it('searches every page of a site within the budget, with no note', async () => {
    const search = await serverWith({});
    const answer = await search('tag29x');
    expect(answer.structuredContent.results.map((r) => r.path)).toEqual(['guides/p29']);
    expect(answer.structuredContent.searched).toBeUndefined();
    expect(answer.content).toHaveLength(1);
  });
});
