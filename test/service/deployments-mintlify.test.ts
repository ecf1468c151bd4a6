// A repository in Mintlify's layout (docs.json at the top, no content/ folder) deployed through the
// API: synced over file:// from a real bare repository, checked, built and served on the project's
// host (docs/decisions.md#content-root).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articleOf, latestDeployment, startDeployingServer, waitForDeployment, type DeployingServer } from '../helpers/deployments.ts';
import { getWithHost, uniqueSlug } from '../helpers/server.ts';

const FIXTURE = path.join(import.meta.dirname, '../fixtures/mintlify');

/** Every file of the fixture, as a commit. */
function fixtureFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(FIXTURE, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const abs = path.join(entry.parentPath, entry.name);
    files[path.relative(FIXTURE, abs)] = fs.readFileSync(abs, 'utf8');
  }
  return files;
}

let fixture: DeployingServer;
let slug: string;
let deployment: { id: string; status: string; page_count?: number; warnings?: number; error?: unknown };
let projectId: string;
const site = (urlPath: string) => getWithHost(fixture.server.url, urlPath, `${slug}.localhost`);

beforeAll(async () => {
  fixture = await startDeployingServer();
  const repo = fixture.host.repo('lumen', 'docs');
  repo.commit({ ...fixtureFiles(), '.env': 'SECRET_TOKEN=never-served\n' });
  slug = uniqueSlug('lumen');
  const created = await fixture.api('POST', '/v1/projects', { body: { name: 'Lumen', slug, source_repo: repo.slug } });
  expect(created.status).toBe(201);
  projectId = created.body.id;
  deployment = await waitForDeployment(fixture.api, projectId, (await latestDeployment(fixture.api, projectId)).id);
}, 240_000);
afterAll(() => fixture?.close());

describe('a Mintlify-layout repository through the API', () => {
  it('deploys: its pages, snippets and static files are served on the project\'s host', async () => {
    expect(deployment).toMatchObject({ status: 'succeeded', page_count: 5 });
    const home = await site('/');
    expect(home.status).toBe(200);
    expect(articleOf(home.text)).toContain('Hello Ada, welcome to the lab.');
    expect(articleOf((await site('/guides/setup/')).text)).toContain('Hello Grace, welcome to the workshop.');
    const image = await site('/images/lamp.svg');
    expect(image.status).toBe(200);
    expect(image.text).toContain('<svg');
  });

  it('serves no dot file, settings file, source file or ignored page', async () => {
    for (const never of ['/.env', '/docs.json', '/.mintignore', '/index.mdx', '/snippets/greeting.mdx', '/README/', '/drafts/plan/']) {
      expect((await site(never)).status, never).toBe(404);
    }
  });

  it('lists through the pages API the pages its build sees, and reads them; snippets and ignored files are not pages', async () => {
    const pages = `/v1/projects/${projectId}/pages`;
    const list = await fixture.api('GET', `${pages}?limit=100`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((p: { path: string }) => p.path)).toEqual(['guides/hidden-page', 'guides/markdown', 'guides/secret', 'guides/setup', 'index']);
    const setup = await fixture.api('GET', `${pages}/guides/setup`);
    expect(setup.status).toBe(200);
    expect(setup.body).toMatchObject({ path: 'guides/setup', source: 'repository' });
    for (const never of ['snippets/greeting', 'README', 'LICENSE', 'drafts/plan', 'guides/notes.wip']) {
      expect((await fixture.api('GET', `${pages}/${never}`)).status, never).toBe(404);
    }
  });

  it('names unused frontmatter keys, ignored props and missing images in the deployment log', async () => {
    const log = await fixture.api('GET', `/v1/projects/${projectId}/deployments/${deployment.id}/log`);
    expect(log.status).toBe(200);
    expect(log.text).toContain('[folio] warning: guides/setup.mdx:1:1: frontmatter "customThing" is not a key Folio uses; it is ignored');
    expect(log.text).toContain('[folio] warning: guides/markdown.mdx:42:1: <Frame> has no prop "border"; it is ignored');
    expect(log.text).toContain('[folio] warning: guides/markdown.mdx: image ./prototype.png: no file guides/prototype.png in the content root');
  });

  it('counts its warnings in the deployment record, and ends the log with them grouped by kind', async () => {
    const log = (await fixture.api('GET', `/v1/projects/${projectId}/deployments/${deployment.id}/log`)).text;
    const lines = log.split('\n').filter((l) => l.includes('[folio] warning: '));
    expect(lines.length).toBeGreaterThanOrEqual(4);
    expect(deployment.warnings).toBe(lines.length);
    expect((await fixture.api('GET', `/v1/projects/${projectId}/deployments/${deployment.id}`)).body.warnings).toBe(lines.length);
    expect(log).toContain(`build: warnings by kind: ${lines.length} warnings of `);
    expect(log).toMatch(/build: {3}2 × <…> has no prop "…"; it is ignored; its props: caption, hint, className\n/);
  });
});
