// A fast redeploy of a Mintlify-layout site (docs/decisions.md, "A fast redeploy's content sync
// reads only the changed pages"): its content sync reads only the changed page's file (the others'
// entries come from the previous build's carried store, git having said they did not change), and
// its llms-full.txt converts only that page, taking the other sections from the previous build's
// text kept in the carried cache; its output equals a full build's of the same commit, byte for
// byte. A kept llms-full.txt whose section index is wrong, or missing, is not used: every page is
// converted and the file is still right. Real deployments over file://, sandboxed builds.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployWithLog, fileHashes, latestDeployment, startDeployingServer, waitForDeployment, type DeployingServer } from '../helpers/deployments.ts';
import type { TestRepo } from '../helpers/git-repos.ts';
import { uniqueSlug, type Json } from '../helpers/server.ts';
import { CACHES_DIR } from '../../src/builder/build-roots.ts';

let fixture: DeployingServer;
let repo: TestRepo;
let projectId: string;
const runs: Record<'first' | 'fast' | 'full' | 'wrongIndex' | 'noIndex', Json> = {} as never;
const logs: Record<string, string> = {};

const page = (title: string, text: string) => `---\ntitle: ${title}\ndescription: About ${title.toLowerCase()}.\n---\n\n${text}\n`;
const guide = (text: string) => page('Guide', `Intro to the guide, naïve café — ünïcode before the change.\n\n<Note>Keep your key secret.</Note>\n\n## Steps\n\n${text}\n\n<Snippet file="shared.mdx" />`);

const buildOf = (deploymentId: string) => path.join(fixture.server.dataDir, 'projects', projectId, 'builds', deploymentId);
const llmsFullOf = (deploymentId: string) => readFile(path.join(buildOf(deploymentId), 'llms-full.txt'), 'utf8');
/** Where build-cache.ts keeps a site's cache under a name (its slot: hashes of both), and in it the kept llms-full.txt. */
const keptLlmsFull = (deploymentId: string) => {
  const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);
  return path.join(CACHES_DIR, hash(`${projectId}:`), hash(deploymentId), 'folio-llms');
};

async function trigger(body: unknown = {}): Promise<Json> {
  const { deployment, log } = await deployWithLog(fixture.api, projectId, body);
  logs[deployment.id] = log;
  return deployment;
}

beforeAll(async () => {
  fixture = await startDeployingServer();
  repo = fixture.host.repo('acme', 'fast-mintlify');
  repo.commit({
    'docs.json': JSON.stringify({ name: 'Fast Mintlify Docs', navigation: { groups: [{ group: 'Start', pages: ['index', 'guide', 'guides/reference', 'zebra'] }] } }),
    'index.mdx': page('Home', 'Welcome to the docs. See the [guide](/guide).'),
    'guide.mdx': guide('First version of the steps.'),
    'guides/reference.mdx': page('Reference', 'Every option, listed: «retries», 3.\n\n| Option | Default |\n| --- | --- |\n| retries | 3 |'),
    'zebra.mdx': page('Zebra', 'The last page, with stripes 🦓.'),
    'snippets/shared.mdx': 'Shared closing words.\n',
  });
  const created = await fixture.api('POST', '/v1/projects', { body: { name: 'Fast Mintlify', slug: uniqueSlug('fast-mint'), source_repo: repo.slug } });
  expect(created.status).toBe(201);
  projectId = created.body.id;
  runs.first = await waitForDeployment(fixture.api, projectId, (await latestDeployment(fixture.api, projectId)).id);
  expect(runs.first.status).toBe('succeeded');
  logs[runs.first.id] = (await fixture.api('GET', `/v1/projects/${projectId}/deployments/${runs.first.id}/log`)).text;

  repo.commit({ 'guide.mdx': guide('Second version of the steps, with **more** detail.') });
  runs.fast = await trigger();
  runs.full = await trigger({ full_build: true });

  // The kept llms-full.txt's index, one section off by a character: the next fast build must not use it.
  const index = path.join(keptLlmsFull(runs.full.id), 'llms-full-sections.json');
  const sections = JSON.parse(fs.readFileSync(index, 'utf8')) as { pages: Array<[string, number, number]> };
  sections.pages[2]![2] -= 1;
  fs.writeFileSync(index, JSON.stringify(sections));
  repo.commit({ 'guide.mdx': guide('Third version of the steps.') });
  runs.wrongIndex = await trigger();

  // The kept llms-full.txt gone.
  fs.rmSync(path.join(keptLlmsFull(runs.wrongIndex.id), 'llms-full.txt'));
  repo.commit({ 'guide.mdx': guide('Fourth version of the steps.') });
  runs.noIndex = await trigger();
}, 400_000);
afterAll(() => fixture?.close());

describe('a fast redeploy of a Mintlify-layout site', () => {
  it('reads only the changed page in its content sync, and converts only it for llms-full.txt', () => {
    const fast = logs[runs.fast.id]!;
    expect(fast).toContain('build: fast (1 page changed)');
    expect(fast).toContain("content cache: the previous build's, so only changed pages are read");
    expect(fast).toContain('[folio] content sync: 1 of 4 pages read again (the others unchanged since the previous build)');
    expect(fast).toContain("[folio] llms-full.txt: 1 of 4 pages converted again (the others from the previous build's)");
    expect(logs[runs.full.id]).not.toContain('content sync:');
    expect(logs[runs.full.id]).not.toContain('llms-full.txt:');
  });

  it('writes the same files, with the same bytes, as a full build of the same commit', async () => {
    expect(runs.full.commit_sha).toBe(runs.fast.commit_sha);
    const fast = await fileHashes(buildOf(runs.fast.id));
    const full = await fileHashes(buildOf(runs.full.id));
    expect([...fast.keys()].sort()).toEqual([...full.keys()].sort());
    expect([...full].filter(([file, hash]) => fast.get(file) !== hash).map(([file]) => file)).toEqual([]);
    expect([...full.keys()]).toEqual(expect.arrayContaining(['guide/index.html', 'llms-full.txt', 'guide.md']));
    const text = await llmsFullOf(runs.fast.id);
    expect(text).toContain('Second version of the steps, with **more** detail.');
    expect(text).not.toContain('First version');
    expect(text).toContain('stripes 🦓');
  });
});

describe('a fast redeploy whose kept llms-full.txt cannot be used', () => {
  it('converts every page when the index of its sections is wrong, and the file is still right', async () => {
    const log = logs[runs.wrongIndex.id]!;
    expect(log).toContain('build: fast (1 page changed)');
    expect(log).toContain("[folio] llms-full.txt: every page converted again (the previous build's could not be used)");
    // A full build of the previous commit, with only the changed page's sentence different.
    const expected = (await llmsFullOf(runs.full.id)).replace('Second version of the steps, with **more** detail.', 'Third version of the steps.');
    expect(await llmsFullOf(runs.wrongIndex.id)).toBe(expected);
  });

  it('converts every page when the kept text is missing, and the file is still right', async () => {
    const log = logs[runs.noIndex.id]!;
    expect(log).toContain('build: fast (1 page changed)');
    expect(log).toContain("[folio] llms-full.txt: every page converted again (the previous build's could not be used)");
    const expected = (await llmsFullOf(runs.full.id)).replace('Second version of the steps, with **more** detail.', 'Fourth version of the steps.');
    expect(await llmsFullOf(runs.noIndex.id)).toBe(expected);
  });
});
