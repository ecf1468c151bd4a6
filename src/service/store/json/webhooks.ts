// The JSON store: continuous deployment's webhooks, their deliveries and remembered push deliveries.
import { FolioError } from '../../errors.ts';
import type { DeliveryChanges, DeliveryRecord, ListPosition, ListSlice, WebhookRecord } from '../records.ts';
import { DELIVERIES_KEPT, HOOK_DELIVERIES_KEPT, type WebhookStore } from '../store.ts';
import { compareNewestFirst, own, pageOf, type JsonStoreFile } from './file.ts';

export function jsonWebhooks(file: JsonStoreFile): WebhookStore {
  return {
    async rememberHookDelivery(projectId: string, deliveryId: string): Promise<boolean> {
      if (!Object.hasOwn(file.db.data.projects, projectId)) throw new FolioError('not_found', `project ${projectId} not found`);
      // Checked and recorded synchronously: two copies of one delivery cannot both pass. Kept on the
      // project record, so a write re-serialises only its shard.
      const project = file.db.data.projects[projectId];
      const seen = (project.hook_deliveries ??= []);
      if (seen.includes(deliveryId)) return false;
      seen.push(deliveryId);
      if (seen.length > HOOK_DELIVERIES_KEPT) seen.splice(0, seen.length - HOOK_DELIVERIES_KEPT);
      file.projectShards.changed(projectId);
      await file.commit();
      return true;
    },

    async createWebhook(webhook: WebhookRecord): Promise<WebhookRecord> {
      if (!Object.hasOwn(file.db.data.projects, webhook.project_id)) throw new FolioError('not_found', `project ${webhook.project_id} not found`);
      const record = { ...webhook, events: [...webhook.events] };
      file.db.data.webhooks[record.id] = record;
      await file.commit();
      return { ...record };
    },

    async getWebhook(id: string): Promise<WebhookRecord | undefined> {
      const webhook = own(file.db.data.webhooks, id);
      return webhook && { ...webhook };
    },

    async listWebhooks(projectId: string): Promise<WebhookRecord[]> {
      return Object.values(file.db.data.webhooks)
        .filter((w) => w.project_id === projectId)
        .sort((a, b) => -compareNewestFirst(a, b))
        .map((w) => ({ ...w }));
    },

    async deleteWebhook(id: string): Promise<void> {
      if (!own(file.db.data.webhooks, id)) throw new FolioError('not_found', `webhook ${id} not found`);
      file.dropWebhook(id);
      await file.commit();
    },

    async createDelivery(delivery: DeliveryRecord): Promise<DeliveryRecord> {
      if (!own(file.db.data.webhooks, delivery.webhook_id)) throw new FolioError('not_found', `webhook ${delivery.webhook_id} not found`);
      const record = { ...delivery };
      file.db.data.deliveries[record.id] = record;
      file.deliveryShards.added(record.id);
      // Bounded history: the oldest finished deliveries of the webhook go first.
      const finished = Object.values(file.db.data.deliveries)
        .filter((d) => d.webhook_id === delivery.webhook_id)
        .sort(compareNewestFirst)
        .slice(DELIVERIES_KEPT)
        .filter((d) => d.status !== 'pending');
      for (const old of finished) {
        delete file.db.data.deliveries[old.id];
        file.deliveryShards.removed(old.id);
      }
      await file.commit();
      return { ...record };
    },

    async updateDelivery(id: string, changes: DeliveryChanges): Promise<DeliveryRecord | undefined> {
      const delivery = own(file.db.data.deliveries, id);
      if (!delivery) return undefined;
      Object.assign(delivery, changes);
      file.deliveryShards.changed(id);
      await file.commit();
      return { ...delivery };
    },

    async listDeliveries(webhookId: string, limit: number, after?: ListPosition): Promise<ListSlice<DeliveryRecord>> {
      const list = Object.values(file.db.data.deliveries).filter((d) => d.webhook_id === webhookId).sort(compareNewestFirst);
      return pageOf(list, limit, after);
    },

    async pendingDeliveries(): Promise<DeliveryRecord[]> {
      return Object.values(file.db.data.deliveries)
        .filter((d) => d.status === 'pending')
        .map((d) => ({ ...d }));
    },
  };
}
