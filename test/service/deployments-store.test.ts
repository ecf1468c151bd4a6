// The store's deployments section: coalescing, ordering, persistence of every change (sharded
// serialisation), and removal with the project.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore, STORE_FILE } from '../../src/service/store/json/index.ts';
import type { DeploymentRecord } from '../../src/service/store/records.ts';
import { removeDir, tempDataDir } from '../helpers/server.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await removeDir(dir);
});

const at = (ms: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, ms)).toISOString();
const deployment = (projectId: string, ms: number): DeploymentRecord => ({
  id: crypto.randomUUID(), project_id: projectId, status: 'queued', trigger: 'manual', created_at: at(ms),
});

async function storeWithProjects(count: number) {
  const dir = await tempDataDir();
  dirs.push(dir);
  const store = await openStore(dir);
  await store.createOrg({ id: 'org-1', name: 'one', plan: 'free', created_at: at(0) });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = crypto.randomUUID();
    await store.createProject({ id, org_id: 'org-1', name: `P${i}`, slug: `p-${i}`, status: 'pending', created_at: at(i) });
    ids.push(id);
  }
  return { dir, store, ids };
}

describe('deployments in the store', () => {
  it('coalesces concurrent queueing into one queued deployment per project', async () => {
    const { store, ids } = await storeWithProjects(1);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => store.queueDeployment(deployment(ids[0], i))));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.deployment.id)).size).toBe(1);
    await store.updateDeployment(results[0].deployment.id, { status: 'building' });
    expect((await store.queueDeployment(deployment(ids[0], 20))).created).toBe(true);
  });

  it('persists every change and lists newest first per project, oldest first per status', async () => {
    const { dir, store, ids } = await storeWithProjects(2);
    const a = (await store.queueDeployment(deployment(ids[0], 1))).deployment;
    const b = (await store.queueDeployment(deployment(ids[1], 2))).deployment;
    await store.updateDeployment(a.id, { status: 'succeeded', finished_at: at(5), page_count: 3, commit_sha: 'f'.repeat(40) });
    const c = (await store.queueDeployment(deployment(ids[0], 3))).deployment;
    await store.close();

    const file = JSON.parse(await readFile(path.join(dir, STORE_FILE), 'utf8'));
    expect(file.deployments[a.id]).toMatchObject({ status: 'succeeded', page_count: 3 });
    const reopened = await openStore(dir);
    expect((await reopened.listDeployments(ids[0], 10)).items.map((d) => d.id)).toEqual([c.id, a.id]);
    expect((await reopened.listDeployments(ids[0], 1, c)).items.map((d) => d.id)).toEqual([a.id]);
    expect((await reopened.deploymentsWithStatus('queued')).map((d) => d.id)).toEqual([b.id, c.id]);
    expect(await reopened.getDeployment(a.id)).toMatchObject({ status: 'succeeded', finished_at: at(5), commit_sha: 'f'.repeat(40) });

    await reopened.deleteProject(ids[0]);
    expect(await reopened.getDeployment(a.id)).toBeUndefined();
    expect((await reopened.listDeployments(ids[0], 10)).items).toEqual([]);
    await reopened.close();
    const after = JSON.parse(await readFile(path.join(dir, STORE_FILE), 'utf8'));
    expect(Object.keys(after.deployments)).toEqual([b.id]);
  });

  it('refuses a deployment of a project that does not exist', async () => {
    const { store } = await storeWithProjects(0);
    await expect(store.queueDeployment(deployment(crypto.randomUUID(), 1))).rejects.toThrow(/not found/);
  });
});
