// Which redeploys are fast (src/service/deployments/fast-redeploy.ts, docs/decisions.md#fast-redeploys):
// a real repository synced the way a deployment syncs it, a real store holding the previous
// deployment, and the plan for each kind of commit. No site is built here: what a fast build
// writes is checked against a full build in fast-redeploy.test.ts.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carryOverWarnings, planRedeploy, warningsByPage, writeBuildInputs, type BuildInputs, type RedeployPlan } from '../../src/service/deployments/fast-redeploy.ts';
import { lastUpdatedDates } from '../../src/service/deployments/page-history.ts';
import { syncRepository } from '../../src/service/deployments/sync.ts';
import { buildDir } from '../../src/service/project-files.ts';
import { openStore } from '../../src/service/store/json/index.ts';
import type { DeploymentRecord } from '../../src/service/store/records.ts';
import type { Store } from '../../src/service/store/store.ts';
import { repoHost, type RepoHost, type TestRepo } from '../helpers/git-repos.ts';
import { removeDir, tempDataDir } from '../helpers/server.ts';

const PROJECT = '11111111-1111-4111-8111-111111111111';
const GIT = { protocols: ['file'], timeoutMs: 60_000 };

let host: RepoHost;
let repo: TestRepo;
let dataDir: string;
let store: Store;
let deploymentCount = 0;
/** The id of the newest previous build recorded. */
let previous = '';
const nextId = () => `33333333-3333-4333-8333-${String(++deploymentCount).padStart(12, '0')}`;

const page = (title: string, text: string) => `---\ntitle: ${title}\n---\n\n${text}\n`;
const BASE = {
  'docs.json': JSON.stringify({ name: 'Plan' }),
  'content/index.mdx': page('Home', 'Welcome.'),
  'content/guide.mdx': page('Guide', 'Steps.'),
  'content/untitled.mdx': '# Heading title\n\nText.\n',
  '_snippets/note.mdx': 'A note.\n',
  'public/logo.txt': 'logo\n',
};

beforeAll(async () => {
  host = repoHost();
  dataDir = await tempDataDir();
  store = await openStore(dataDir);
  await store.createOrg({ id: 'org-1', name: 'one', plan: 'free', created_at: new Date().toISOString() });
  await store.createProject({ id: PROJECT, org_id: 'org-1', name: 'Plan', slug: 'plan', status: 'active', created_at: new Date().toISOString(), source_repo: 'acme/plan' });
  repo = host.repo('acme', 'plan');
});
afterAll(async () => {
  await store.close();
  await removeDir(dataDir);
  host.remove();
});

const gitDir = () => path.join(dataDir, 'git');
const root = () => path.join(dataDir, 'root');

/** Syncs the repository's head as a deployment would and returns what its build would be made from. */
async function synced(fingerprint = 'same'): Promise<BuildInputs> {
  const result = await syncRepository({ url: host.gitUrl.replace('{owner}', 'acme').replace('{name}', 'plan'), repository: 'acme/plan', gitDir: gitDir(), contentRoot: root(), ...GIT, log: () => undefined });
  return { commit: result.commitSha, fingerprint, lastUpdated: await lastUpdatedDates(gitDir(), GIT), warnings: { 'content/guide.mdx': ['[folio] warning: content/guide.mdx:2:1: a warning'] } };
}

/** Records `inputs` as the previous succeeded build (with a build dir), as a finished deployment leaves it. */
async function previousBuild(inputs: BuildInputs): Promise<void> {
  previous = nextId();
  await store.queueDeployment({ id: previous, project_id: PROJECT, status: 'queued', trigger: 'manual', created_at: new Date().toISOString() });
  await store.updateDeployment(previous, { status: 'succeeded', commit_sha: inputs.commit });
  await mkdir(buildDir(dataDir, PROJECT, previous), { recursive: true });
  await writeBuildInputs(dataDir, PROJECT, previous, inputs);
}

async function plan(inputs: BuildInputs, fields: Partial<DeploymentRecord> = {}): Promise<RedeployPlan> {
  const deployment: DeploymentRecord = { id: nextId(), project_id: PROJECT, status: 'building', trigger: 'push', created_at: new Date().toISOString(), ...fields };
  return planRedeploy({ store, dataDir, deployment, root: root(), gitDir: gitDir(), gitOptions: GIT, inputs, allowCode: false });
}

/** The plan for a commit of `files` on top of the base, against a previous build of the base. */
async function planFor(files: Record<string, string | null>): Promise<RedeployPlan> {
  repo.commit(BASE);
  const before = await synced();
  await previousBuild(before);
  repo.commit(files);
  return plan(await synced());
}

describe('planRedeploy', () => {
  it('is fast when only the text of pages changed, naming the pages to render', async () => {
    expect(await planFor({ 'content/guide.mdx': page('Guide', 'New steps.'), 'content/untitled.mdx': '# Heading title\n\nNew text.\n' })).toMatchObject({
      kind: 'fast',
      changed: 2,
      pageFiles: ['content/guide.mdx', 'content/untitled.mdx'],
      previousBuild: buildDir(dataDir, PROJECT, previous),
      previous: { id: previous, warnings: { 'content/guide.mdx': ['[folio] warning: content/guide.mdx:2:1: a warning'] } },
    });
  });

  it('is full, saying why, for every change that reaches other pages', async () => {
    expect(await planFor({ 'docs.json': JSON.stringify({ name: 'Other' }) })).toEqual({ kind: 'full', reason: 'docs.json changed' });
    expect(await planFor({ '_snippets/note.mdx': 'Another note.\n' })).toEqual({ kind: 'full', reason: '_snippets/note.mdx changed' });
    expect(await planFor({ 'public/logo.txt': 'new logo\n' })).toEqual({ kind: 'full', reason: 'public/logo.txt changed' });
    expect(await planFor({ 'content/new.mdx': page('New', 'Hello.') })).toEqual({ kind: 'full', reason: 'content/new.mdx added' });
    expect(await planFor({ 'content/guide.mdx': null })).toEqual({ kind: 'full', reason: 'content/guide.mdx deleted' });
    expect(await planFor({ 'content/guide.mdx': page('Guide', 'Steps.').replace('---\n\n', 'icon: rocket\n---\n\n') })).toEqual({ kind: 'full', reason: 'the frontmatter of content/guide.mdx changed' });
    // Without a title in its frontmatter, a page's first heading is its title, shown in the sidebar.
    expect(await planFor({ 'content/untitled.mdx': '# Another title\n\nText.\n' })).toEqual({ kind: 'full', reason: 'the title of content/untitled.mdx changed' });
  });

  it('is full while the site has pages or files of its own in a folder named pagefind (where the search index goes)', async () => {
    repo.commit({ ...BASE, 'content/pagefind/about.mdx': page('About search', 'Our own page.') });
    await previousBuild(await synced());
    repo.commit({ 'content/guide.mdx': page('Guide', 'Steps again.') });
    expect(await plan(await synced())).toEqual({ kind: 'full', reason: 'content/pagefind/about.mdx is in a folder named pagefind, where the search index goes' });
    repo.commit({ 'content/pagefind/about.mdx': null });
  });

  it('is full when asked, when the settings or Folio differ, or when the previous build is gone', async () => {
    repo.commit(BASE);
    const before = await synced();
    await previousBuild(before);
    repo.commit({ 'content/guide.mdx': page('Guide', 'Changed once more.') });
    const after = await synced();
    expect(await plan(after)).toMatchObject({ kind: 'fast' });
    expect(await plan(after, { full_build: true })).toEqual({ kind: 'full', reason: 'a full build was asked for' });
    expect(await plan({ ...after, fingerprint: 'other' })).toEqual({ kind: 'full', reason: 'Folio or the build settings changed since the previous build' });
    // A preview's first deployment has no earlier build of its own to reuse.
    expect(await plan(after, { preview_label: 'feature' })).toEqual({ kind: 'full', reason: 'no earlier build to reuse' });
    await removeDir(buildDir(dataDir, PROJECT, previous));
    expect(await plan(after)).toEqual({ kind: 'full', reason: 'the previous build is no longer kept' });
  });

  it('renders again a page whose last-updated date moved without its text changing', async () => {
    repo.commit(BASE);
    const before = await synced();
    await previousBuild({ ...before, lastUpdated: { ...before.lastUpdated, 'content/index.mdx': '2020-01-01T00:00:00Z' } });
    repo.commit({ 'content/guide.mdx': page('Guide', 'Yet another version.') });
    expect(await plan(await synced())).toMatchObject({ kind: 'fast', changed: 1, pageFiles: ['content/guide.mdx', 'content/index.mdx'] });
  });

  it('is full when the previous build recorded no warnings (an older Folio made it)', async () => {
    repo.commit(BASE);
    const before = await synced();
    await previousBuild({ ...before, warnings: undefined } as unknown as BuildInputs);
    repo.commit({ 'content/guide.mdx': page('Guide', 'A version once more.') });
    expect(await plan(await synced())).toEqual({ kind: 'full', reason: 'the previous build has no usable record of what it was made from (an older Folio made it)' });
  });
});

describe('the warnings a fast build repeats', () => {
  it('files each warning line under the page it names, by file or by address; others under no page', async () => {
    repo.commit(BASE);
    await synced();
    const lines = [
      '[folio] warning: content/guide.mdx:2:1: frontmatter "x" is not a key Folio uses; it is ignored',
      '[folio] warning: content/index.mdx: image ./a.png: no file content/a.png in the content root; the page shows a broken image',
      '[folio] warning: page /untitled/: unknown icon "nope" (not a Font Awesome or Lucide name); shown as a plain circle',
      '[folio] warning: page /: _snippets/note.mdx: placeholder {who} has no value in vars; shown as is',
      '[folio] warning: docs.json:1:14: customSetting: not a key Folio uses; it is ignored',
      '11:36:27 [WARN] [vite] something',
    ];
    expect(warningsByPage(lines, root())).toEqual({
      'content/guide.mdx': [lines[0]],
      'content/index.mdx': [lines[1], lines[3]],
      'content/untitled.mdx': [lines[2]],
      '': [lines[4], '[WARN] [vite] something'],
    });
  });

  it('repeats the lines of pages not checked again and page-less lines not printed again; records the merged set', () => {
    const previous = { 'content/a.mdx': ['A old'], 'content/b.mdx': ['B'], '': ['docs', 'openapi'] };
    const fresh = { 'content/a.mdx': ['A new'], '': ['docs'] };
    expect(carryOverWarnings(previous, ['content/a.mdx', 'content/c.mdx'], fresh)).toEqual({
      carried: ['B', 'openapi'],
      all: { 'content/b.mdx': ['B'], '': ['openapi', 'docs'], 'content/a.mdx': ['A new'] },
    });
    // A re-checked page whose warning was fixed has none left.
    expect(carryOverWarnings({ 'content/a.mdx': ['A'] }, ['content/a.mdx'], {})).toEqual({ carried: [], all: {} });
  });
});
