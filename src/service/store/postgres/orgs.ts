// The PostgreSQL store: organizations and their API keys.
import { FolioError } from '../../errors.ts';
import type { Plan } from '../../config.ts';
import type { ApiKeyRecord, Org } from '../records.ts';
import type { OrgStore } from '../store.ts';
import { FOREIGN_KEY_VIOLATION, keyOf, orgOf, pgError, UNIQUE_VIOLATION, type PostgresDatabase } from './database.ts';

export function postgresOrgs(db: PostgresDatabase): OrgStore {
  return {
    async createOrg(org: Org): Promise<Org> {
      try {
        const rows = await db.query('INSERT INTO orgs (id, name, plan, created_at) VALUES ($1, $2, $3, $4) RETURNING *', [org.id, org.name, org.plan, org.created_at]);
        return orgOf(rows[0]);
      } catch (err) {
        if (pgError(err).code === UNIQUE_VIOLATION) throw new FolioError('name_taken', `an organization named "${org.name}" already exists`);
        throw err;
      }
    },

    async listOrgs(): Promise<Org[]> {
      return (await db.query('SELECT * FROM orgs ORDER BY created_at, id')).map(orgOf);
    },

    async getOrg(id: string): Promise<Org | undefined> {
      const rows = await db.query('SELECT * FROM orgs WHERE id = $1', [id], 'get_org');
      return rows[0] && orgOf(rows[0]);
    },

    async findOrg(nameOrId: string): Promise<Org | undefined> {
      const rows = await db.query('SELECT * FROM orgs WHERE id = $1 OR name = $1 ORDER BY (id = $1) DESC LIMIT 1', [nameOrId]);
      return rows[0] && orgOf(rows[0]);
    },

    async setOrgPlan(id: string, plan: Plan): Promise<Org> {
      const rows = await db.query('UPDATE orgs SET plan = $2 WHERE id = $1 RETURNING *', [id, plan]);
      if (!rows[0]) throw new FolioError('not_found', `organization ${id} not found`);
      return orgOf(rows[0]);
    },

    async createKey(key: ApiKeyRecord): Promise<ApiKeyRecord> {
      try {
        const rows = await db.query(
          `INSERT INTO api_keys (id, org_id, name, prefix, hash, scopes, created_at, last_used_at, revoked_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
          [key.id, key.org_id, key.name, key.prefix, key.hash, key.scopes, key.created_at, key.last_used_at, key.revoked_at],
        );
        return keyOf(rows[0]);
      } catch (err) {
        if (pgError(err).code === FOREIGN_KEY_VIOLATION) throw new FolioError('not_found', `organization ${key.org_id} not found`);
        throw err;
      }
    },

    async listKeys(orgId?: string): Promise<ApiKeyRecord[]> {
      const rows = orgId === undefined
        ? await db.query('SELECT * FROM api_keys ORDER BY created_at, id')
        : await db.query('SELECT * FROM api_keys WHERE org_id = $1 ORDER BY created_at, id', [orgId]);
      return rows.map((row) => db.withPendingTouch(keyOf(row)));
    },

    async findKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
      const rows = await db.query('SELECT * FROM api_keys WHERE hash = $1', [hash], 'find_key_by_hash');
      return rows[0] && db.withPendingTouch(keyOf(rows[0]));
    },

    async findKeyWithPlan(hash: string): Promise<{ key: ApiKeyRecord; plan: Plan } | undefined> {
      // One round trip on every API request instead of two (key, then org).
      const rows = await db.query(
        'SELECT k.*, o.plan AS org_plan FROM api_keys k LEFT JOIN orgs o ON o.id = k.org_id WHERE k.hash = $1',
        [hash],
        'find_key_with_plan',
      );
      if (!rows[0]) return undefined;
      const { org_plan: plan, ...key } = rows[0];
      return { key: db.withPendingTouch(keyOf(key)), plan: (plan as Plan | null) ?? 'free' };
    },

    async revokeKey(id: string, at: string): Promise<ApiKeyRecord> {
      const rows = await db.query('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1 RETURNING *', [id, at]);
      if (!rows[0]) throw new FolioError('not_found', `key ${id} not found`);
      return db.withPendingTouch(keyOf(rows[0]));
    },

    touchKey(id: string, at: string): void {
      db.touched.set(id, at);
    },
  };
}
