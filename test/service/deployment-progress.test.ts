// A building deployment carries its build's latest progress (phase, pages rendered of the total),
// which Folio counts itself: a page of a project with code that prints a line looking like a
// progress report reaches the log, and changes nothing in the deployment's progress. With the JSON
// file and with PostgreSQL (where another node could answer: the progress is in the database).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startDeployingServer, type DeployingServer } from '../helpers/deployments.ts';
import { createTestDatabase } from '../helpers/postgres.ts';
import { uniqueSlug, type Json } from '../helpers/server.ts';

const FORGED = 'progress: astro: rendering pages, 999/999 pages, 1 s';

describe.each(['json', 'postgres'])('deployment progress (%s store)', (store) => {
  let deploying: DeployingServer;

  beforeAll(async () => {
    const database: Record<string, string> = store === 'postgres' ? { FOLIO_DATABASE_URL: await createTestDatabase(inject('postgresUrl')) } : {};
    // Reports every second: often enough to be seen during a small build, seldom enough that a
    // forged line would stay the log's latest progress line for a while. The test polls fast.
    deploying = await startDeployingServer({ FOLIO_BUILD_PROGRESS_MS: '1000', FOLIO_RATE_LIMITS: 'free=100000', ...database });
  });
  afterAll(() => deploying?.close());

  it('shows phase and pages done of the total while building, from Folio only, and goes when the build ends', async () => {
    const { api, host } = deploying;
    const repo = host.repo('acme', 'progress');
    repo.commit({
      'docs.json': JSON.stringify({ name: 'Progress' }),
      'content/index.mdx': '---\ntitle: Home\n---\n\n# Home\n\nWelcome.\n',
      'content/second.mdx': '---\ntitle: Second\n---\n\nThe second page.\n',
      // Printed while the page renders: the build's output is the tenant's, and so is this line.
      'content/loud.mdx': `---\ntitle: Loud\n---\n\nexport const Loud = () => { console.log(${JSON.stringify(FORGED)}); return <p>loud</p>; };\n\n<Loud />\n`,
    });
    const created = await api('POST', '/v1/projects', { body: { name: 'Progress', slug: uniqueSlug('progress'), source_repo: repo.slug, allow_code: true } });
    expect(created.status).toBe(201);
    const projectId = created.body.id as string;

    const seen: Json[] = [];
    let deployment: Json;
    for (;;) {
      const list = await api('GET', `/v1/projects/${projectId}/deployments?limit=1`);
      deployment = list.body.data[0];
      if (deployment?.progress) seen.push(deployment.progress);
      if (deployment && ['succeeded', 'failed', 'canceled'].includes(deployment.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(deployment.error).toBeUndefined();
    expect(deployment.status).toBe('succeeded');
    // Once ended, no progress; the single deployment's answer agrees with the list's.
    expect(deployment.progress).toBeUndefined();
    expect((await api('GET', `/v1/projects/${projectId}/deployments/${deployment.id}`)).body.progress).toBeUndefined();

    const log = (await api('GET', `/v1/projects/${projectId}/deployments/${deployment.id}/log`)).text as string;
    expect(log).toContain(FORGED);
    expect(seen.length).toBeGreaterThan(0);
    for (const progress of seen) {
      expect(Object.keys(progress).every((k) => ['phase', 'pages_done', 'pages_total'].includes(k))).toBe(true);
      expect(progress.phase).toMatch(/^[a-z ]+(?:: [a-z ]+)?$/);
      if (progress.pages_total !== undefined) {
        expect(progress.pages_total).toBe(3);
        expect(progress.pages_done).toBeGreaterThanOrEqual(0);
        expect(progress.pages_done).toBeLessThanOrEqual(3);
      }
    }
    expect(seen.some((p) => p.pages_total === 3)).toBe(true);
  });
});
