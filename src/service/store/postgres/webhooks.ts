// The PostgreSQL store: continuous deployment's webhooks, their deliveries and remembered push deliveries.
import { FolioError } from '../../errors.ts';
import type { DeliveryChanges, DeliveryRecord, ListPosition, ListSlice, WebhookRecord } from '../records.ts';
import { DELIVERIES_KEPT, HOOK_DELIVERIES_KEPT, type ProjectStore, type WebhookStore } from '../store.ts';
import { FOREIGN_KEY_VIOLATION, newestFirst, pgError, withoutNulls, type PostgresDatabase, type Row } from './database.ts';

export function postgresWebhooks(db: PostgresDatabase, projects: Pick<ProjectStore, 'getProject'>): WebhookStore {
  return {
    // Continuous deployment (docs/decisions.md#continuous-deployment).

    async rememberHookDelivery(projectId: string, deliveryId: string): Promise<boolean> {
      // One statement: the row lock makes the check and the append atomic across nodes.
      const rows = await db.query(
        `UPDATE projects SET hook_deliveries = (COALESCE(hook_deliveries, '{}') || $2::text)[greatest(1, cardinality(COALESCE(hook_deliveries, '{}')) + 2 - $3):]
         WHERE id = $1 AND NOT ($2 = ANY (COALESCE(hook_deliveries, '{}'))) RETURNING id`,
        [projectId, deliveryId, HOOK_DELIVERIES_KEPT],
      );
      if (rows[0]) return true;
      if (!(await projects.getProject(projectId))) throw new FolioError('not_found', `project ${projectId} not found`);
      return false;
    },

    async createWebhook(webhook: WebhookRecord): Promise<WebhookRecord> {
      try {
        const rows = await db.query(
          'INSERT INTO webhooks (id, project_id, url, events, secret, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *',
          [webhook.id, webhook.project_id, webhook.url, webhook.events, webhook.secret, webhook.created_at],
        );
        return rows[0] as unknown as WebhookRecord;
      } catch (err) {
        if (pgError(err).code === FOREIGN_KEY_VIOLATION) throw new FolioError('not_found', `project ${webhook.project_id} not found`);
        throw err;
      }
    },

    async getWebhook(id: string): Promise<WebhookRecord | undefined> {
      const rows = await db.query('SELECT * FROM webhooks WHERE id = $1', [id]);
      return rows[0] as unknown as WebhookRecord | undefined;
    },

    async listWebhooks(projectId: string): Promise<WebhookRecord[]> {
      return (await db.query('SELECT * FROM webhooks WHERE project_id = $1 ORDER BY created_at, id', [projectId])) as unknown as WebhookRecord[];
    },

    async deleteWebhook(id: string): Promise<void> {
      const rows = await db.query('DELETE FROM webhooks WHERE id = $1 RETURNING id', [id]);
      if (!rows[0]) throw new FolioError('not_found', `webhook ${id} not found`);
    },

    async createDelivery(delivery: DeliveryRecord): Promise<DeliveryRecord> {
      const columns = Object.keys(delivery).filter((c) => (delivery as unknown as Row)[c] !== undefined);
      try {
        return await db.transaction(async (client) => {
          const rows = await client.query(
            `INSERT INTO webhook_deliveries (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING *`,
            columns.map((c) => (delivery as unknown as Row)[c]),
          );
          // Bounded history: the oldest finished deliveries of the webhook go first.
          await client.query(
            `DELETE FROM webhook_deliveries WHERE id IN (
               SELECT id FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2
             ) AND status <> 'pending'`,
            [delivery.webhook_id, DELIVERIES_KEPT],
          );
          return withoutNulls<DeliveryRecord>(rows.rows[0]);
        });
      } catch (err) {
        if (pgError(err).code === FOREIGN_KEY_VIOLATION) throw new FolioError('not_found', `webhook ${delivery.webhook_id} not found`);
        throw err;
      }
    },

    async updateDelivery(id: string, changes: DeliveryChanges): Promise<DeliveryRecord | undefined> {
      // Every field given is written; one given as undefined is cleared (next_attempt_at once sent).
      const fields = ['status', 'attempts', 'next_attempt_at', 'last_attempt_at', 'response_code', 'last_error'] as const;
      const set = fields.filter((f) => f in changes);
      if (set.length === 0) return (await db.query('SELECT * FROM webhook_deliveries WHERE id = $1', [id])).map((r) => withoutNulls<DeliveryRecord>(r))[0];
      const rows = await db.query(
        `UPDATE webhook_deliveries SET ${set.map((f, i) => `${f} = $${i + 2}`).join(', ')} WHERE id = $1 RETURNING *`,
        [id, ...set.map((f) => changes[f] ?? null)],
      );
      return rows[0] && withoutNulls<DeliveryRecord>(rows[0]);
    },

    async listDeliveries(webhookId: string, limit: number, after?: ListPosition): Promise<ListSlice<DeliveryRecord>> {
      return newestFirst(db, { table: 'webhook_deliveries', owner: 'webhook_id' }, webhookId, limit, after, (r) => withoutNulls<DeliveryRecord>(r));
    },

    async pendingDeliveries(): Promise<DeliveryRecord[]> {
      return (await db.query("SELECT * FROM webhook_deliveries WHERE status = 'pending' ORDER BY next_attempt_at")).map((r) => withoutNulls<DeliveryRecord>(r));
    },
  };
}
