// Unit tests of the two stores behind one interface: the JSON file (group commit, file mode) and
// PostgreSQL (constraints shared by several nodes); every behaviour of the interface runs on both.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { RecordShards } from '../../src/service/record-shards.ts';
import { MIGRATIONS } from '../../src/service/postgres/migrations.ts';
import { openPostgresStore } from '../../src/service/store/postgres/index.ts';
import { openStore, STORE_FILE } from '../../src/service/store/json/index.ts';
import type { ProjectRecord } from '../../src/service/store/records.ts';
import type { Store } from '../../src/service/store/store.ts';
import { createTestDatabase } from '../helpers/postgres.ts';
import { removeDir, tempDataDir } from '../helpers/server.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await removeDir(dir);
});

const project = (orgId: string, i: number, created_at = new Date(Date.UTC(2026, 0, 1, 0, 0, 0, i)).toISOString()): ProjectRecord => ({
  id: crypto.randomUUID(), org_id: orgId, name: `P${i}`, slug: `p-${i}`, status: 'pending', created_at,
});

/** A new store with one org, `org-1`, and a way to open the same data again. */
async function withOrg(open: () => Promise<Store>) {
  const store = await open();
  await store.createOrg({ id: 'org-1', name: 'one', plan: 'free', created_at: new Date().toISOString() });
  return { store, reopen: open };
}

async function storeWithOrg() {
  const dir = await tempDataDir();
  dirs.push(dir);
  return { dir, ...(await withOrg(() => openStore(dir))) };
}

const backends = [
  { name: 'JSON-file store', storeWithOrg },
  {
    name: 'PostgreSQL store',
    async storeWithOrg() {
      const url = await createTestDatabase(inject('postgresUrl'));
      return withOrg(() => openPostgresStore(url));
    },
  },
];

describe('JSON-file store', () => {
  it('acknowledges each of 300 concurrent writes only once it is in the file (mode 0600)', async () => {
    const { dir, store } = await storeWithOrg();
    const file = path.join(dir, STORE_FILE);
    const onDisk = async () => Object.keys(JSON.parse(await readFile(file, 'utf8')).projects).length;
    const seen: number[] = [];
    const writes = Array.from({ length: 300 }, (_, i) =>
      store.createProject(project('org-1', i)).then(async (p) => {
        // When a create resolves, its project is in the file.
        const text = await readFile(file, 'utf8');
        seen.push(text.includes(p.id) ? 1 : 0);
      }));
    await Promise.all(writes);
    expect(seen).toHaveLength(300);
    expect(seen.every((s) => s === 1)).toBe(true);
    expect(await onDisk()).toBe(300);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await store.close();
  });
});

describe.each(backends)('$name', (backend) => {
  it('keeps updates, deletions, plan changes, revocations and key use across a reopen', async () => {
    const opened = await backend.storeWithOrg();
    let store = opened.store;
    await store.createKey({
      id: 'key-1', org_id: 'org-1', name: '', prefix: 'folio_abcdef', hash: 'h'.repeat(64), scopes: ['projects:read'],
      created_at: new Date().toISOString(), last_used_at: null, revoked_at: null,
    });
    const a = await store.createProject(project('org-1', 1));
    const b = await store.createProject(project('org-1', 2));
    await store.updateProject(a.id, { name: 'Renamed', custom_domain: 'docs.example.com', custom_domain_status: 'verified', custom_domain_token: 't' });
    await store.deleteProject(b.id);
    await store.setOrgPlan('org-1', 'pro');
    store.touchKey('key-1', '2026-01-02T00:00:00.000Z');
    await store.close();

    store = await opened.reopen();
    expect(await store.getProject(a.id)).toMatchObject({ name: 'Renamed', custom_domain: 'docs.example.com' });
    expect(await store.getProject(b.id)).toBeUndefined();
    expect(await store.findProjectByDomain('docs.example.com')).toMatchObject({ id: a.id });
    expect(await store.findProjectBySlug('p-2')).toBeUndefined();
    expect((await store.getOrg('org-1'))?.plan).toBe('pro');
    expect((await store.findKeyByHash('h'.repeat(64)))?.last_used_at).toBe('2026-01-02T00:00:00.000Z');
    await store.revokeKey('key-1', '2026-01-03T00:00:00.000Z');
    await store.close();
    store = await opened.reopen();
    expect((await store.findKeyByHash('h'.repeat(64)))?.revoked_at).toBe('2026-01-03T00:00:00.000Z');
    await store.close();
  });

  it('lets several projects claim a domain until one verifies it; then it alone holds it', async () => {
    const { store } = await backend.storeWithOrg();
    const [a, b, c] = [await store.createProject(project('org-1', 1)), await store.createProject(project('org-1', 2)), await store.createProject(project('org-1', 3))];
    const claim = { custom_domain: 'docs.example.com', custom_domain_status: 'pending', custom_domain_token: 'x' } as const;
    await store.updateProject(a.id, { ...claim, custom_domain_token: 'a' });
    await store.updateProject(b.id, { ...claim, custom_domain_token: 'b' });
    expect(await store.findProjectByDomain('docs.example.com')).toBeUndefined();
    expect((await store.listProjectsWithDomain()).map((p) => p.id).sort()).toEqual([a.id, b.id].sort());

    expect(await store.recordDomainCheck(a.id, 'stale token', 'verified', '2026-01-01T00:00:00.000Z')).toBeUndefined();
    await store.recordDomainCheck(b.id, 'b', 'verified', '2026-01-01T00:00:00.000Z');
    expect((await store.findProjectByDomain('docs.example.com'))?.id).toBe(b.id);
    await expect(store.recordDomainCheck(a.id, 'a', 'verified', '2026-01-01T00:00:00.000Z')).rejects.toMatchObject({ code: 'domain_taken' });
    await expect(store.updateProject(c.id, claim)).rejects.toMatchObject({ code: 'domain_taken' });
    await store.updateProject(a.id, { name: 'Still claiming' }); // an old claim may stay
    expect((await store.getProject(a.id))?.custom_domain_status).toBe('pending');

    await store.updateProject(b.id, { custom_domain: null, custom_domain_status: null, custom_domain_token: null });
    expect(await store.findProjectByDomain('docs.example.com')).toBeUndefined();
    await store.recordDomainCheck(a.id, 'a', 'verified', '2026-01-01T00:00:00.000Z');
    expect((await store.findProjectByDomain('docs.example.com'))?.id).toBe(a.id);
    await store.deleteProject(a.id);
    expect(await store.findProjectByDomain('docs.example.com')).toBeUndefined();
    expect(await store.listProjectsWithDomain()).toEqual([]);
    await store.close();
  });

  it('lists an org newest first, resuming after a position, with ties broken by id', async () => {
    const { store } = await backend.storeWithOrg();
    const same = '2026-01-01T00:00:00.000Z';
    const created = [];
    for (let i = 0; i < 5; i++) created.push(await store.createProject(project('org-1', i, i < 2 ? same : undefined)));
    await store.createOrg({ id: 'org-2', name: 'two', plan: 'free', created_at: new Date().toISOString() });
    await store.createProject({ ...project('org-2', 99), slug: 'other-org' });
    const expected = [...created].sort((x, y) => (x.created_at === y.created_at ? (x.id < y.id ? 1 : -1) : x.created_at < y.created_at ? 1 : -1));
    const first = await store.listProjects('org-1', 2);
    expect(first.items.map((p) => p.id)).toEqual(expected.slice(0, 2).map((p) => p.id));
    expect(first.hasMore).toBe(true);
    const rest = await store.listProjects('org-1', 10, first.items[1]);
    expect(rest.items.map((p) => p.id)).toEqual(expected.slice(2).map((p) => p.id));
    expect(rest.hasMore).toBe(false);
    await store.close();
  });

  it('continuous deployment: replayed push ids, queues per branch, promotes, webhooks and their deliveries, across a reopen', async () => {
    const opened = await backend.storeWithOrg();
    let store = opened.store;
    const p = await store.createProject(project('org-1', 1));
    expect(await store.rememberHookDelivery(p.id, 'd-1')).toBe(true);
    expect(await store.rememberHookDelivery(p.id, 'd-1')).toBe(false);
    expect(await store.rememberHookDelivery(p.id, 'd-2')).toBe(true);
    await expect(store.rememberHookDelivery(crypto.randomUUID(), 'd-1')).rejects.toMatchObject({ code: 'not_found' });
    const queued = (branch?: string) => ({
      id: crypto.randomUUID(), project_id: p.id, status: 'queued' as const, trigger: 'push' as const, created_at: new Date().toISOString(),
      ...(branch ? { branch, preview_label: branch } : {}),
    });
    // Production and each preview branch coalesce apart.
    const production = await store.queueDeployment(queued());
    const preview = await store.queueDeployment(queued('fix-typo'));
    expect(preview.created).toBe(true);
    expect((await store.queueDeployment(queued('fix-typo'))).deployment.id).toBe(preview.deployment.id);
    expect((await store.queueDeployment(queued())).deployment.id).toBe(production.deployment.id);
    const promoted = await store.addDeployment({
      id: crypto.randomUUID(), project_id: p.id, status: 'succeeded', trigger: 'promote', created_at: new Date().toISOString(), promoted_from: production.deployment.id,
    });
    const webhook = await store.createWebhook({ id: crypto.randomUUID(), project_id: p.id, url: 'https://example.com/x', events: ['deployment.failed'], secret: 's', created_at: new Date().toISOString() });
    const delivery = await store.createDelivery({
      id: crypto.randomUUID(), webhook_id: webhook.id, project_id: p.id, event: 'deployment.failed', body: '{}', status: 'pending', attempts: 0,
      created_at: new Date().toISOString(), next_attempt_at: new Date().toISOString(),
    });
    await store.updateDelivery(delivery.id, { attempts: 1, response_code: 500, last_error: 'answered 500', next_attempt_at: '2026-01-01T00:00:02.000Z' });
    await store.close();

    store = await opened.reopen();
    expect(await store.rememberHookDelivery(p.id, 'd-2')).toBe(false);
    expect((await store.getDeployment(preview.deployment.id))).toMatchObject({ branch: 'fix-typo', preview_label: 'fix-typo' });
    expect(await store.getDeployment(promoted.id)).toMatchObject({ trigger: 'promote', promoted_from: production.deployment.id });
    expect((await store.listWebhooks(p.id)).map((w) => [w.id, w.events])).toEqual([[webhook.id, ['deployment.failed']]]);
    expect(await store.pendingDeliveries()).toEqual([expect.objectContaining({ id: delivery.id, attempts: 1, response_code: 500, next_attempt_at: '2026-01-01T00:00:02.000Z' })]);
    await store.updateDelivery(delivery.id, { status: 'succeeded', attempts: 2, response_code: 200, next_attempt_at: undefined, last_error: undefined });
    const [done] = (await store.listDeliveries(webhook.id, 10)).items;
    expect(done).toMatchObject({ status: 'succeeded', attempts: 2, response_code: 200 });
    expect(done.next_attempt_at).toBeUndefined();
    expect(await store.pendingDeliveries()).toEqual([]);
    await store.deleteWebhook(webhook.id);
    expect(await store.listDeliveries(webhook.id, 10)).toEqual({ items: [], hasMore: false });
    await store.close();
  });

  it('build queue: claims oldest first, one building per project, leases renewed by their owner and taken over once expired', async () => {
    const { store } = await backend.storeWithOrg();
    const [p1, p2] = [await store.createProject(project('org-1', 1)), await store.createProject(project('org-1', 2))];
    const at = (ms: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, ms)).toISOString();
    const queue = async (projectId: string, ms: number, branch?: string) => (await store.queueDeployment({
      id: crypto.randomUUID(), project_id: projectId, status: 'queued', trigger: 'manual', created_at: at(ms), ...(branch ? { branch, preview_label: branch } : {}),
    })).deployment;
    const first = await queue(p1.id, 1);
    const preview = await queue(p1.id, 2, 'fix');
    const other = await queue(p2.id, 3);

    const claimed = await store.claimDeployment('worker-a', 60_000);
    expect(claimed).toMatchObject({ id: first.id, status: 'building' });
    expect(claimed!.started_at).toBeDefined();
    expect(Object.keys(claimed!)).not.toContain('lease_owner'); // the lease is never part of the record
    expect((await store.getProject(p1.id))!.status).toBe('building');
    // p1 is building: its preview waits, p2's deployment goes next, then nothing.
    expect((await store.claimDeployment('worker-b', 60_000))!.id).toBe(other.id);
    expect(await store.claimDeployment('worker-b', 60_000)).toBeUndefined();
    expect((await store.getDeployment(preview.id))!.status).toBe('queued');

    expect(await store.renewDeploymentLease(first.id, 'worker-a', 60_000)).toBe(true);
    expect(await store.renewDeploymentLease(first.id, 'worker-b', 60_000)).toBe(false);
    expect(await store.takeExpiredLeases('sweeper', 60_000)).toEqual([]);

    // A lease of 1 ms runs out at once: the sweeper takes it, and the old owner can no longer renew.
    expect(await store.renewDeploymentLease(other.id, 'worker-b', 1)).toBe(true);
    let expired = await store.takeExpiredLeases('sweeper', 60_000);
    // Awaited, not slept: the lease has run out once the sweeper sees it run out (a few ms at most).
    for (const deadline = Date.now() + 5_000; expired.length === 0 && Date.now() < deadline;) expired = await store.takeExpiredLeases('sweeper', 60_000);
    expect(expired.map((d) => d.id)).toEqual([other.id]);
    expect(await store.renewDeploymentLease(other.id, 'worker-b', 60_000)).toBe(false);
    expect(await store.takeExpiredLeases('another sweeper', 60_000)).toEqual([]);

    // Once p1's build has ended, its preview can start.
    await store.updateDeployment(first.id, { status: 'succeeded', finished_at: new Date().toISOString(), page_count: 3, warnings: 2 });
    expect(await store.getDeployment(first.id)).toMatchObject({ page_count: 3, warnings: 2 });
    expect(await store.renewDeploymentLease(first.id, 'worker-a', 60_000)).toBe(false);
    expect((await store.claimDeployment('worker-a', 60_000))!.id).toBe(preview.id);
    await store.close();
  });

  it('fair build queue: organizations take turns, and none builds more than its limit at a time', async () => {
    const { store } = await backend.storeWithOrg();
    for (const id of ['org-2', 'org-3']) await store.createOrg({ id, name: id, plan: 'free', created_at: new Date().toISOString() });
    const at = (ms: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, ms)).toISOString();
    const queueIn = async (orgId: string, i: number) => {
      const p = await store.createProject(project(orgId, i));
      return (await store.queueDeployment({ id: crypto.randomUUID(), project_id: p.id, status: 'queued', trigger: 'manual', created_at: at(i) })).deployment;
    };
    // org-1 queued a backlog of four first; org-2 and org-3 one each, later.
    const backlog = [await queueIn('org-1', 1), await queueIn('org-1', 2), await queueIn('org-1', 3), await queueIn('org-1', 4)];
    const [second, third] = [await queueIn('org-2', 10), await queueIn('org-3', 11)];
    // One slot, each build ending before the next claim: org-1's oldest, then the others' turns.
    const order: string[] = [];
    for (let d; (d = await store.claimDeployment('worker-a', 60_000)); ) {
      order.push(d.id);
      await store.updateDeployment(d.id, { status: 'succeeded', finished_at: new Date().toISOString() });
    }
    expect(order).toEqual([backlog[0].id, second.id, third.id, ...backlog.slice(1).map((d) => d.id)]);

    // At most two of an org at a time: org-1's third waits (org-2, served longer ago, goes first).
    const other = await queueIn('org-2', 19);
    const more = [await queueIn('org-1', 20), await queueIn('org-1', 21), await queueIn('org-1', 22)];
    const claims = [];
    for (let i = 0; i < 4; i++) claims.push((await store.claimDeployment(`worker-${i}`, 60_000, 2))?.id);
    expect(claims).toEqual([other.id, more[0].id, more[1].id, undefined]);
    expect((await store.getDeployment(more[2].id))!.status).toBe('queued');
    await store.updateDeployment(more[0].id, { status: 'succeeded', finished_at: new Date().toISOString() });
    expect((await store.claimDeployment('worker-a', 60_000, 2))!.id).toBe(more[2].id);
    await store.close();
  });
});

describe('PostgreSQL store shared by several nodes', () => {
  it('migrates once when nodes start together, and lets exactly one of 40 racing creates take a slug', async () => {
    const url = await createTestDatabase(inject('postgresUrl'));
    const nodes = await Promise.all([openPostgresStore(url), openPostgresStore(url), openPostgresStore(url)]);
    await nodes[0].createOrg({ id: 'org-1', name: 'one', plan: 'free', created_at: new Date().toISOString() });
    const results = await Promise.allSettled(Array.from({ length: 40 }, (_, i) =>
      nodes[i % nodes.length].createProject({ ...project('org-1', i), slug: 'contested' })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused.every((r) => r.reason.code === 'slug_taken')).toBe(true);
    const applied = await nodes[1].pool.query('SELECT version FROM folio_migrations ORDER BY version');
    expect(applied.rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    await Promise.all(nodes.map((n) => n.close()));
  });

  it('coalesces racing deployment triggers from several nodes into one queued deployment', async () => {
    const url = await createTestDatabase(inject('postgresUrl'));
    const [a, b] = await Promise.all([openPostgresStore(url), openPostgresStore(url)]);
    await a.createOrg({ id: 'org-1', name: 'one', plan: 'free', created_at: new Date().toISOString() });
    const p = await a.createProject(project('org-1', 1));
    const triggers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).queueDeployment({
      id: crypto.randomUUID(), project_id: p.id, status: 'queued', trigger: 'manual', created_at: new Date().toISOString(),
    })));
    expect(triggers.filter((t) => t.created)).toHaveLength(1);
    expect(new Set(triggers.map((t) => t.deployment.id)).size).toBe(1);
    await expect(a.queueDeployment({ id: 'x', project_id: 'gone', status: 'queued', trigger: 'manual', created_at: new Date().toISOString() }))
      .rejects.toMatchObject({ code: 'not_found' });
    await Promise.all([a.close(), b.close()]);
  });

  it('gives racing workers on several nodes each a different deployment, never two of one project, and tells listeners of new work', async () => {
    const url = await createTestDatabase(inject('postgresUrl'));
    const nodes = await Promise.all([openPostgresStore(url), openPostgresStore(url), openPostgresStore(url)]);
    await nodes[0].createOrg({ id: 'org-1', name: 'one', plan: 'free', created_at: new Date().toISOString() });
    let heard = 0;
    const unwatch = nodes[2].watchQueue(() => heard++);
    const projects = [];
    for (let i = 0; i < 6; i++) projects.push(await nodes[0].createProject(project('org-1', i)));
    // Each project has a production and a preview deployment queued: 12 in all, 6 can build at once.
    for (const p of projects) {
      for (const branch of [undefined, 'preview']) {
        await nodes[0].queueDeployment({
          id: crypto.randomUUID(), project_id: p.id, status: 'queued', trigger: 'manual', created_at: new Date().toISOString(), ...(branch ? { branch, preview_label: branch } : {}),
        });
      }
    }
    const claims = await Promise.all(Array.from({ length: 12 }, (_, i) => nodes[i % 3].claimDeployment(`worker-${i}`, 60_000)));
    const claimed = claims.filter((d) => d !== undefined);
    expect(claimed).toHaveLength(6);
    expect(new Set(claimed.map((d) => d.project_id)).size).toBe(6);
    // The listener on the third node heard of the queue changing (a notification, or its first connection).
    await expect.poll(() => heard).toBeGreaterThan(0);
    unwatch();
    await Promise.all(nodes.map((n) => n.close()));
  });

  it('holds the limit of builds per organization when workers on several nodes claim at once', async () => {
    const url = await createTestDatabase(inject('postgresUrl'));
    const nodes = await Promise.all([openPostgresStore(url), openPostgresStore(url), openPostgresStore(url)]);
    await nodes[0].createOrg({ id: 'org-1', name: 'one', plan: 'free', created_at: new Date().toISOString() });
    await nodes[0].createOrg({ id: 'org-2', name: 'two', plan: 'free', created_at: new Date().toISOString() });
    for (let i = 0; i < 8; i++) {
      const p = await nodes[0].createProject(project(i < 6 ? 'org-1' : 'org-2', i));
      await nodes[0].queueDeployment({ id: crypto.randomUUID(), project_id: p.id, status: 'queued', trigger: 'manual', created_at: new Date().toISOString() });
    }
    const claims = await Promise.all(Array.from({ length: 12 }, (_, i) => nodes[i % 3].claimDeployment(`worker-${i}`, 60_000, 2)));
    const orgOf = new Map((await nodes[0].listProjects('org-1', 100)).items.map((p) => [p.id, 'org-1']));
    const claimed = claims.filter((d) => d !== undefined).map((d) => orgOf.get(d.project_id) ?? 'org-2');
    expect(claimed.sort()).toEqual(['org-1', 'org-1', 'org-2', 'org-2']);
    await Promise.all(nodes.map((n) => n.close()));
  });

  it('tells listeners only of real queue changes: a claim that finds nothing wakes no node', async () => {
    const url = await createTestDatabase(inject('postgresUrl'));
    const store = await openPostgresStore(url);
    await store.createOrg({ id: 'org-1', name: 'one', plan: 'free', created_at: new Date().toISOString() });
    const p = await store.createProject(project('org-1', 1));
    const listener = new pg.Client({ connectionString: url });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (n) => heard.push(n.payload ?? ''));
    await listener.query('LISTEN folio_queue');
    expect(await store.claimDeployment('worker-a', 60_000)).toBeUndefined();
    await store.queueDeployment({ id: crypto.randomUUID(), project_id: p.id, status: 'queued', trigger: 'manual', created_at: new Date().toISOString() });
    // Notifications arrive in commit order, so once this marker is heard every earlier one has been.
    await store.pool.query("NOTIFY folio_queue, 'marker'");
    await expect.poll(() => heard.includes('marker')).toBe(true);
    expect(heard).toEqual(['', 'marker']); // the queued deployment only
    await listener.end();
    await store.close();
  });
});

describe('incremental JSON of records', () => {
  it('always equals JSON.stringify of the map through adds, changes and removals', () => {
    const shards = new RecordShards();
    const records: Record<string, { n: number }> = {};
    let next = 0;
    for (let round = 0; round < 2000; round++) {
      const ids = Object.keys(records);
      const op = round % 7;
      if (op < 4 || ids.length === 0) {
        const id = `id-${next++}`;
        records[id] = { n: round };
        shards.added(id);
      } else if (op < 6) {
        const id = ids[(round * 31) % ids.length];
        records[id].n = -round;
        shards.changed(id);
      } else {
        const id = ids[(round * 17) % ids.length];
        delete records[id];
        shards.removed(id);
      }
      if (round % 97 === 0) expect(JSON.parse(shards.serialize(records))).toEqual(records);
    }
    expect(JSON.parse(shards.serialize(records))).toEqual(records);
  });
});
