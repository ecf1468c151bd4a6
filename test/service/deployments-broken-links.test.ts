// A deployment through the real server, from a real repository over file://, whose pages link to
// missing pages, missing anchors and redirects that lead nowhere or loop: it succeeds, and its log
// names each broken link as a warning at file:line:col (docs/decisions.md#broken-links-in-deployments).
// Links to the pages generated from an OpenAPI file are known as the build knows them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestDeployment, startDeployingServer, waitForDeployment, type DeployingServer } from '../helpers/deployments.ts';
import { uniqueSlug } from '../helpers/server.ts';
import { BROKEN_LINK_SITE, OPENAPI_LINK_SITE } from '../helpers/broken-link-site.ts';

interface Deployed {
  projectId: string;
  deployment: { id: string; status: string; warnings?: number };
}

let fixture: DeployingServer;
let kestrel: Deployed;
let osprey: Deployed;

/** Creates a project from a new repository holding `files`, and waits for its first deployment. */
async function deployed(name: string, files: Record<string, string>): Promise<Deployed> {
  const repo = fixture.host.repo(name.toLowerCase(), 'docs');
  repo.commit(files);
  const created = await fixture.api('POST', '/v1/projects', { body: { name, slug: uniqueSlug(name.toLowerCase()), source_repo: repo.slug } });
  expect(created.status).toBe(201);
  const projectId = created.body.id;
  return { projectId, deployment: await waitForDeployment(fixture.api, projectId, (await latestDeployment(fixture.api, projectId)).id) };
}

beforeAll(async () => {
  fixture = await startDeployingServer();
  kestrel = await deployed('Kestrel', BROKEN_LINK_SITE);
  osprey = await deployed('Osprey', OPENAPI_LINK_SITE);
}, 360_000);
afterAll(() => fixture?.close());

describe('a deployment with broken internal links', () => {
  it('succeeds, and its log names each broken link as a warning, grouped by kind at its end', async () => {
    const { projectId, deployment } = kestrel;
    expect(deployment.status).toBe('succeeded');
    const log = (await fixture.api('GET', `/v1/projects/${projectId}/deployments/${deployment.id}/log`)).text;
    for (const line of [
      'content/index.mdx:7:6: link "/guides/missing": no page or file has this address',
      'content/index.mdx:9:1: link "/guides/lost": no page or file has this address',
      'content/index.mdx:11:56: link "/guides/setup#no-such-step": no heading or element with id "no-such-step" on /guides/setup/',
      'content/index.mdx:13:5: link "/gone": redirected to /nowhere, where there is no page or file',
      'content/index.mdx:13:27: link "/ping": redirects in a loop: /ping → /pong → /ping',
    ]) expect(log).toContain(`[folio] warning: ${line}`);
    expect(log).toMatch(/\[folio\] warning: docs\.json:\d+:\d+: redirect \/ping → \/pong: redirects in a loop/);
    expect(log).toMatch(/build: {3}2 × link "…": no page or file has this address\n/);
    expect(deployment.warnings).toBeGreaterThanOrEqual(8);
  });
});

describe('a deployment whose pages link to the pages of an OpenAPI file', () => {
  it('knows the generated pages: links to them are not warnings, links to operations that have no page are', async () => {
    const { projectId, deployment } = osprey;
    expect(deployment.status).toBe('succeeded');
    const log = (await fixture.api('GET', `/v1/projects/${projectId}/deployments/${deployment.id}/log`)).text;
    expect(log).toContain('[folio] warning: index.mdx:7:19: link "/api-reference/list-eggs": no page or file has this address');
    // An operation the navigation entry does not list gets no page, as in the build.
    expect(log).toContain('[folio] warning: index.mdx:9:26: link "/api-reference/add-a-nest": no page or file has this address');
    expect(log).not.toMatch(/warning: .*list-nests/);
  });
});
