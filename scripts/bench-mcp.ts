// `npm run bench:mcp`: the latency of a site's MCP `search` tool on a site of BENCH_PAGES pages
// (default 5,000), over HTTP to the hosting's own site handler (src/hosting/serve-site.ts), as a
// live site answers /mcp. The build directory holds what a build writes for the MCP server: each
// page's .md file (made by the real conversion, markdown/clean-markdown.ts, from generated MDX with
// components) and llms.txt listing them. Prints the first search (reads every page once), then the
// p50/p99 of BENCH_QUERIES sequential searches (default 300, one and two words from the pages'
// vocabulary), and the same for `ping` on the same path as the baseline (HTTP + JSON-RPC, no work).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { createSiteHandler } from '../src/hosting/serve-site.ts';
import { publishBuild } from '../src/service/builds/disk.ts';
import { buildDir } from '../src/service/project-files.ts';
import type { ProjectRecord } from '../src/service/store/records.ts';
import { toCleanMarkdown } from '../src/site/markdown/clean-markdown.ts';

const PAGES = Number(process.env.BENCH_PAGES ?? 5000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 300);
const WORDS = ['sprocket', 'gizmo', 'install', 'configure', 'token', 'webhook', 'deploy', 'cache', 'region', 'billing', 'export', 'import', 'limit', 'retry', 'schema', 'field', 'page', 'theme', 'search', 'domain'];

let seed = 42;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const word = () => WORDS[Math.floor(random() * WORDS.length)]!;
const sentence = (n: number) => Array.from({ length: n }, () => `${word()} ${['the', 'a', 'each', 'every'][Math.floor(random() * 4)]} ${word()}`).join(' ') + '.';

function pageMdx(i: number): string {
  return [
    `Intro to ${word()} number ${i}. ${sentence(12)}`,
    `<Note>${sentence(6)}</Note>`,
    `<Tabs>\n  <Tab title="${word()}">\n    ${sentence(10)}\n  </Tab>\n  <Tab title="${word()}">\n    ${sentence(10)}\n  </Tab>\n</Tabs>`,
    `## ${word()} ${word()}\n\n${sentence(30)}`,
    `<ParamField body="${word()}" type="string" required>\n  ${sentence(5)}\n</ParamField>`,
    '```bash\n' + `folio ${word()} --${word()}\n` + '```',
    sentence(40),
  ].join('\n\n');
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-mcp-'));
  const project = { id: randomUUID() } as ProjectRecord;
  const deployment = randomUUID();
  const dir = buildDir(dataDir, project.id, deployment);
  fs.mkdirSync(path.join(dir, 'guides'), { recursive: true });
  const lines = ['# Bench Docs', '', '## Pages', ''];
  for (let i = 0; i < PAGES; i++) {
    const title = `${word()} ${word()} ${i}`;
    fs.writeFileSync(path.join(dir, 'guides', `p${i}.md`), `# ${title}\n\nSource: http://bench.localhost/guides/p${i}/\n\n${toCleanMarkdown(pageMdx(i))}`);
    lines.push(`- [${title}](http://bench.localhost/guides/p${i}.md): ${sentence(1)}`);
  }
  fs.writeFileSync(path.join(dir, 'llms.txt'), `${lines.join('\n')}\n`);
  await publishBuild(dataDir, project.id, deployment);
  const sites = createSiteHandler(dataDir);
  const server = http.createServer((req, res) => void sites.serve(project, req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  // Each address gets its own rate-limit window: the bench rotates through loopback addresses.
  let calls = 0;
  const rpc = (method: string, params: unknown): Promise<number> =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
      const address = `127.0.${Math.floor(calls / 100) % 250}.${(calls++ % 100) + 2}`;
      const start = process.hrtime.bigint();
      const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', localAddress: address, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve(Number(process.hrtime.bigint() - start) / 1e6) : reject(new Error(`status ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end(body);
    });
  const queries = Array.from({ length: QUERIES }, (_, i) => (i % 2 ? `${word()} ${word()}` : word()));
  const first = await rpc('tools/call', { name: 'search', arguments: { query: 'sprocket' } });
  const search: number[] = [];
  for (const query of queries) search.push(await rpc('tools/call', { name: 'search', arguments: { query } }));
  const ping: number[] = [];
  for (let i = 0; i < QUERIES; i++) ping.push(await rpc('ping', {}));
  search.sort((a, b) => a - b);
  ping.sort((a, b) => a - b);
  const ms = (n: number) => `${n.toFixed(2)} ms`;
  console.log(`MCP search on a ${PAGES}-page site (${QUERIES} queries, sequential)`);
  console.log(`  first search (reads every page): ${ms(first)}`);
  console.log(`  search  p50 ${ms(percentile(search, 50))}  p99 ${ms(percentile(search, 99))}`);
  console.log(`  ping    p50 ${ms(percentile(ping, 50))}  p99 ${ms(percentile(ping, 99))}  (baseline: HTTP + JSON-RPC, no work)`);
  console.log(`  ratio search/ping p50: ${(percentile(search, 50) / percentile(ping, 50)).toFixed(1)}x`);
  server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

await main();
