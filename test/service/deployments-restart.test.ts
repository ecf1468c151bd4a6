// A server killed during a build (CONTRACT §8): after a restart on the same data dir the deployment
// left `building` is failed `interrupted`, and the one still `queued` runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articleOf, latestDeployment, waitForDeployment } from '../helpers/deployments.ts';
import { repoHost, type RepoHost } from '../helpers/git-repos.ts';
import { client, getWithHost, removeDir, startServer, tempDataDir, uniqueSlug, type TestServer } from '../helpers/server.ts';

let host: RepoHost;
let dataDir: string;
let restarted: TestServer | undefined;

beforeAll(async () => {
  host = repoHost();
  dataDir = await tempDataDir();
});
afterAll(async () => {
  await restarted?.stop();
  await removeDir(dataDir);
  host.remove();
});

describe('restart during a build', () => {
  it('marks the running deployment interrupted and resumes the queued one', async () => {
    const repo = host.repo('acme', 'restart');
    repo.commit({ 'content/index.mdx': '# Restart\n\nBuilt after the restart.\n' });
    const env = { FOLIO_GIT_URL: host.gitUrl, FOLIO_GIT_PROTOCOLS: 'file', FOLIO_BUILD_CONCURRENCY: '1' };
    const first = await startServer({ dataDir, env });
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

    restarted = await startServer({ dataDir, env });
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
