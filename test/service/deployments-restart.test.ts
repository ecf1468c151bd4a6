// A server killed during a build (docs/decisions.md#deployments): after a restart on the same data dir the deployment
// left `building` is failed `interrupted`, and the one still `queued` runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articleOf, latestDeployment, serverSeries, waitForDeployment, type ServerSeries } from '../helpers/deployments.ts';
import { client, getWithHost, uniqueSlug } from '../helpers/server.ts';

let series: ServerSeries;

beforeAll(async () => {
  series = await serverSeries();
});
afterAll(() => series.close());

describe('restart during a build', () => {
  it('marks the running deployment interrupted and resumes the queued one', async () => {
    const repo = series.host.repo('acme', 'restart');
    repo.commit({ 'content/index.mdx': '# Restart\n\nBuilt after the restart.\n' });
    const env = { FOLIO_BUILD_CONCURRENCY: '1' };
    const first = await series.start(env);
    const api = client(first.url, first.defaultKey);
    const running = (await api('POST', '/v1/projects', { body: { name: 'Running', slug: uniqueSlug('running'), source_repo: repo.slug } })).body;
    const waiting = (await api('POST', '/v1/projects', { body: { name: 'Waiting', slug: uniqueSlug('waiting'), source_repo: repo.slug } })).body;
    const runningDeployment = await latestDeployment(api, running.id);
    const waitingDeployment = await latestDeployment(api, waiting.id);

    // One build slot: the first project's deployment builds while the second one waits.
    const deadline = Date.now() + 60_000;
    while ((await api('GET', `/v1/projects/${running.id}/deployments/${runningDeployment.id}`)).body.status !== 'building') {
      if (Date.now() > deadline) throw new Error('the deployment never started building');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await api('GET', `/v1/projects/${waiting.id}/deployments/${waitingDeployment.id}`)).body.status).toBe('queued');
    first.process.kill('SIGKILL');
    await first.exited;

    const restarted = await series.start(env);
    const again = client(restarted.url, first.defaultKey);
    const interrupted = (await again('GET', `/v1/projects/${running.id}/deployments/${runningDeployment.id}`)).body;
    expect(interrupted).toMatchObject({ status: 'failed', error: { code: 'interrupted' } });
    expect(interrupted.finished_at).toBeDefined();
    expect((await again('GET', `/v1/projects/${running.id}`)).body.status).toBe('failed');

    const resumed = await waitForDeployment(again, waiting.id, waitingDeployment.id);
    expect(resumed.status).toBe('succeeded');
    expect((await again('GET', `/v1/projects/${waiting.id}`)).body.status).toBe('active');
    const res = await getWithHost(restarted.url, '/', `${waiting.slug}.localhost`);
    expect(articleOf(res.text)).toContain('Built after the restart.');
  });
});
