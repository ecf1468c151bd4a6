// Builds in object storage, live pointers in PostgreSQL (docs/decisions.md#object-storage): a
// build is uploaded (files, then its manifest) before it is marked live; marking it live is one
// statement that updates `live_builds` and NOTIFYs channel `folio_live` with the project id, so
// every node drops what it knew of that project's live build at once and reads it again on the
// next request. Each node LISTENs on its own connection; while that connection is down it cannot
// hear, so on every (re)connect it forgets every live build it knew.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { contentTypeOf } from './build-files.ts';
import { pruneBuilds } from './disk.ts';
import type { BuildStorage } from './storage.ts';
import { buildDir } from '../project-files.ts';
import type { Store } from '../store/store.ts';
import { createFileCache } from '../object-storage/cache.ts';
import type { ObjectStore } from '../object-storage/client.ts';
import { encodeManifest, uploadFolder } from '../object-storage/folders.ts';
import { createObjectLogs } from '../object-storage/logs.ts';
import { buildFileKey, buildPrefix, buildsPrefix, manifestKey, projectPrefix, snapshotPrefix, snapshotsPrefix } from '../object-storage/keys.ts';

export const LIVE_CHANNEL = 'folio_live';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const RECONNECT_MS = 1_000;

export interface ObjectBuildStorageOptions {
  dataDir: string;
  objects: ObjectStore;
  store: Store;
  /** The store's pool: live pointers are written and read with it. */
  pool: pg.Pool;
  /** For the LISTEN connection, which must be a connection of its own. */
  databaseUrl: string;
  /** Bytes of object storage's files kept on this node's disk. */
  cacheBytes: number;
}

/** Where each node keeps its copies of object storage's files (emptied at start). */
export const cacheDir = (dataDir: string) => path.join(dataDir, 'object-cache');

export async function openObjectBuildStorage(options: ObjectBuildStorageOptions): Promise<BuildStorage> {
  const { dataDir, objects, store, pool, databaseUrl } = options;
  await objects.check();
  const listeners: ((projectId?: string) => void)[] = [];
  const tell = (projectId?: string) => listeners.forEach((listener) => listener(projectId));

  let listener: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const listen = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: databaseUrl });
    client.on('notification', (message) => {
      if (message.channel === LIVE_CHANNEL && message.payload && UUID.test(message.payload)) tell(message.payload);
    });
    client.on('error', () => {}); // followed by `end`
    client.on('end', () => {
      if (listener === client) listener = undefined;
      if (closed) return;
      tell(); // changes made while not listening are not heard: forget every live build
      retry = setTimeout(() => void listen().catch(() => {}), RECONNECT_MS);
    });
    await client.connect();
    await client.query(`LISTEN ${LIVE_CHANNEL}`);
    listener = client;
    tell();
  };
  await listen();

  const cache = await createFileCache(cacheDir(dataDir), options.cacheBytes);

  const liveBuildId = async (projectId: string, label = '') => {
    const { rows } = await pool.query<{ build_id: string }>('SELECT build_id FROM live_builds WHERE project_id = $1 AND label = $2', [projectId, label]);
    return rows[0]?.build_id;
  };
  /** Runs a change of live pointers and announces it in the same statement. */
  const changeLive = async (projectId: string, sql: string, values: unknown[]) => {
    await pool.query(`WITH changed AS (${sql} RETURNING project_id) SELECT pg_notify('${LIVE_CHANNEL}', $1) FROM (SELECT 1) AS one`, [projectId, ...values]);
  };

  return {
    kind: 'object',
    async keep(projectId, buildId) {
      const dir = buildDir(dataDir, projectId, buildId);
      const manifest = await uploadFolder(objects, dir, (rel) => buildFileKey(projectId, buildId, rel), contentTypeOf);
      // Last: a build whose manifest is there has every file there.
      await objects.put(manifestKey(projectId, buildId), encodeManifest(manifest), { contentType: 'application/json' });
      await rm(dir, { recursive: true, force: true });
    },
    async publish(projectId, buildId, label = '') {
      await changeLive(
        projectId,
        `INSERT INTO live_builds (project_id, label, build_id, published_at) VALUES ($1, $2, $3, now())
         ON CONFLICT (project_id, label) DO UPDATE SET build_id = EXCLUDED.build_id, published_at = EXCLUDED.published_at`,
        [label, buildId],
      );
    },
    async keepSnapshot(projectId, deploymentId, dir) {
      const manifest = await uploadFolder(objects, dir, (rel) => `${snapshotPrefix(projectId, deploymentId)}files/${rel}`);
      await objects.put(`${snapshotPrefix(projectId, deploymentId)}manifest.json`, encodeManifest(manifest), { contentType: 'application/json' });
    },
    hasBuild: (projectId, buildId) => objects.exists(manifestKey(projectId, buildId)),
    async liveBuilds(projectId) {
      const { rows } = await pool.query<{ label: string; build_id: string }>('SELECT label, build_id FROM live_builds WHERE project_id = $1', [projectId]);
      const previews = new Map(rows.filter((r) => r.label !== '').map((r) => [r.label, r.build_id]));
      return { live: rows.find((r) => r.label === '')?.build_id, previews };
    },
    async prune(projectId, keep) {
      // A build another node is making now is not among the kept ones yet: it stays too.
      const building = (await store.deploymentsWithStatus('building')).filter((d) => d.project_id === projectId).map((d) => d.id);
      const kept = new Set([...keep, ...building]);
      // A deployment's snapshot goes with its build (or, for a failed one, with the next prune).
      for (const [prefix, remove] of [
        [buildsPrefix(projectId), (id: string) => objects.removeAll(buildPrefix(projectId, id))],
        [snapshotsPrefix(projectId), (id: string) => objects.removeAll(snapshotPrefix(projectId, id))],
      ] as const) {
        const ids = new Set<string>();
        for await (const key of objects.list(prefix)) {
          const id = key.slice(prefix.length).split('/')[0];
          if (UUID.test(id)) ids.add(id);
        }
        for (const id of ids) if (!kept.has(id)) await remove(id);
      }
      await pruneBuilds(dataDir, projectId, kept); // unfinished local leftovers
    },
    async removePreview(projectId, label) {
      await changeLive(projectId, 'DELETE FROM live_builds WHERE project_id = $1 AND label = $2', [label]);
    },
    async stalePreviews(before) {
      const { rows } = await pool.query<{ project_id: string; label: string }>(
        "SELECT project_id, label FROM live_builds WHERE label <> '' AND published_at < $1",
        [new Date(before)],
      );
      return rows.map((r) => ({ projectId: r.project_id, label: r.label }));
    },
    async removeProject(projectId) {
      // Its live pointers went with its row (ON DELETE CASCADE); other nodes forget them now.
      await pool.query(`SELECT pg_notify('${LIVE_CHANNEL}', $1)`, [projectId]);
      await objects.removeAll(projectPrefix(projectId));
    },
    onLiveChange(listen) {
      listeners.push(listen);
    },
    serving: { kind: 'object', objects, cache, liveBuildId },
    logs: createObjectLogs(dataDir, objects),
    async close() {
      closed = true;
      clearTimeout(retry);
      await listener?.end().catch(() => {});
      objects.close();
    },
  };
}
