// The build queue (src/service/deployments/queue.ts) on the real JSON store, with a run of its own
// in place of a deployment's: what the queue itself promises about the runs it starts.
import { afterAll, expect, it } from 'vitest';
import { createBuildQueue } from '../../src/service/deployments/queue.ts';
import { openStore } from '../../src/service/store/json/index.ts';
import { removeDir, tempDataDir } from '../helpers/server.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await removeDir(dir);
});

it('the next deployment of a project, started while the previous run finishes its last steps, stays tracked: cancelable and its lease renewed', async () => {
  const dataDir = await tempDataDir();
  dirs.push(dataDir);
  const store = await openStore(dataDir);
  const now = new Date().toISOString();
  await store.createOrg({ id: 'org', name: 'Org', plan: 'free', created_at: now });
  await store.createProject({ id: 'proj', org_id: 'org', name: 'P', slug: 'p', status: 'pending', created_at: now });
  for (const id of ['d1', 'd2']) {
    await store.addDeployment({ id, project_id: 'proj', status: 'queued', trigger: 'manual', created_at: new Date(Date.now() + (id === 'd2' ? 1 : 0)).toISOString() });
  }
  let d2Started!: () => void;
  const d2Running = new Promise<void>((r) => (d2Started = r));
  let d2Signal: AbortSignal | undefined;
  // No warm Astro process: a sandbox that cannot start keeps the slots' workers cold.
  const queue = createBuildQueue(store, { concurrency: 2, buildsPerOrg: 0, sandbox: { mode: 'required', bwrapPath: '/nonexistent/bwrap' }, leaseMs: 600 }, async (deployment, _worker, signal) => {
    if (deployment.id === 'd1') {
      // As runner.ts: the outcome recorded, then its last steps; the queue looks for work meanwhile.
      await store.updateDeployment('d1', { status: 'failed', finished_at: new Date().toISOString() });
      queue.kick();
      await new Promise((r) => setTimeout(r, 300));
      return;
    }
    d2Signal = signal;
    d2Started();
    await new Promise((r) => signal.addEventListener('abort', r, { once: true }));
  });
  queue.kick();
  await d2Running;
  // d1's run has ended by now, d2 still builds.
  await new Promise((r) => setTimeout(r, 1500));
  expect((await store.getDeployment('d2'))?.status).toBe('building');
  expect(queue.isRunning('d2')).toBe(true);
  // Its lease (600 ms) was renewed past its first expiry: another node could not take it over.
  expect(await store.takeExpiredLeases('another-node', 600)).toEqual([]);
  await queue.cancel('d2');
  expect(d2Signal?.aborted).toBe(true);
  await queue.close();
});
