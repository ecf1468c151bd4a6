// The projects service on a real store: the repository-connection hook the deployments issue uses,
// and the project URL's port rules.
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/service/config.ts';
import { createProjectsService } from '../../src/service/projects.ts';
import { openStore } from '../../src/service/store/json/index.ts';
import type { ProjectRecord } from '../../src/service/store/records.ts';
import { removeDir, tempDataDir } from '../helpers/server.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await removeDir(dir);
});

async function setup(env: Record<string, string> = {}) {
  const dir = await tempDataDir();
  dirs.push(dir);
  const store = await openStore(dir);
  await store.createOrg({ id: 'org-1', name: 'one', plan: 'free', created_at: new Date().toISOString() });
  const connected: ProjectRecord[] = [];
  const projects = createProjectsService(store, loadConfig({ FOLIO_DATA_DIR: dir, ...env }), {
    onRepositoryConnected: (p) => void connected.push(p),
  });
  return { store, projects, connected };
}

describe('projects service', () => {
  it('calls onRepositoryConnected when a repository is connected or changed, not otherwise', async () => {
    const { store, projects, connected } = await setup();
    await projects.create('org-1', { name: 'Plain', slug: 'plain' });
    expect(connected).toHaveLength(0);
    const p = await projects.create('org-1', { name: 'Repo', slug: 'repo', source_repo: 'acme/docs' });
    expect(connected.map((c) => [c.id, c.source_repo])).toEqual([[p.id, 'acme/docs']]);
    await projects.update('org-1', p.id, { name: 'Renamed', source_repo: 'acme/docs' });
    expect(connected).toHaveLength(1);
    await projects.update('org-1', p.id, { source_repo: 'acme/handbook' });
    expect(connected.map((c) => c.source_repo)).toEqual(['acme/docs', 'acme/handbook']);
    await projects.update('org-1', p.id, { source_repo: null });
    expect(connected).toHaveLength(2);
    await store.close();
  });

  it('writes the port into project URLs unless it is the scheme default', async () => {
    const cases: [Record<string, string>, string][] = [
      [{}, 'http://docs-a.localhost:4321/'],
      [{ PORT: '80' }, 'http://docs-a.localhost/'],
      [{ FOLIO_PUBLIC_SCHEME: 'https', FOLIO_PUBLIC_PORT: '443', FOLIO_SERVICE_DOMAIN: 'docs.example.com' }, 'https://docs-a.docs.example.com/'],
      [{ FOLIO_PUBLIC_SCHEME: 'https', FOLIO_PUBLIC_PORT: '8443' }, 'https://docs-a.localhost:8443/'],
    ];
    for (const [env, url] of cases) {
      const { store, projects } = await setup(env);
      expect((await projects.create('org-1', { name: 'A', slug: 'docs-a' })).url).toBe(url);
      await store.close();
    }
  });
});
