// The fair build queue (docs/decisions.md#fair-build-queue) on a real server with one build slot,
// on the JSON file and on PostgreSQL: an organization with a backlog of deployments does not keep
// another organization's one deployment waiting behind all of it.
import { afterAll, describe, expect, inject, it } from 'vitest';
import { startDeployingServer, waitForDeployment, type DeployingServer } from '../helpers/deployments.ts';
import { createTestDatabase } from '../helpers/postgres.ts';
import { ADMIN, client, runNode, uniqueSlug, type Json } from '../helpers/server.ts';

const fixtures: DeployingServer[] = [];
afterAll(async () => {
  for (const f of fixtures) await f.close();
});

const stores = [
  { name: 'the JSON file', env: async (): Promise<Record<string, string>> => ({}) },
  { name: 'PostgreSQL', env: async (): Promise<Record<string, string>> => ({ FOLIO_DATABASE_URL: await createTestDatabase(inject('postgresUrl')) }) },
];

describe.each(stores)('fair build queue on $name', ({ env }) => {
  it('builds another organization\'s deployment before the backlog of one that queued four first', async () => {
    const storeEnv = await env();
    const fixture = await startDeployingServer({ ...storeEnv, FOLIO_BUILD_CONCURRENCY: '1' });
    fixtures.push(fixture);
    const { server, host, api } = fixture;
    const cli = (...args: string[]) => runNode(ADMIN, args, { FOLIO_DATA_DIR: server.dataDir, ...storeEnv });
    expect((await cli('org', 'create', 'late-org')).code).toBe(0);
    const key = await cli('key', 'create', '--org', 'late-org');
    const lateApi = client(server.url, key.stdout.trim().split('\n').at(-1)!);

    // Each project queues its first deployment when it is created (with a repository).
    const create = async (owner: typeof api, name: string) => {
      const repo = host.repo('fair', name);
      repo.commit({ 'content/index.mdx': `# ${name}\n\nThe ${name} site.\n` });
      const created = await owner('POST', '/v1/projects', { body: { name, slug: uniqueSlug(name), source_repo: repo.slug } });
      expect(created.status).toBe(201);
      const list = await owner('GET', `/v1/projects/${created.body.id}/deployments?limit=1`);
      return { projectId: created.body.id as string, deploymentId: list.body.data[0].id as string };
    };
    const backlog = [];
    for (let i = 0; i < 4; i++) backlog.push(await create(api, `backlog-${i}`));
    const late = await create(lateApi, 'late');

    const ended: Json[] = await Promise.all([
      ...backlog.map((d) => waitForDeployment(api, d.projectId, d.deploymentId)),
      waitForDeployment(lateApi, late.projectId, late.deploymentId),
    ]);
    for (const d of ended) expect(d.status).toBe('succeeded');
    const byStart = [...ended].sort((a, b) => (a.started_at < b.started_at ? -1 : 1)).map((d) => d.id);
    // The backlog's first was building already; the late organization's went next, not fifth.
    expect(byStart.indexOf(late.deploymentId)).toBe(1);
  });
});
