// FOLIO_BUILD_CONCURRENCY (docs/decisions.md#hosts-and-configuration): with two build slots two projects build at the same
// time, while the deployments of one project still run one after the other.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articleOf, latestDeployment, startDeployingServer, waitForDeployment, type DeployingServer } from '../helpers/deployments.ts';
import type { RepoHost } from '../helpers/git-repos.ts';
import { client, getWithHost, uniqueSlug, type TestServer } from '../helpers/server.ts';

let fixture: DeployingServer;
let host: RepoHost;
let server: TestServer;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  fixture = await startDeployingServer({ FOLIO_BUILD_CONCURRENCY: '2' });
  ({ server, host, api } = fixture);
});
afterAll(() => fixture.close());

describe('two build slots', () => {
  it('build two projects at once, one project’s deployments one after the other', async () => {
    const projects = [];
    for (const name of ['one', 'two']) {
      const repo = host.repo('acme', `slot-${name}`);
      repo.commit({ 'content/index.mdx': `# Site ${name}\n\nContent of ${name}.\n` });
      const created = (await api('POST', '/v1/projects', { body: { name, slug: uniqueSlug(name), source_repo: repo.slug } })).body;
      projects.push({ ...created, first: await latestDeployment(api, created.id) });
    }
    // A second deployment of the first project waits for its first, though a slot may be free.
    const second = (await api('POST', `/v1/projects/${projects[0].id}/deployments`)).body;
    expect(second.id).not.toBe(projects[0].first.id);

    const [a, b, c] = await Promise.all([
      waitForDeployment(api, projects[0].id, projects[0].first.id),
      waitForDeployment(api, projects[1].id, projects[1].first.id),
      waitForDeployment(api, projects[0].id, second.id),
    ]);
    for (const d of [a, b, c]) expect(d.status).toBe('succeeded');
    // The two projects' first builds overlapped in time.
    expect(a.started_at < b.finished_at && b.started_at < a.finished_at).toBe(true);
    // The same project's deployments did not.
    expect(c.started_at >= a.finished_at).toBe(true);
    for (const p of projects) {
      expect(articleOf((await getWithHost(server.url, '/', `${p.slug}.localhost`)).text)).toContain(`Content of ${p.name}.`);
    }
  });
});
