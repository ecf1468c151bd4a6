// A deployment through the real server, from a real repository over file://, whose pages link to
// missing pages, missing anchors and redirects that lead nowhere or loop: it succeeds, and its log
// names each broken link as a warning at file:line:col (docs/decisions.md#broken-links-in-deployments).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestDeployment, startDeployingServer, waitForDeployment, type DeployingServer } from '../helpers/deployments.ts';
import { uniqueSlug } from '../helpers/server.ts';
import { BROKEN_LINK_SITE } from '../helpers/broken-link-site.ts';

let fixture: DeployingServer;
let projectId: string;
let deployment: { id: string; status: string; warnings?: number };

beforeAll(async () => {
  fixture = await startDeployingServer();
  const repo = fixture.host.repo('kestrel', 'docs');
  repo.commit(BROKEN_LINK_SITE);
  const created = await fixture.api('POST', '/v1/projects', { body: { name: 'Kestrel', slug: uniqueSlug('kestrel'), source_repo: repo.slug } });
  expect(created.status).toBe(201);
  projectId = created.body.id;
  deployment = await waitForDeployment(fixture.api, projectId, (await latestDeployment(fixture.api, projectId)).id);
}, 240_000);
afterAll(() => fixture?.close());

describe('a deployment with broken internal links', () => {
  it('succeeds, and its log names each broken link as a warning, grouped by kind at its end', async () => {
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
