// The server's life: first start, restart, a second server, clean stop, kill -9, and the admin CLI
// with and without a running server (docs/decisions.md#hosts-and-configuration; issue 2 points 2–4).
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { admin, KEY_PATTERN, removeDir, request, ROOT, runNode, startServer, tempDataDir, uniqueSlug } from '../helpers/server.ts';

const dirs: string[] = [];
async function dataDir(): Promise<string> {
  const dir = await tempDataDir();
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  for (const dir of dirs) await removeDir(dir);
});

describe('start, restart and a second server', () => {
  it('prints the default key once, keeps data across restarts, stores keys only as hashes in a 0600 file', async () => {
    const dir = await dataDir();
    const first = await startServer({ dataDir: dir });
    expect(first.defaultKey).toMatch(KEY_PATTERN);
    expect(first.output()).toContain('"default"');
    expect(first.output().split(first.defaultKey!)).toHaveLength(2); // printed exactly once
    const created = await request(first.url, 'POST', '/v1/projects', { key: first.defaultKey, body: { name: 'Kept', slug: uniqueSlug('kept') } });
    expect(created.status).toBe(201);
    expect(await first.stop()).toBe(0);

    const second = await startServer({ dataDir: dir });
    expect(second.defaultKey).toBeUndefined();
    const again = await request(second.url, 'GET', `/v1/projects/${created.body.id}`, { key: first.defaultKey });
    expect(again.status).toBe(200);
    expect({ ...again.body, url: '' }).toEqual({ ...created.body, url: '' });

    const second2 = await startServer({ dataDir: dir }).catch((err: Error) => err);
    expect(second2).toBeInstanceOf(Error);
    expect((second2 as Error).message).toMatch(/in use by a Folio server \(pid \d+\)/);
    expect((second2 as Error).message).toContain('exited with 1');
    // The refused server left the running one alone.
    expect((await request(second.url, 'GET', '/healthz')).status).toBe(200);
    expect(await second.stop()).toBe(0);

    const file = path.join(dir, 'folio.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(first.defaultKey);
    const store = JSON.parse(text);
    const keys = Object.values(store.keys) as { hash: string; prefix: string; last_used_at: string | null }[];
    expect(keys).toHaveLength(1);
    expect(keys[0].hash).toMatch(/^[0-9a-f]{64}$/);
    expect(keys[0].prefix).toBe(first.defaultKey!.slice(0, 12));
    // last_used_at is written lazily, but a clean stop writes it.
    expect(keys[0].last_used_at).not.toBeNull();
  });

  it('finishes in-flight requests on SIGTERM, then exits 0', async () => {
    const dir = await dataDir();
    const server = await startServer({ dataDir: dir });
    const slug = uniqueSlug('inflight');
    const body = JSON.stringify({ name: 'In flight', slug });
    let step = 0;
    // A body that arrives slowly keeps the request in flight while SIGTERM is delivered.
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        step++;
        if (step === 1) return controller.enqueue(new TextEncoder().encode(body.slice(0, 10)));
        if (step > 2) return controller.close();
        await new Promise((r) => setTimeout(r, 300)); // the request is now at the server
        server.process.kill('SIGTERM');
        // The rest of the body is sent once the server has begun to stop.
        await expect.poll(() => server.output(), { timeout: 10_000 }).toContain('SIGTERM received, finishing in-flight requests');
        controller.enqueue(new TextEncoder().encode(body.slice(10)));
      },
    });
    const res = await request(server.url, 'POST', '/v1/projects', { key: server.defaultKey, headers: { 'content-type': 'application/json' }, body: stream });
    expect(res.status).toBe(201);
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('Folio stopped.');
    const restarted = await startServer({ dataDir: dir });
    const list = await request(restarted.url, 'GET', '/v1/projects', { key: server.defaultKey });
    expect(list.body.data.map((p: { slug: string }) => p.slug)).toEqual([slug]);
    await restarted.stop();
  });

  it('after kill -9 during a burst of writes, the store is readable and holds every acknowledged project', async () => {
    const dir = await dataDir();
    const server = await startServer({ dataDir: dir });
    const acknowledged: string[] = [];
    let killed = false;
    const worker = async () => {
      while (!killed) {
        try {
          const res = await request(server.url, 'POST', '/v1/projects', { key: server.defaultKey, body: { name: 'Burst', slug: uniqueSlug('burst') } });
          if (res.status === 201) acknowledged.push(res.body.id);
        } catch {
          return; // the server is gone
        }
        if (acknowledged.length >= 150 && !killed) {
          killed = true;
          server.process.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    await server.exited;
    expect(acknowledged.length).toBeGreaterThanOrEqual(150);

    // The stale lock of the killed server does not stop the next one.
    const restarted = await startServer({ dataDir: dir });
    for (const id of acknowledged) {
      const res = await request(restarted.url, 'GET', `/v1/projects/${id}`, { key: server.defaultKey });
      expect(res.status, id).toBe(200);
    }
    await restarted.stop();
  });

  it('exits with a message when the port is taken', async () => {
    const dir = await dataDir();
    const first = await startServer({ dataDir: dir });
    const result = await runNode(path.join(ROOT, 'src/server.ts'), [], { PORT: String(first.port), HOST: '127.0.0.1', FOLIO_DATA_DIR: await dataDir() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`cannot listen on 127.0.0.1:${first.port} (EADDRINUSE)`);
    expect(await first.stop()).toBe(0);
  });

  it('refuses a bad setting with a message naming the variable', async () => {
    const result = await runNode(path.join(ROOT, 'src/server.ts'), [], { PORT: 'eighty', FOLIO_DATA_DIR: await dataDir() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('PORT');
  });
});

describe('admin CLI', () => {
  it('works without a server, through a running server, and loses no write of either', async () => {
    const dir = await dataDir();
    // Offline: the CLI takes the data dir and edits the store itself.
    const offlineOrg = await admin(dir, 'org', 'create', 'offline-org', '--plan', 'pro', '--json');
    expect(offlineOrg.code).toBe(0);
    expect(JSON.parse(offlineOrg.stdout).org).toMatchObject({ name: 'offline-org', plan: 'pro' });
    const offlineKey = await admin(dir, 'key', 'create', '--org', 'offline-org', '--scopes', 'projects:read,projects:write', '--name', 'offline');
    expect(offlineKey.code).toBe(0);
    const key1 = offlineKey.stdout.trim().split('\n').at(-1)!;
    expect(key1).toMatch(new RegExp(`^${KEY_PATTERN.source}$`));

    // The data dir already has an org, so no default org or key is made.
    const server = await startServer({ dataDir: dir });
    expect(server.defaultKey).toBeUndefined();
    expect((await request(server.url, 'GET', '/v1/projects', { key: key1 })).status).toBe(200);

    // Online: the command goes to the server, and the new key works at once.
    const onlineOrg = await admin(dir, 'org', 'create', 'online-org');
    expect(onlineOrg.code).toBe(0);
    expect(onlineOrg.stdout).toContain('online-org');
    const onlineKey = await admin(dir, 'key', 'create', '--org', 'online-org', '--json');
    const created = JSON.parse(onlineKey.stdout);
    expect(created.key).toMatch(KEY_PATTERN);
    expect(created.api_key).not.toHaveProperty('hash');
    expect((await request(server.url, 'POST', '/v1/projects', { key: created.key, body: { name: 'Online', slug: uniqueSlug('on') } })).status).toBe(201);

    const listed = await admin(dir, 'key', 'list', '--json');
    const keys = JSON.parse(listed.stdout).keys;
    expect(keys).toHaveLength(2);
    expect(keys.find((k: { name: string }) => k.name === 'offline').last_used_at).not.toBeNull();
    expect(listed.stdout).not.toContain(key1);

    const table = await admin(dir, 'key', 'list', '--org', 'offline-org');
    expect(table.stdout).toContain(key1.slice(0, 12));
    expect(table.stdout).toContain('projects:read,projects:write');
    const everyKey = await admin(dir, 'key', 'list');
    expect(everyKey.stdout).toContain(created.key.slice(0, 12));
    for (const value of [key1, created.key]) expect(everyKey.stdout + table.stdout).not.toContain(value);

    const missing = await admin(dir, 'key', 'create', '--org', 'nobody');
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('"nobody" not found');
    expect(missing.stdout).toBe('');
    const duplicate = await admin(dir, 'org', 'create', 'online-org');
    expect(duplicate.code).not.toBe(0);
    expect(duplicate.stderr).toContain('already exists');

    expect(await server.stop()).toBe(0);

    // Offline again: everything written through the server is on disk.
    const orgs = JSON.parse((await admin(dir, 'org', 'list', '--json')).stdout).orgs.map((o: { name: string }) => o.name);
    expect(orgs.sort()).toEqual(['offline-org', 'online-org']);
    const revoke = await admin(dir, 'key', 'revoke', keys[0].id, '--json');
    expect(revoke.code).toBe(0);
    expect(JSON.parse(revoke.stdout).api_key.revoked_at).toMatch(/Z$/);

    const restarted = await startServer({ dataDir: dir });
    const revokedKey = keys[0].name === 'offline' ? key1 : created.key;
    expect((await request(restarted.url, 'GET', '/v1/projects', { key: revokedKey })).status).toBe(401);
    await restarted.stop();
  });

  it('rejects bad usage on stderr with a non-zero exit', async () => {
    const dir = await dataDir();
    for (const args of [['org', 'create'], ['org', 'create', 'x', '--plan', 'gold'], ['key', 'create', '--org', 'x', '--scopes', 'root'], ['frobnicate']]) {
      const res = await admin(dir, ...args);
      expect(res.code, args.join(' ')).not.toBe(0);
      expect(res.stderr).toMatch(/^error: /);
      expect(res.stdout).toBe('');
    }
  });
});
