// The JSON store: organizations and their API keys.
import { FolioError } from '../../errors.ts';
import type { Plan } from '../../config.ts';
import type { ApiKeyRecord, Org } from '../records.ts';
import type { OrgStore } from '../store.ts';
import { own, type JsonStoreFile } from './file.ts';

export function jsonOrgs(file: JsonStoreFile): OrgStore {
  return {
    async createOrg(org: Org): Promise<Org> {
      if (file.orgsByName.has(org.name)) throw new FolioError('name_taken', `an organization named "${org.name}" already exists`);
      const record = { ...org };
      file.db.data.orgs[record.id] = record;
      file.orgsByName.set(record.name, record);
      await file.commit();
      return { ...record };
    },

    async listOrgs(): Promise<Org[]> {
      return Object.values(file.db.data.orgs).map((o) => ({ ...o }));
    },

    async getOrg(id: string): Promise<Org | undefined> {
      const org = file.db.data.orgs[id];
      return org && { ...org };
    },

    async findOrg(nameOrId: string): Promise<Org | undefined> {
      const org = own(file.db.data.orgs, nameOrId) ?? file.orgsByName.get(nameOrId);
      return org && { ...org };
    },

    async setOrgPlan(id: string, plan: Plan): Promise<Org> {
      const org = file.db.data.orgs[id];
      if (!org) throw new FolioError('not_found', `organization ${id} not found`);
      org.plan = plan;
      await file.commit();
      return { ...org };
    },

    async createKey(key: ApiKeyRecord): Promise<ApiKeyRecord> {
      if (!file.db.data.orgs[key.org_id]) throw new FolioError('not_found', `organization ${key.org_id} not found`);
      const record = { ...key, scopes: [...key.scopes] };
      file.db.data.keys[record.id] = record;
      file.keysByHash.set(record.hash, record);
      await file.commit();
      return { ...record };
    },

    async listKeys(orgId?: string): Promise<ApiKeyRecord[]> {
      return Object.values(file.db.data.keys)
        .filter((k) => !orgId || k.org_id === orgId)
        .map((k) => ({ ...k }));
    },

    // Hot path (every request): returns the live record, which callers must not modify.
    async findKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
      return file.keysByHash.get(hash);
    },

    async findKeyWithPlan(hash: string): Promise<{ key: ApiKeyRecord; plan: Plan } | undefined> {
      const key = file.keysByHash.get(hash);
      return key && { key, plan: file.db.data.orgs[key.org_id]?.plan ?? 'free' };
    },

    async revokeKey(id: string, at: string): Promise<ApiKeyRecord> {
      const key = own(file.db.data.keys, id);
      if (!key) throw new FolioError('not_found', `key ${id} not found`);
      key.revoked_at ??= at;
      await file.commit();
      return { ...key };
    },

    touchKey(id: string, at: string): void {
      const key = file.db.data.keys[id];
      if (!key) return;
      key.last_used_at = at;
      file.keysTouched = true;
    },
  };
}
