// A deployment's content snapshot is removed after its build slot is free (docs/decisions.md, "The
// build slot freed before the snapshot is removed"): the next deployment does not wait for it, and
// a removal cut short by a kill is finished by the next start. A tmpfs mounted in the snapshot holds
// its removal for as long as the test wants: nothing depends on how fast anything runs.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { latestDeployment, serverSeries, until, waitForDeployment, type ServerSeries } from '../helpers/deployments.ts';
import { client, uniqueSlug } from '../helpers/server.ts';

let series: ServerSeries | undefined;
/** The test's data dir: any mount left in it by a failure is undone before it is removed. */
let dataDir: string | undefined;
afterAll(async () => {
  const left = readFileSync('/proc/self/mounts', 'utf8').split('\n').map((line) => line.split(' ')[1] ?? '').filter((at) => dataDir && at.startsWith(`${dataDir}/`));
  for (const at of left) execFileSync('umount', ['--lazy', at]);
  await series?.close();
});

describe("a deployment's snapshot", () => {
  it('is moved aside before the next deployment starts, which never waits for its removal; a removal cut short by a kill is finished at the next start', async () => {
    series = await serverSeries();
    const server = await series.start();
    dataDir = server.dataDir;
    const api = client(server.url, server.defaultKey);
    const repo = series.host.repo('acme', 'held-snapshot');
    repo.commit({ 'content/index.mdx': '# Held\n\nVersion one.\n' });
    const project = (await api('POST', '/v1/projects', { body: { name: 'Held', slug: uniqueSlug('held'), source_repo: repo.slug } })).body;
    expect((await waitForDeployment(api, project.id, (await latestDeployment(api, project.id)).id)).status).toBe('succeeded');

    repo.commit({ 'content/index.mdx': '# Held\n\nVersion two.\n' });
    const first = (await api('POST', `/v1/projects/${project.id}/deployments`)).body;
    const snapshots = path.join(server.dataDir, 'projects', project.id, 'snapshots');
    const snapshot = path.join(snapshots, first.id);
    // While the first deployment builds: a folder of its snapshot that cannot be removed until unmounted.
    await until('the snapshot exists', () => existsSync(snapshot));
    const held = path.join(snapshot, 'held');
    mkdirSync(held);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', held]);
    // Queued behind the first (one project builds one deployment at a time).
    repo.commit({ 'content/index.mdx': '# Held\n\nVersion three.\n' });
    const second = (await api('POST', `/v1/projects/${project.id}/deployments`)).body;
    expect((await waitForDeployment(api, project.id, first.id)).status).toBe('succeeded');
    expect((await waitForDeployment(api, project.id, second.id)).status).toBe('succeeded');

    // The second deployment ran to its end while the first's snapshot, moved aside, could not be removed.
    expect(existsSync(snapshot)).toBe(false);
    const trash = readdirSync(snapshots).filter((name) => name.startsWith(`${first.id}.`) && name.endsWith('.trash'));
    expect(trash).toHaveLength(1);
    const trashDir = path.join(snapshots, trash[0]!);
    await until('the removal has given up on the held folder', () => server.output().includes(`could not remove ${trashDir}`));
    expect(readdirSync(trashDir)).toEqual(['held']);
    expect(server.output()).not.toMatch(/crashed/);

    // Killed with the trash half removed: the next start removes what is left.
    execFileSync('umount', [path.join(trashDir, 'held')]);
    server.process.kill('SIGKILL');
    await server.exited;
    expect(existsSync(trashDir)).toBe(true);
    const restarted = await series.start();
    expect(restarted.output()).toMatch(/removed \d+ leftover/);
    expect(existsSync(trashDir)).toBe(false);
    expect(readdirSync(snapshots)).toEqual([]);
  }, 240_000);
});
