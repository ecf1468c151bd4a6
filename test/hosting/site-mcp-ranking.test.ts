// The MCP server's search ranks as the site's own search does (docs/decisions.md#ai-ready-docs):
// a real build of 30 pages whose words overlap (stems, prefixes, titles, headings), served by
// Folio's site handler; each query runs in Chromium through the site's own Pagefind (its
// pagefind.js, as the search dialog loads it) and through MCP `search` with the official SDK
// client, and both answer the same pages in the same order.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser.ts';
import { RANKING_QUERIES, rankingSite } from '../fixtures/search/ranking-site.ts';
import { buildFixture, serveWithFolio } from '../site/helpers.ts';

let served: Awaited<ReturnType<typeof serveWithFolio>>;
let browser: Browser;

beforeAll(async () => {
  const site = await buildFixture(rankingSite());
  expect(site.result.ok).toBe(true);
  served = await serveWithFolio(site.out);
  browser = await launchChromium();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await served?.close();
});

describe('MCP search', () => {
  it('answers the same pages in the same order as the site\'s Pagefind search', async () => {
    const page = await browser.newPage();
    await page.goto(`${served.url}/`);
    // A string, so the test runner leaves the browser's own import() alone.
    const pagefind = (await page.evaluate(`(async () => {
      const pagefind = await import('/pagefind/pagefind.js');
      const answers = [];
      for (const query of ${JSON.stringify(RANKING_QUERIES)}) {
        const { results } = await pagefind.search(query);
        answers.push(await Promise.all(results.slice(0, 10).map(async (r) => (await r.data()).url)));
      }
      return answers;
    })()`)) as string[][];
    const mcp = new Client({ name: 'folio-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${served.url}/mcp`)));
    for (const [i, query] of RANKING_QUERIES.entries()) {
      const result = await mcp.callTool({ name: 'search', arguments: { query } });
      const ours = (result.structuredContent as { results: { path: string }[] }).results.map((r) => `/${r.path}/`);
      // Every query finds pages, and at least three for all but the narrowest.
      expect(pagefind[i]!.length, query).toBeGreaterThanOrEqual(query === 'webhook retries' ? 1 : 3);
      expect(ours, query).toEqual(pagefind[i]);
    }
    await mcp.close();
    await page.close();
  });
});
