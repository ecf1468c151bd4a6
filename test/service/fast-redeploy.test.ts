// Fast redeploys (docs/decisions.md#fast-redeploys, issue 13 item 7): a repository project whose new
// commit changes only the text of a page renders just that page over the previous build, and the
// result equals a full build of the same commit, byte for byte; a docs.json change, or
// `full_build: true`, builds in full. One repository, one sequence of real deployments over file://.
// The code block is `text`: Shiki's highlighting of a language can stop at its per-line time limit on
// a loaded machine, which would make two builds of the same page differ (docs/decisions.md#fast-redeploys).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articleOf, deployWithLog, fileHashes, latestDeployment, startDeployingServer, waitForDeployment, type DeployingServer } from '../helpers/deployments.ts';
import type { TestRepo } from '../helpers/git-repos.ts';
import { getWithHost, uniqueSlug, type Json } from '../helpers/server.ts';

let fixture: DeployingServer;
let repo: TestRepo;
let projectId: string;
let slug: string;
/** The deployments of the sequence, in order. */
const runs: Record<'first' | 'fast' | 'full' | 'config' | 'script', Json> = {} as never;
const logs: Record<string, string> = {};
/** The changed page and an unchanged one as served right after the fast redeploy. */
let servedAfterFast: { changed: string; unchanged: string; search: number; scripts: string[] };

const page = (title: string, text: string) => `---\ntitle: ${title}\ndescription: About ${title.toLowerCase()}.\n---\n\n${text}\n`;
const guide = (text: string) =>
  page('Guide', `Intro to the guide.\n\n<Note>Keep your key secret.</Note>\n\n## Steps\n\n${text}\n\n\`\`\`text\nretries = 3\n\`\`\`\n\n<Snippet file="shared.mdx" />`);

/** A small OpenAPI file of our own: its operation's generated page is part of every build compared. */
const spec = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'Widgets', version: '1.0.0' },
  servers: [{ url: 'https://api.example.test' }],
  paths: { '/widgets': { get: { summary: 'List widgets', tags: ['Widgets'], parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer' } }], responses: { '200': { description: 'The widgets.' } } } } },
});
const docsJson = (name: string) => JSON.stringify({ name, customSetting: true, openapi: 'api/openapi.json', navigation: { groups: [{ group: 'Start', pages: ['index', 'guide', 'reference'] }] } });

const site = (urlPath: string) => getWithHost(fixture.server.url, urlPath, `${slug}.localhost`);
const buildOf = (deploymentId: string) => path.join(fixture.server.dataDir, 'projects', projectId, 'builds', deploymentId);

async function trigger(body?: unknown): Promise<Json> {
  const { deployment, log } = await deployWithLog(fixture.api, projectId, body);
  logs[deployment.id] = log;
  return deployment;
}

beforeAll(async () => {
  fixture = await startDeployingServer();
  repo = fixture.host.repo('acme', 'fast');
  repo.commit({
    // Warnings: a docs.json key and a frontmatter key Folio does not use, an image that is not there.
    'docs.json': docsJson('Fast Docs'),
    'api/openapi.json': spec,
    'content/index.mdx': page('Home', 'Welcome to the docs. See the [guide](/guide).'),
    'content/guide.mdx': guide('First version of the steps.'),
    'content/reference.mdx': page('Reference', 'Every option, listed.\n\n| Option | Default |\n| --- | --- |\n| retries | 3 |\n\n![Diagram](./diagram.png)').replace('---\n\n', 'customThing: 1\n---\n\n'),
    '_snippets/shared.mdx': 'Shared closing words.\n',
    'public/logo.txt': 'a static file\n',
  });
  slug = uniqueSlug('fast');
  const created = await fixture.api('POST', '/v1/projects', { body: { name: 'Fast', slug, source_repo: repo.slug } });
  expect(created.status).toBe(201);
  projectId = created.body.id;
  // A: the connect deployment, full (nothing to reuse).
  const connect = await waitForDeployment(fixture.api, projectId, (await latestDeployment(fixture.api, projectId)).id);
  expect(connect.status).toBe('succeeded');
  runs.first = connect;
  logs[connect.id] = (await fixture.api('GET', `/v1/projects/${projectId}/deployments/${connect.id}/log`)).text;

  // B: one page's text changes: fast.
  repo.commit({ 'content/guide.mdx': guide('Second version of the steps, with **more** detail.') });
  runs.fast = await trigger();
  const [changed, unchanged, search] = await Promise.all([site('/guide/'), site('/reference/'), site('/pagefind/pagefind-entry.json')]);
  const scripts = [...changed.text.matchAll(/<script[^>]+src="(\/_astro\/[^"]+)"/g)].map((m) => m[1]!);
  servedAfterFast = { changed: articleOf(changed.text), unchanged: articleOf(unchanged.text), search: search.status, scripts };

  // C: the same commit, built in full on request: the reference output for B.
  runs.full = await trigger({ full_build: true });

  // D: docs.json changes: full.
  repo.commit({ 'docs.json': docsJson('Faster Docs') });
  runs.config = await trigger();

  // E: the page's text starts using a component with a script of its own: the partial build's
  // assets differ from the previous build's, so it is refused and the deployment builds in full.
  repo.commit({ 'content/guide.mdx': guide('Third version.\n\n<Tabs>\n<Tab title="macOS">Use brew.</Tab>\n<Tab title="Linux">Use apt.</Tab>\n</Tabs>') });
  runs.script = await trigger();
}, 400_000);
afterAll(() => fixture?.close());

describe('a redeploy whose commit changes one page', () => {
  it('is fast, says so in its log, and serves the change at once', () => {
    expect(logs[runs.first.id]).toContain('build: full (no earlier build to reuse)');
    expect(logs[runs.fast.id]).toContain('build: fast (1 page changed)');
    expect(runs.fast.commit_sha).not.toBe(runs.first.commit_sha);
    expect(runs.fast.page_count).toBe(3);
    expect(servedAfterFast.changed).toContain('Second version of the steps, with <strong>more</strong> detail.');
    expect(servedAfterFast.changed).toContain('Shared closing words.');
    expect(servedAfterFast.unchanged).toContain('Every option, listed.');
    expect(servedAfterFast.search).toBe(200);
  });

  it('reads only the changed page in its content sync: the others come from the previous build', () => {
    const fast = logs[runs.fast.id]!;
    expect(fast).toContain("content cache: the previous build's, so only changed pages are read");
    expect(fast).toMatch(/\[folio\] content sync: 1 of 3 pages read again \(the others unchanged since the previous build\)/);
    // A full build reads every page, from no cache.
    expect(logs[runs.full.id]).not.toContain('content sync:');
    expect(logs[runs.full.id]).not.toContain('content cache:');
  });

  it('writes the same files, with the same bytes, as a full build of the same commit', async () => {
    expect(runs.full.commit_sha).toBe(runs.fast.commit_sha);
    expect(logs[runs.full.id]).toContain('build: full (a full build was asked for)');
    const fast = await fileHashes(buildOf(runs.fast.id));
    const full = await fileHashes(buildOf(runs.full.id));
    // Nothing is left out of the comparison: a build writes no timestamps (the pages' dates come from git).
    expect([...fast.keys()].sort()).toEqual([...full.keys()].sort());
    const differing = [...full].filter(([file, hash]) => fast.get(file) !== hash).map(([file]) => file);
    expect(differing).toEqual([]);
    // The comparison covers what a page change reaches: the page, the search index, the llms files, the sitemap.
    expect([...full.keys()]).toEqual(expect.arrayContaining(['guide/index.html', 'api-reference/widgets/list-widgets/index.html', 'llms.txt', 'llms-full.txt', 'sitemap.xml', 'pagefind/pagefind-entry.json', 'logo.txt']));
    expect(await readFile(path.join(buildOf(runs.fast.id), 'llms-full.txt'), 'utf8')).toContain('Second version of the steps');
  });

  it('does not validate again the OpenAPI file the previous build validated (it has not changed), and says so', () => {
    const line = '[folio] openapi: api/openapi.json: unchanged since the previous build, not validated again';
    expect(logs[runs.fast.id]).toContain(line);
    // A full build validates it (its check does), whatever a cache holds.
    expect(logs[runs.first.id]).not.toContain(line);
    expect(logs[runs.full.id]).not.toContain(line);
  });

  it('repeats in its log the warnings of the pages it did not check again, as a full build of the same commit prints them', () => {
    const fast = logs[runs.fast.id]!;
    const carried = ` (carried over from the build of deployment ${runs.first.id}: not checked again)`;
    expect(fast).toContain(`[folio] warning: content/reference.mdx:1:1: frontmatter "customThing" is not a key Folio uses; it is ignored${carried}`);
    expect(fast).toContain(`[folio] warning: content/reference.mdx: image ./diagram.png: no file content/diagram.png in the content root; the page shows a broken image${carried}`);
    expect(fast).toMatch(/\[folio\] warning: docs\.json:1:\d+: customSetting: /);
    // Every warning line, no more and no fewer, as the full build prints them.
    const warnings = (log: string) => log.split('\n').filter((l) => l.includes('[folio] warning')).map((l) => l.replace(/^\S+ build: /, '').replace(carried, '')).sort();
    expect(warnings(fast)).toEqual(warnings(logs[runs.full.id]!));
    expect(warnings(fast).length).toBeGreaterThanOrEqual(3);
  });

  it('leaves the previous build as it was (it may still be live or promoted)', async () => {
    expect(await readFile(path.join(buildOf(runs.first.id), 'guide/index.html'), 'utf8')).toContain('First version of the steps.');
    expect(await readFile(path.join(buildOf(runs.first.id), 'llms-full.txt'), 'utf8')).not.toContain('Second version');
  });

  it('records and answers full_build for a deployment that asked for it', () => {
    expect(runs.full.full_build).toBe(true);
    expect(runs.fast.full_build).toBeUndefined();
  });
});

describe('a redeploy that changes docs.json', () => {
  it('falls back to a full build, naming the reason, and serves the new settings', async () => {
    expect(logs[runs.config.id]).toContain('build: full (docs.json changed)');
    expect((await site('/')).text).toContain('Faster Docs');
  });
});

describe('a redeploy whose page starts using a script it did not use before', () => {
  it('tries the fast way, refuses to merge, builds in full, and serves the page with its script', async () => {
    const log = logs[runs.script.id]!;
    expect(log).toContain('build: fast (1 page changed)');
    expect(log).toMatch(/build: full \(the partial build cannot be reused: \/guide\/index\.html uses other assets than before\)/);
    const page = await site('/guide/');
    expect(articleOf(page.text)).toContain('Use brew.');
    const scripts = [...page.text.matchAll(/<script[^>]+src="(\/_astro\/[^"]+)"/g)].map((m) => m[1]!);
    for (const src of scripts) expect((await site(src)).status, src).toBe(200);
    expect(scripts.some((src) => !(servedAfterFast.scripts as string[]).includes(src))).toBe(true);
  });
});

describe('POST …/deployments options', () => {
  it('refuses a full_build that is not a boolean, naming the field, and queues nothing', async () => {
    const before = (await fixture.api('GET', `/v1/projects/${projectId}/deployments`)).body.data.length;
    const res = await fixture.api('POST', `/v1/projects/${projectId}/deployments`, { body: { full_build: 'yes' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_request' });
    expect(res.body.message).toContain('full_build');
    const unknown = await fixture.api('POST', `/v1/projects/${projectId}/deployments`, { body: { fast: true } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('fast');
    expect((await fixture.api('GET', `/v1/projects/${projectId}/deployments`)).body.data.length).toBe(before);
  });
});
