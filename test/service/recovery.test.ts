// Recovery without a human (issue 17): a data-dir lock that a recycled pid, pid 1 or a killed
// server never turns into a refusal, yet two servers never share a data dir; crash leftovers
// removed at start; a full disk (a real 8 MB tmpfs) answered with 507 and a degraded /healthz,
// resuming by itself; a damaged store refused at start and restored by one command.
import { spawn, execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, stat, symlink, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deploy } from '../helpers/deployments.ts';
import { admin, client, getWithHost, removeDir, startServer, tempDataDir, uniqueSlug, type Json, type TestServer } from '../helpers/server.ts';

const dirs: string[] = [];
const mounts: string[] = [];
const servers: TestServer[] = [];
async function dataDir(): Promise<string> {
  const dir = await tempDataDir();
  dirs.push(dir);
  return dir;
}
async function start(dir: string, env: Record<string, string> = {}): Promise<TestServer> {
  const server = await startServer({ dataDir: dir, env });
  servers.push(server);
  return server;
}
afterAll(async () => {
  for (const server of servers) await server.stop();
  for (const mount of mounts) execFileSync('umount', [mount]);
  for (const dir of dirs) await removeDir(dir);
});

/** Every file and folder under `dir`, relative. */
async function walk(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String).sort();
}

/** Polls /healthz until it answers `status` (the free-space check is cached for a moment). */
async function healthBecomes(server: TestServer, status: number): Promise<Json> {
  const api = client(server.url);
  for (let i = 0; ; i++) {
    const res = await api('GET', '/healthz');
    if (res.status === status || i > 100) return res;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the data-dir lock', () => {
  it('a lock file left naming pid 1 or a live unrelated process does not block a start', async () => {
    const dir = await dataDir();
    const unrelated = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      for (const pid of [1, unrelated.pid!]) {
        // What an older Folio, killed, left behind: its pid now belongs to someone else.
        await writeFile(path.join(dir, 'folio.lock'), JSON.stringify({ pid, role: 'server' }));
        const server = await start(dir);
        expect((await client(server.url)('GET', '/healthz')).status).toBe(200);
        expect(await server.stop()).toBe(0);
      }
    } finally {
      unrelated.kill();
    }
  });

  it('of two servers started at the same instant on one data dir, exactly one runs; the other exits with the message', async () => {
    const dir = await dataDir();
    // A server that hangs is named with its output, rather than the test running out of time silently.
    const startOne = () => startServer({ dataDir: dir, startTimeoutMs: 150_000 });
    const results = await Promise.allSettled([startOne(), startOne(), startOne()]);
    const running = results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<TestServer>).value);
    servers.push(...running);
    expect(running).toHaveLength(1);
    for (const refused of results.filter((r) => r.status === 'rejected')) {
      expect(String((refused as PromiseRejectedResult).reason)).toMatch(/exited with 1[\s\S]*Folio cannot start: data dir .* is in use by a Folio server \(pid \d+\)/);
    }
    expect((await client(running[0].url)('GET', '/healthz')).status).toBe(200);
    expect(await running[0].stop()).toBe(0);
    // Three servers load Folio at once: on a busy 2-core machine that alone can take a minute.
  }, 180_000);

  it('a restart right after kill -9 succeeds at once and keeps every acknowledged write; the admin CLI works alongside it', async () => {
    const dir = await dataDir();
    const first = await start(dir);
    const key = first.defaultKey!;
    const created = await client(first.url, key)('POST', '/v1/projects', { body: { name: 'Before kill', slug: uniqueSlug('kill') } });
    expect(created.status).toBe(201);
    first.process.kill('SIGKILL');
    // Started before this process has even reaped the killed one.
    const second = await start(dir);
    expect(second.output()).not.toContain('in use');
    expect((await client(second.url, key)('GET', `/v1/projects/${created.body.id}`)).status).toBe(200);
    const org = await admin(dir, 'org', 'create', 'beside-the-server', '--json');
    expect(org.code, org.stderr).toBe(0);
    expect(await second.stop()).toBe(0);
    const offline = await admin(dir, 'org', 'list', '--json');
    expect(JSON.parse(offline.stdout).orgs.map((o: { name: string }) => o.name)).toContain('beside-the-server');
  });
});

describe('crash leftovers', () => {
  it('are removed at start; pages, the live build and the kept builds stay; a deleted page takes its empty folders with it', async () => {
    const dir = await dataDir();
    const server = await start(dir);
    const api = client(server.url, server.defaultKey);
    const slug = uniqueSlug('left');
    const project = (await api('POST', '/v1/projects', { body: { name: 'Leftovers', slug } })).body;
    expect((await api('POST', `/v1/projects/${project.id}/pages`, { body: { path: 'index', title: 'Home', content: 'Welcome home.' } })).status).toBe(201);
    expect((await api('POST', `/v1/projects/${project.id}/pages`, { body: { path: 'a/b/gone', title: 'Gone', content: 'Soon gone.' } })).status).toBe(201);
    const deployed = await deploy(api, project.id);
    expect(deployed.status).toBe('succeeded');
    expect((await api('DELETE', `/v1/projects/${project.id}/pages/a/b/gone`)).status).toBe(204);
    const projectDir = path.join(dir, 'projects', project.id);
    const content = path.join(projectDir, 'root', 'content');
    expect(await readdir(content)).toEqual(['index.mdx']); // a/ and a/b/ went with the page
    server.process.kill('SIGKILL');
    await server.exited;

    // What crashes leave: temporary files of atomic writes, a snapshot and an unfinished build of
    // a deployment, a half-made live link, an empty folder, a project whose delete was cut short,
    // a sync's kept tree and index left by a repository disconnected while it synced.
    const other = '00000000-0000-4000-8000-000000000000';
    const planted = [
      path.join(dir, '.folio.json.0123456789ab.tmp'),
      path.join(content, '.index.mdx.0123456789ab.tmp'),
      path.join(content, 'empty', 'deeper'),
      path.join(projectDir, 'snapshots', other),
      path.join(projectDir, 'builds', other),
      path.join(projectDir, `live.${other}.tmp`),
      path.join(dir, 'projects', other),
      path.join(projectDir, 'git', 'folio-root-0123456789abcdef'),
      path.join(projectDir, 'git', 'folio-root-0123456789abcdef.index'),
    ];
    await writeFile(planted[0], '{"version":');
    await writeFile(planted[1], 'half a pa');
    await mkdir(planted[2], { recursive: true });
    await mkdir(planted[3], { recursive: true });
    await mkdir(planted[4], { recursive: true });
    await symlink(`builds/${other}`, planted[5]);
    await mkdir(path.join(planted[6], 'root'), { recursive: true });
    await mkdir(path.join(planted[7], 'content'), { recursive: true });
    await writeFile(path.join(planted[7], 'content', 'index.mdx'), 'Synced once.');
    await writeFile(planted[8], 'DIRC');

    const restarted = await start(dir);
    expect(restarted.output()).toMatch(/removed \d+ leftover/);
    for (const file of planted) await expect(stat(file), file).rejects.toThrow();
    expect(await readdir(content)).toEqual(['index.mdx']);
    expect(await readdir(path.join(projectDir, 'builds'))).toEqual([deployed.id]);
    const site = await getWithHost(restarted.url, '/', `${slug}.localhost`, {}, 'a site host');
    expect(site.status).toBe(200);
    expect(site.text).toContain('Welcome home.');
    expect(await restarted.stop()).toBe(0);
  });
});

describe('a full disk', () => {
  it('answers 507 and degrades /healthz, leaves nothing half-written, and resumes by itself once space is freed', async () => {
    const dir = await dataDir();
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', dir]);
    mounts.push(dir);
    const server = await start(dir, { FOLIO_MIN_FREE_MB: '1' });
    const api = client(server.url, server.defaultKey);
    expect((await healthBecomes(server, 200)).status).toBe(200);
    const project = (await api('POST', '/v1/projects', { body: { name: 'Full', slug: uniqueSlug('full') } })).body;
    const pages = `/v1/projects/${project.id}/pages`;

    // Pages of shrinking sizes until even a small one no longer fits: the disk is then full to the brim.
    const stored = new Map<string, string>();
    let refused: Json;
    for (const size of [512 * 1024, 64 * 1024, 4 * 1024, 256]) {
      for (let i = 0; ; i++) {
        const pagePath = `s${size}/p${i}`;
        const content = `${pagePath} `.repeat(size / 8).slice(0, size);
        const res = await api('POST', pages, { body: { path: pagePath, title: pagePath, content } });
        if (res.status === 507) {
          refused = res;
          break;
        }
        expect(res.status, res.text).toBe(201);
        stored.set(pagePath, content);
      }
    }
    expect(refused.body.error).toBe('insufficient_storage');
    expect(refused.body.message).toMatch(/disk is full: page "s256\/p\d+" could not be stored and nothing was changed/);
    const health = await healthBecomes(server, 503);
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ status: 'unavailable', reason: expect.stringContaining('below FOLIO_MIN_FREE_MB=1') });

    // A store write that cannot be stored is refused and undone: the project never appears.
    const slug = uniqueSlug('nospace');
    const create = await api('POST', '/v1/projects', { body: { name: 'No space', slug } });
    expect(create.status).toBe(507);
    expect(create.body.error).toBe('insufficient_storage');
    const list = await api('GET', '/v1/projects?limit=100');
    expect(list.body.data.map((p: { slug: string }) => p.slug)).not.toContain(slug);

    // Nothing half-written: no temporary file, no folder of a refused page, every stored page whole.
    const files = await walk(path.join(dir, 'projects', project.id, 'root', 'content'));
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(files.filter((f) => f.endsWith('.mdx'))).toHaveLength(stored.size);
    for (const [pagePath, content] of stored) {
      if (pagePath.endsWith('p0')) expect((await api('GET', `${pages}/${pagePath}`)).body.content).toBe(content);
    }

    // Space returns (pages deleted): writes and health come back by themselves.
    for (const pagePath of [...stored.keys()].filter((p) => p.startsWith('s524288/')).slice(0, 4)) {
      expect((await api('DELETE', `${pages}/${pagePath}`)).status).toBe(204);
    }
    expect((await healthBecomes(server, 200)).status).toBe(200);
    expect((await api('POST', '/v1/projects', { body: { name: 'No space', slug } })).status).toBe(201);
    expect((await api('POST', pages, { body: { path: 'after/space', title: 'After', content: 'Back.' } })).status).toBe(201);

    // A build that runs out of space fails with disk_full; the store still records it.
    const deployment = await deploy(api, project.id);
    expect(deployment.status).toBe('failed');
    expect(deployment.error.code).toBe('disk_full');
    expect(await server.stop()).toBe(0);
  });
});

describe('a damaged store', () => {
  it('stops the server with a message naming the file and the newest good backup; store restore brings it back', async () => {
    const dir = await dataDir();
    const first = await start(dir);
    const key = first.defaultKey!;
    const created = await client(first.url, key)('POST', '/v1/projects', { body: { name: 'Kept', slug: uniqueSlug('kept') } });
    expect(created.status).toBe(201);
    expect(await first.stop()).toBe(0); // a clean stop backs up the last write
    const restoreWhileRunning = await start(dir);
    const refused = await admin(dir, 'store', 'restore');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/in use by a Folio server .*stop it before restoring the store/);
    expect(await restoreWhileRunning.stop()).toBe(0);

    const file = path.join(dir, 'folio.json');
    await truncate(file, Math.floor((await stat(file)).size / 2));
    const damaged = await startServer({ dataDir: dir }).catch((err: Error) => err);
    expect(damaged).toBeInstanceOf(Error);
    const message = (damaged as Error).message;
    expect(message).toContain(`Folio cannot start: the store file ${file} is damaged`);
    expect(message).toMatch(/The newest good backup is .*backups\/folio-[\dT:.Z-]+\.json, taken at \S+Z\. Restore it with: npm run admin -- store restore/);

    const restored = await admin(dir, 'store', 'restore');
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/Restored .*folio\.json from the backup .* \(taken at \S+Z\)\./);
    expect(restored.stdout).toMatch(/no acknowledged write is lost|Writes acknowledged between \S+Z and \S+Z .* are lost/);
    expect(restored.stdout).toMatch(/The replaced file was kept as .*folio\.json\.damaged-/);
    // A readable store is not replaced without --force.
    const again = await admin(dir, 'store', 'restore');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('is readable: there is nothing to restore');

    const back = await start(dir);
    expect((await client(back.url, key)('GET', `/v1/projects/${created.body.id}`)).status).toBe(200);
    expect(await back.stop()).toBe(0);
    expect((await readFile(file, 'utf8')).length).toBeGreaterThan(0);
  });
});
