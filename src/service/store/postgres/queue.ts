// The PostgreSQL store: the build queue (claims and leases), shared by every node.
import type pg from 'pg';
import { nextTurn, type OrgTurn } from '../../deployments/fair-queue.ts';
import type { DeploymentRecord } from '../records.ts';
import type { QueueStore } from '../store.ts';
import { deploymentOf, pgError, QUEUE_LOCK, UNIQUE_VIOLATION, type PostgresDatabase, type Row } from './database.ts';

export function postgresQueue(db: PostgresDatabase): QueueStore {
  return {
    // The job queue (docs/decisions.md#job-queue-and-node-roles, #fair-build-queue): claims take
    // turns on a transaction-scoped advisory lock, so each one sees every claim before it and the
    // limit of builds per organization holds over all nodes (SKIP LOCKED alone let two nodes each
    // count one fewer). One row per organization with a deployment that can start (its project has
    // none building) goes to nextTurn, written once for both stores; its pick becomes building. The
    // unique index deployments_one_building stays the last guard of one build per project.
    async claimDeployment(owner: string, leaseMs: number, buildsPerOrg = 0): Promise<DeploymentRecord | undefined> {
      for (let attempt = 0; ; attempt++) {
        try {
          const claimed = await db.transaction(async (client) => {
            await client.query('SELECT pg_advisory_xact_lock($1)', [QUEUE_LOCK]);
            const { rows: turns } = await client.query<Omit<OrgTurn, 'last_started_at'> & { last_started_at: string | null }>(
              `WITH ready AS (
                 SELECT DISTINCT ON (p.org_id) p.org_id, d.id AS deployment_id, d.created_at
                 FROM deployments d JOIN projects p ON p.id = d.project_id
                 WHERE d.status = 'queued'
                   AND NOT EXISTS (SELECT 1 FROM deployments b WHERE b.project_id = d.project_id AND b.status = 'building')
                 ORDER BY p.org_id, d.created_at, d.id)
               SELECT r.*, t.last_started_at,
                 (SELECT count(*)::int FROM deployments b JOIN projects bp ON bp.id = b.project_id
                  WHERE b.status = 'building' AND bp.org_id = r.org_id) AS building
               FROM ready r LEFT JOIN build_turns t ON t.org_id = r.org_id`,
            );
            const chosen = nextTurn(turns.map(({ last_started_at, ...t }) => (last_started_at === null ? t : { ...t, last_started_at })), buildsPerOrg);
            if (!chosen) return undefined;
            const startedAt = new Date().toISOString();
            const { rows } = await client.query(
              `UPDATE deployments SET status = 'building', started_at = $3, lease_owner = $1,
                 lease_expires_at = now() + make_interval(secs => $2::double precision / 1000)
               WHERE id = $4 AND status = 'queued'
               RETURNING *`,
              [owner, leaseMs, startedAt, chosen.deployment_id],
            );
            const row = rows[0] as Row | undefined;
            if (!row) return null; // canceled or deleted since the read (no lock on the row): pick again
            await client.query(
              `INSERT INTO build_turns (org_id, last_started_at) VALUES ($1, $2)
               ON CONFLICT (org_id) DO UPDATE SET last_started_at = EXCLUDED.last_started_at`,
              [chosen.org_id, startedAt],
            );
            // In the same transaction: a client never sees the deployment building and its project not.
            if (row.preview_label === null) await client.query("UPDATE projects SET status = 'building' WHERE id = $1", [row.project_id]);
            return deploymentOf(row);
          });
          if (claimed !== null || attempt >= 5) return claimed ?? undefined;
        } catch (err) {
          const { code, constraint } = pgError(err);
          if (code !== UNIQUE_VIOLATION || constraint !== 'deployments_one_building' || attempt >= 5) throw err;
        }
      }
    },

    async renewDeploymentLease(id: string, owner: string, leaseMs: number): Promise<boolean> {
      const rows = await db.query(
        `UPDATE deployments SET lease_expires_at = now() + make_interval(secs => $3::double precision / 1000)
         WHERE id = $1 AND status = 'building' AND lease_owner = $2 RETURNING id`,
        [id, owner, leaseMs], 'renew_lease');
      return rows.length > 0;
    },

    async takeExpiredLeases(owner: string, leaseMs: number): Promise<DeploymentRecord[]> {
      // A deployment without a lease was left building by a Folio before leases (or imported).
      const rows = await db.query(
        `UPDATE deployments SET lease_owner = $1, lease_expires_at = now() + make_interval(secs => $2::double precision / 1000)
         WHERE id IN (
           SELECT id FROM deployments
           WHERE status = 'building' AND (lease_expires_at IS NULL OR lease_expires_at < now())
           FOR UPDATE SKIP LOCKED)
         RETURNING *`,
        [owner, leaseMs], 'take_expired_leases');
      return rows.map(deploymentOf);
    },

    watchQueue(listener: () => void): () => void {
      let stopped = false;
      let retry: NodeJS.Timeout | undefined;
      let dropCurrent: (() => void) | undefined;
      // One connection of the pool stays checked out for LISTEN. A lost connection is replaced after
      // a second; the listener is told, since notifications may have been missed meanwhile.
      const listen = async () => {
        retry = undefined;
        let c: pg.PoolClient;
        try {
          c = await db.pool.connect();
        } catch {
          if (!stopped) retry = setTimeout(() => void listen(), 1_000);
          return;
        }
        let released = false;
        const drop = (err?: Error) => {
          if (released) return;
          released = true;
          dropCurrent = undefined;
          c.release(err ?? true);
          if (!stopped) retry = setTimeout(() => void listen(), 1_000);
        };
        dropCurrent = drop;
        c.on('notification', () => listener());
        c.on('error', (err) => drop(err));
        c.on('end', () => drop());
        try {
          await c.query('LISTEN folio_queue');
        } catch (err) {
          return drop(err as Error);
        }
        if (stopped) return drop();
        listener();
      };
      void listen();
      return () => {
        stopped = true;
        clearTimeout(retry);
        dropCurrent?.();
      };
    },
  };
}
