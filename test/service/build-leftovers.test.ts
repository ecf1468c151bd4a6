// The leftovers in the build roots' folder, swept at the start of every build of any project
// (src/builder/build-roots.ts, removeStaleBuildRoots): a folder moved aside for removal
// (src/lib/remove-later.ts) whose removal a crash cut short goes at once, whatever its age; a stale
// one that cannot be removed (on a server not running as root, a tenant build's folder it made
// unwritable; here a mount holds it) is told in the log and fails no other project's build.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILDS_DIR } from '../../src/builder/build-roots.ts';
import { latestDeployment, startDeployingServer, until, waitForDeployment, type DeployingServer } from '../helpers/deployments.ts';
import { uniqueSlug } from '../helpers/server.ts';

let deploying: DeployingServer | undefined;
/** Folders the test put in the build roots' folder: removed (any mount in them undone) at the end. */
const planted: string[] = [];
afterAll(async () => {
  const mounts = readFileSync('/proc/self/mounts', 'utf8').split('\n').map((line) => line.split(' ')[1] ?? '');
  for (const dir of planted) {
    for (const at of mounts.filter((m) => m.startsWith(`${dir}/`))) execFileSync('umount', ['--lazy', at]);
    rmSync(dir, { recursive: true, force: true });
  }
  await deploying?.close();
});

describe('leftovers of earlier builds', () => {
  it('a trash a crash left is removed by the next build; a stale folder that cannot be removed fails no build', async () => {
    mkdirSync(BUILDS_DIR, { recursive: true });
    // As a killed server leaves a build's input it had moved aside but not yet removed: minutes old.
    const trash = path.join(BUILDS_DIR, `${randomUUID()}.input.0badc0de.trash`);
    planted.push(trash);
    mkdirSync(path.join(trash, 'content', 'guides'), { recursive: true });
    writeFileSync(path.join(trash, 'content', 'guides', 'setup.mdx'), '# Left behind\n');
    // A build root two days old with a folder nothing can remove.
    const stale = path.join(BUILDS_DIR, randomUUID());
    planted.push(stale);
    mkdirSync(path.join(stale, 'held'), { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', path.join(stale, 'held')]);
    writeFileSync(path.join(stale, 'held', 'page.html'), '<p>held</p>');
    const twoDaysAgo = new Date(Date.now() - 48 * 3600_000);
    utimesSync(stale, twoDaysAgo, twoDaysAgo);

    deploying = await startDeployingServer();
    const { api, host, server } = deploying;
    const repo = host.repo('acme', 'leftovers');
    repo.commit({ 'content/index.mdx': '# Leftovers\n\nThe site of another project.\n' });
    const project = (await api('POST', '/v1/projects', { body: { name: 'Leftovers', slug: uniqueSlug('leftovers'), source_repo: repo.slug } })).body;
    const deployment = await waitForDeployment(api, project.id, (await latestDeployment(api, project.id)).id);
    expect(deployment.status, deployment.error?.message).toBe('succeeded');
    expect(server.output()).toContain(`could not remove the stale build dir ${stale}`);
    await until('the trash is removed', () => !existsSync(trash));
  }, 240_000);
});
