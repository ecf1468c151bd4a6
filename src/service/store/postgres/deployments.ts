// The PostgreSQL store: deployments.
import { FolioError } from '../../errors.ts';
import type { DeploymentChanges, DeploymentRecord, DeploymentStatus, ListPosition, ListSlice } from '../records.ts';
import type { DeploymentStore } from '../store.ts';
import { DEPLOYMENT_FIELDS, deploymentOf, FOREIGN_KEY_VIOLATION, newestFirst, pgError, type PostgresDatabase, type Row } from './database.ts';

export function postgresDeployments(db: PostgresDatabase): DeploymentStore {
  return {
    async queueDeployment(deployment: DeploymentRecord): Promise<{ deployment: DeploymentRecord; created: boolean }> {
      // The partial unique index allows one queued deployment per project: a second trigger's
      // insert does nothing and gets the queued one. Retried when that one left the queue meanwhile.
      for (;;) {
        let rows: Row[];
        try {
          rows = await db.query(
            `INSERT INTO deployments (id, project_id, status, trigger, created_at, source_branch, commit_sha, branch, preview_label, full_build)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
             ON CONFLICT (project_id, (COALESCE(branch, ''))) WHERE status = 'queued' DO NOTHING RETURNING *`,
            [deployment.id, deployment.project_id, deployment.status, deployment.trigger, deployment.created_at,
              deployment.source_branch ?? null, deployment.commit_sha ?? null, deployment.branch ?? null, deployment.preview_label ?? null, deployment.full_build ?? null],
          );
        } catch (err) {
          if (pgError(err).code === FOREIGN_KEY_VIOLATION) throw new FolioError('not_found', `project ${deployment.project_id} not found`);
          throw err;
        }
        if (rows[0]) return { deployment: deploymentOf(rows[0]), created: true };
        const queued = await db.query(
          "SELECT * FROM deployments WHERE project_id = $1 AND status = 'queued' AND COALESCE(branch, '') = $2",
          [deployment.project_id, deployment.branch ?? ''],
        );
        if (queued[0]) return { deployment: deploymentOf(queued[0]), created: false };
      }
    },

    async addDeployment(deployment: DeploymentRecord): Promise<DeploymentRecord> {
      const { error, ...fields } = deployment;
      const row: Row = { ...fields, error_code: error?.code, error_message: error?.message };
      const columns = Object.keys(row).filter((c) => row[c] !== undefined);
      try {
        const rows = await db.query(
          `INSERT INTO deployments (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING *`,
          columns.map((c) => row[c]),
        );
        return deploymentOf(rows[0]);
      } catch (err) {
        if (pgError(err).code === FOREIGN_KEY_VIOLATION) throw new FolioError('not_found', `project ${deployment.project_id} not found`);
        throw err;
      }
    },

    async getDeployment(id: string): Promise<DeploymentRecord | undefined> {
      const rows = await db.query('SELECT * FROM deployments WHERE id = $1', [id], 'get_deployment');
      return rows[0] && deploymentOf(rows[0]);
    },

    async listDeployments(projectId: string, limit: number, after?: ListPosition): Promise<ListSlice<DeploymentRecord>> {
      return newestFirst(db, { table: 'deployments', owner: 'project_id', statement: 'list_deployments' }, projectId, limit, after, deploymentOf);
    },

    async deploymentsWithStatus(status: DeploymentStatus): Promise<DeploymentRecord[]> {
      return (await db.query('SELECT * FROM deployments WHERE status = $1 ORDER BY created_at, id', [status])).map(deploymentOf);
    },

    async updateDeployment(id: string, changes: DeploymentChanges): Promise<DeploymentRecord> {
      const set: string[] = [];
      const values: unknown[] = [id];
      for (const field of DEPLOYMENT_FIELDS) {
        if (changes[field] === undefined) continue;
        values.push(changes[field]);
        set.push(`${field} = $${values.length}`);
      }
      if (changes.error !== undefined) {
        values.push(changes.error.code, changes.error.message);
        set.push(`error_code = $${values.length - 1}`, `error_message = $${values.length}`);
      }
      const rows = set.length === 0
        ? await db.query('SELECT * FROM deployments WHERE id = $1', values)
        : await db.query(`UPDATE deployments SET ${set.join(', ')} WHERE id = $1 RETURNING *`, values);
      if (!rows[0]) throw new FolioError('not_found', `deployment ${id} not found`);
      return deploymentOf(rows[0]);
    },
  };
}
