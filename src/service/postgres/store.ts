// The PostgreSQL store (FOLIO_DATABASE_URL): the same Store interface as the JSON file, for
// several Folio nodes sharing one database. Every rule the JSON store checks in memory is a
// constraint here (migrations.ts), so concurrent writers on different nodes cannot both win: the
// database refuses the second, and that refusal becomes the same FolioError the JSON store throws.
import pg from 'pg';
import type { Plan } from '../config.ts';
import { FolioError } from '../errors.ts';
import {
  DELIVERIES_KEPT,
  HOOK_DELIVERIES_KEPT,
  type ApiKeyRecord,
  type CustomDomainStatus,
  type DeliveryChanges,
  type DeliveryRecord,
  type WebhookRecord,
  type DeploymentChanges,
  type DeploymentErrorCode,
  type DeploymentRecord,
  type DeploymentStatus,
  type ListPosition,
  type Org,
  type ListSlice,
  type Membership,
  type ProjectChanges,
  type ProjectRecord,
  type SessionRecord,
  type Store,
  type StoreRecords,
  type UserChanges,
  type UserInvite,
  type UserRecord,
} from '../store.ts';
import { nextTurn, type OrgTurn } from '../deployments/fair-queue.ts';
import { createLanes } from './lanes.ts';
import { migrate, MIGRATIONS } from './migrations.ts';

// timestamptz columns come back as ISO strings with the JSON store's millisecond precision, and
// bigint counts as numbers; the store's records never hold anything else of these types.
const TIMESTAMPTZ = 1184;
const INT8 = 20;
const types = {
  getTypeParser(oid: number, format?: string) {
    if (oid === TIMESTAMPTZ) return (value: string) => new Date(value).toISOString();
    if (oid === INT8) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

/** How often batched key uses (`touchKey`) are written. Losing one in a crash is acceptable. */
const TOUCH_FLUSH_MS = 5_000;

type Row = Record<string, unknown>;

/** A copy of `row` without its null columns: absent optional fields, as in the JSON store. */
function withoutNulls<T>(row: Row): T {
  const record: Row = {};
  for (const [key, value] of Object.entries(row)) if (value !== null) record[key] = value;
  return record as T;
}

const orgOf = (row: Row) => row as unknown as Org;
const keyOf = (row: Row) => row as unknown as ApiKeyRecord;
const projectOf = (row: Row) => withoutNulls<ProjectRecord>(row);

function deploymentOf(row: Row): DeploymentRecord {
  // The lease is the queue's business (claimDeployment), never part of the record.
  const { error_code, error_message, lease_owner: _owner, lease_expires_at: _expires, ...rest } = row;
  const deployment = withoutNulls<DeploymentRecord>(rest);
  if (typeof error_code === 'string') deployment.error = { code: error_code as DeploymentErrorCode, message: String(error_message ?? '') };
  return deployment;
}

function userOf(row: Row): UserRecord {
  const { invite_hash, invite_expires_at, invite_joins, password_hash, ...rest } = row;
  const user = rest as unknown as UserRecord;
  if (typeof password_hash === 'string') user.password_hash = password_hash;
  if (typeof invite_hash === 'string') {
    user.invite = { hash: invite_hash, expires_at: String(invite_expires_at) };
    if (Array.isArray(invite_joins)) user.invite.joins = invite_joins as Membership[];
  }
  return user;
}

/** A user's invite as the columns invite_hash, invite_expires_at and invite_joins (jsonb text). */
const inviteColumns = (invite: UserInvite | null | undefined) =>
  [invite?.hash ?? null, invite?.expires_at ?? null, invite?.joins ? JSON.stringify(invite.joins) : null] as const;

const sessionOf = (row: Row) => row as unknown as SessionRecord;

/** The SQLSTATE and constraint of a PostgreSQL error, if `err` is one. */
function pgError(err: unknown): { code?: string; constraint?: string } {
  return typeof err === 'object' && err !== null ? (err as { code?: string; constraint?: string }) : {};
}
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';
/** The build queue's claims take turns on this advisory lock; unique to Folio like the migrations' one. */
const QUEUE_LOCK = 0x466f6c71; // "Folq"

const PROJECT_FIELDS = [
  'name', 'status', 'source_repo', 'source_branch', 'custom_domain', 'custom_domain_status', 'custom_domain_token',
  'custom_domain_checked_at', 'last_deploy_at', 'allow_code', 'webhook_secret', 'previews', 'preview_branches',
] as const satisfies readonly (keyof ProjectChanges)[];

const DEPLOYMENT_FIELDS = [
  'status', 'started_at', 'finished_at', 'source_branch', 'commit_sha', 'page_count', 'warnings', 'full_build', 'progress',
] as const satisfies readonly (keyof DeploymentChanges)[];

/** A page of a newest-first list: `limit + 1` rows were asked for, to know whether more follow. */
function pageOfRows<T>(rows: Row[], limit: number, map: (row: Row) => T): ListSlice<T> {
  return { items: rows.slice(0, limit).map(map), hasMore: rows.length > limit };
}

export interface PostgresStoreOptions {
  /** Connections kept open to the database (default 10). */
  poolSize?: number;
}

/** Connects to `url`, applies missing migrations and returns the store. */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, types });
  // An idle connection the server dropped (a database restart) must not crash the process.
  pool.on('error', () => {});
  try {
    const client = await pool.connect();
    try {
      await migrate(client);
    } finally {
      client.release();
    }
  } catch (err) {
    await pool.end().catch(() => {});
    throw err;
  }
  return new PostgresStore(pool);
}

/** Applies the missing migrations (`admin db migrate`); returns those applied and the schema's version. */
export async function migrateDatabase(url: string): Promise<{ applied: number[]; version: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const applied = await migrate(client);
    return { applied, version: MIGRATIONS[MIGRATIONS.length - 1].version };
  } finally {
    await client.end();
  }
}

export class PostgresStore implements Store {
  readonly pool: pg.Pool;
  private touched = new Map<string, string>();
  /** Session uses not yet written (touchSession), batched like key uses. */
  private sessionsTouched = new Map<string, string>();
  private touchTimer: NodeJS.Timeout;
  /** Reads of one project in flight: concurrent ones share the next statement (lanes.ts). */
  private projectReads = createLanes<Row | undefined>();

  constructor(pool: pg.Pool) {
    this.pool = pool;
    this.touchTimer = setInterval(() => void this.flushTouches().catch(() => {}), TOUCH_FLUSH_MS);
    this.touchTimer.unref();
  }

  private async query(text: string, values: unknown[] = [], name?: string): Promise<Row[]> {
    const result = await this.pool.query(name ? { name, text, values } : { text, values });
    return result.rows as Row[];
  }

  /** Runs `work` in one transaction on one connection. */
  async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  async createOrg(org: Org): Promise<Org> {
    try {
      const rows = await this.query('INSERT INTO orgs (id, name, plan, created_at) VALUES ($1, $2, $3, $4) RETURNING *', [org.id, org.name, org.plan, org.created_at]);
      return orgOf(rows[0]);
    } catch (err) {
      if (pgError(err).code === UNIQUE_VIOLATION) throw new FolioError('name_taken', `an organization named "${org.name}" already exists`);
      throw err;
    }
  }

  async listOrgs(): Promise<Org[]> {
    return (await this.query('SELECT * FROM orgs ORDER BY created_at, id')).map(orgOf);
  }

  async getOrg(id: string): Promise<Org | undefined> {
    const rows = await this.query('SELECT * FROM orgs WHERE id = $1', [id], 'get_org');
    return rows[0] && orgOf(rows[0]);
  }

  async findOrg(nameOrId: string): Promise<Org | undefined> {
    const rows = await this.query('SELECT * FROM orgs WHERE id = $1 OR name = $1 ORDER BY (id = $1) DESC LIMIT 1', [nameOrId]);
    return rows[0] && orgOf(rows[0]);
  }

  async setOrgPlan(id: string, plan: Plan): Promise<Org> {
    const rows = await this.query('UPDATE orgs SET plan = $2 WHERE id = $1 RETURNING *', [id, plan]);
    if (!rows[0]) throw new FolioError('not_found', `organization ${id} not found`);
    return orgOf(rows[0]);
  }

  async createKey(key: ApiKeyRecord): Promise<ApiKeyRecord> {
    try {
      const rows = await this.query(
        `INSERT INTO api_keys (id, org_id, name, prefix, hash, scopes, created_at, last_used_at, revoked_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
        [key.id, key.org_id, key.name, key.prefix, key.hash, key.scopes, key.created_at, key.last_used_at, key.revoked_at],
      );
      return keyOf(rows[0]);
    } catch (err) {
      if (pgError(err).code === FOREIGN_KEY_VIOLATION) throw new FolioError('not_found', `organization ${key.org_id} not found`);
      throw err;
    }
  }

  async listKeys(orgId?: string): Promise<ApiKeyRecord[]> {
    const rows = orgId === undefined
      ? await this.query('SELECT * FROM api_keys ORDER BY created_at, id')
      : await this.query('SELECT * FROM api_keys WHERE org_id = $1 ORDER BY created_at, id', [orgId]);
    return rows.map((row) => this.withPendingTouch(keyOf(row)));
  }

  async findKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const rows = await this.query('SELECT * FROM api_keys WHERE hash = $1', [hash], 'find_key_by_hash');
    return rows[0] && this.withPendingTouch(keyOf(rows[0]));
  }

  async findKeyWithPlan(hash: string): Promise<{ key: ApiKeyRecord; plan: Plan } | undefined> {
    // One round trip on every API request instead of two (key, then org).
    const rows = await this.query(
      'SELECT k.*, o.plan AS org_plan FROM api_keys k LEFT JOIN orgs o ON o.id = k.org_id WHERE k.hash = $1',
      [hash],
      'find_key_with_plan',
    );
    if (!rows[0]) return undefined;
    const { org_plan: plan, ...key } = rows[0];
    return { key: this.withPendingTouch(keyOf(key)), plan: (plan as Plan | null) ?? 'free' };
  }

  async revokeKey(id: string, at: string): Promise<ApiKeyRecord> {
    const rows = await this.query('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1 RETURNING *', [id, at]);
    if (!rows[0]) throw new FolioError('not_found', `key ${id} not found`);
    return this.withPendingTouch(keyOf(rows[0]));
  }

  touchKey(id: string, at: string): void {
    this.touched.set(id, at);
  }

  /** A key as this node knows it: with a use not yet written, so a listing never goes back in time. */
  private withPendingTouch(key: ApiKeyRecord): ApiKeyRecord {
    const at = this.touched.get(key.id);
    if (at && (!key.last_used_at || key.last_used_at < at)) key.last_used_at = at;
    return key;
  }

  private async flushTouches(): Promise<void> {
    if (this.sessionsTouched.size > 0) {
      const sessions = [...this.sessionsTouched];
      this.sessionsTouched.clear();
      await this.query(
        `UPDATE sessions AS s SET last_seen_at = t.at FROM unnest($1::text[], $2::timestamptz[]) AS t (id, at)
         WHERE s.id = t.id AND s.last_seen_at < t.at`,
        [sessions.map(([id]) => id), sessions.map(([, at]) => at)],
      );
    }
    if (this.touched.size === 0) return;
    const batch = [...this.touched];
    this.touched.clear();
    await this.query(
      `UPDATE api_keys AS k SET last_used_at = t.at FROM unnest($1::text[], $2::timestamptz[]) AS t (id, at)
       WHERE k.id = t.id AND (k.last_used_at IS NULL OR k.last_used_at < t.at)`,
      [batch.map(([id]) => id), batch.map(([, at]) => at)],
    );
  }

  async createProject(project: ProjectRecord): Promise<ProjectRecord> {
    const columns = Object.keys(project).filter((c) => (project as unknown as Row)[c] !== undefined);
    try {
      return await this.transaction(async (client) => {
        const verifying = project.custom_domain_status === 'verified';
        if (project.custom_domain) await this.checkDomainFree(client, undefined, project.custom_domain, undefined, verifying);
        const rows = await client.query(
          `INSERT INTO projects (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING *`,
          columns.map((c) => (project as unknown as Row)[c]),
        );
        return projectOf(rows.rows[0]);
      });
    } catch (err) {
      throw this.projectConflict(err, project.slug, project.custom_domain);
    }
  }

  /** The FolioError for a constraint a project write broke; anything else unchanged. */
  private projectConflict(err: unknown, slug: string | undefined, domain: string | null | undefined): unknown {
    const { code, constraint } = pgError(err);
    if (code === UNIQUE_VIOLATION && constraint === 'projects_slug_key') return new FolioError('slug_taken', `slug "${slug}" is already taken`);
    if (code === UNIQUE_VIOLATION && constraint === 'projects_verified_domain') {
      return new FolioError('domain_taken', `custom_domain "${domain}" is already used by another project`);
    }
    if (code === FOREIGN_KEY_VIOLATION) return new FolioError('not_found', 'organization not found');
    return err;
  }

  /** Refuses a change that would make a project claim or verify a domain another project holds. */
  private async checkDomainFree(client: pg.PoolClient, projectId: string | undefined, domain: string, currentDomain: string | undefined, verifying: boolean) {
    const { rows } = await client.query(
      "SELECT id FROM projects WHERE custom_domain = $1 AND custom_domain_status = 'verified' AND id IS DISTINCT FROM $2",
      [domain, projectId ?? null],
    );
    if (rows.length > 0 && (verifying || domain !== currentDomain)) {
      throw new FolioError('domain_taken', `custom_domain "${domain}" is already used by another project`);
    }
  }

  async getProject(id: string): Promise<ProjectRecord | undefined> {
    // Every project route reads its project first: many requests for one project at once cost one
    // statement per round trip, each still started after the request arrived (lanes.ts).
    const row = await this.projectReads(id, 0, async (waiters) => {
      const rows = await this.query('SELECT * FROM projects WHERE id = $1', [id], 'get_project');
      return waiters.map(() => rows[0]);
    });
    return row && projectOf(row);
  }

  async listProjects(orgId: string, limit: number, after?: ListPosition): Promise<ListSlice<ProjectRecord>> {
    const rows = after
      ? await this.query(
        'SELECT * FROM projects WHERE org_id = $1 AND (created_at, id) < ($2, $3) ORDER BY created_at DESC, id DESC LIMIT $4',
        [orgId, after.created_at, after.id, limit + 1], 'list_projects_after')
      : await this.query('SELECT * FROM projects WHERE org_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2', [orgId, limit + 1], 'list_projects');
    return pageOfRows(rows, limit, projectOf);
  }

  async updateProject(id: string, changes: ProjectChanges): Promise<ProjectRecord> {
    const updated = await this.updateProjectWhere(id, changes);
    if (!updated) throw new FolioError('not_found', `project ${id} not found`);
    return updated;
  }

  /** Updates a project, if it exists and (given `token`) its domain's token is still `token`. */
  private async updateProjectWhere(id: string, changes: ProjectChanges, token?: string): Promise<ProjectRecord | undefined> {
    const set = PROJECT_FIELDS.filter((field) => changes[field] !== undefined);
    let domain: string | undefined;
    try {
      return await this.transaction(async (client) => {
        const current = (await client.query('SELECT * FROM projects WHERE id = $1 FOR UPDATE', [id])).rows[0] as Row | undefined;
        if (!current || (token !== undefined && current.custom_domain_token !== token)) return undefined;
        const after = <K extends keyof ProjectChanges>(field: K) => (changes[field] === undefined ? current[field] : changes[field]);
        domain = (after('custom_domain') as string | null) ?? undefined;
        if (domain) await this.checkDomainFree(client, id, domain, (current.custom_domain as string | null) ?? undefined, after('custom_domain_status') === 'verified');
        if (set.length === 0) return projectOf(current);
        const rows = await client.query(
          `UPDATE projects SET ${set.map((field, i) => `${field} = $${i + 2}`).join(', ')} WHERE id = $1 RETURNING *`,
          [id, ...set.map((field) => changes[field])],
        );
        return projectOf(rows.rows[0]);
      });
    } catch (err) {
      throw this.projectConflict(err, undefined, domain);
    }
  }

  async deleteProject(id: string): Promise<void> {
    const rows = await this.query('DELETE FROM projects WHERE id = $1 RETURNING id', [id]);
    if (!rows[0]) throw new FolioError('not_found', `project ${id} not found`);
  }

  async findProjectBySlug(slug: string): Promise<ProjectRecord | undefined> {
    const rows = await this.query('SELECT * FROM projects WHERE slug = $1', [slug], 'project_by_slug');
    return rows[0] && projectOf(rows[0]);
  }

  async findProjectByDomain(domain: string): Promise<ProjectRecord | undefined> {
    const rows = await this.query("SELECT * FROM projects WHERE custom_domain = $1 AND custom_domain_status = 'verified'", [domain], 'project_by_domain');
    return rows[0] && projectOf(rows[0]);
  }

  async listProjectsWithDomain(): Promise<ProjectRecord[]> {
    return (await this.query('SELECT * FROM projects WHERE custom_domain IS NOT NULL ORDER BY created_at, id')).map(projectOf);
  }

  async recordDomainCheck(id: string, token: string, status: CustomDomainStatus, checkedAt: string): Promise<ProjectRecord | undefined> {
    return this.updateProjectWhere(id, { custom_domain_status: status, custom_domain_checked_at: checkedAt }, token);
  }

  async queueDeployment(deployment: DeploymentRecord): Promise<{ deployment: DeploymentRecord; created: boolean }> {
    // The partial unique index allows one queued deployment per project: a second trigger's
    // insert does nothing and gets the queued one. Retried when that one left the queue meanwhile.
    for (;;) {
      let rows: Row[];
      try {
        rows = await this.query(
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
      const queued = await this.query(
        "SELECT * FROM deployments WHERE project_id = $1 AND status = 'queued' AND COALESCE(branch, '') = $2",
        [deployment.project_id, deployment.branch ?? ''],
      );
      if (queued[0]) return { deployment: deploymentOf(queued[0]), created: false };
    }
  }

  async addDeployment(deployment: DeploymentRecord): Promise<DeploymentRecord> {
    const { error, ...fields } = deployment;
    const row: Row = { ...fields, error_code: error?.code, error_message: error?.message };
    const columns = Object.keys(row).filter((c) => row[c] !== undefined);
    try {
      const rows = await this.query(
        `INSERT INTO deployments (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING *`,
        columns.map((c) => row[c]),
      );
      return deploymentOf(rows[0]);
    } catch (err) {
      if (pgError(err).code === FOREIGN_KEY_VIOLATION) throw new FolioError('not_found', `project ${deployment.project_id} not found`);
      throw err;
    }
  }

  async getDeployment(id: string): Promise<DeploymentRecord | undefined> {
    const rows = await this.query('SELECT * FROM deployments WHERE id = $1', [id], 'get_deployment');
    return rows[0] && deploymentOf(rows[0]);
  }

  async listDeployments(projectId: string, limit: number, after?: ListPosition): Promise<ListSlice<DeploymentRecord>> {
    const rows = after
      ? await this.query(
        'SELECT * FROM deployments WHERE project_id = $1 AND (created_at, id) < ($2, $3) ORDER BY created_at DESC, id DESC LIMIT $4',
        [projectId, after.created_at, after.id, limit + 1], 'list_deployments_after')
      : await this.query('SELECT * FROM deployments WHERE project_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2', [projectId, limit + 1], 'list_deployments');
    return pageOfRows(rows, limit, deploymentOf);
  }

  async deploymentsWithStatus(status: DeploymentStatus): Promise<DeploymentRecord[]> {
    return (await this.query('SELECT * FROM deployments WHERE status = $1 ORDER BY created_at, id', [status])).map(deploymentOf);
  }

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
      ? await this.query('SELECT * FROM deployments WHERE id = $1', values)
      : await this.query(`UPDATE deployments SET ${set.join(', ')} WHERE id = $1 RETURNING *`, values);
    if (!rows[0]) throw new FolioError('not_found', `deployment ${id} not found`);
    return deploymentOf(rows[0]);
  }

  async createUser(user: UserRecord): Promise<UserRecord> {
    try {
      const rows = await this.query(
        `INSERT INTO users (id, email, password_hash, memberships, invite_hash, invite_expires_at, invite_joins, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
        [user.id, user.email, user.password_hash ?? null, JSON.stringify(user.memberships), ...inviteColumns(user.invite), user.created_at],
      );
      return userOf(rows[0]);
    } catch (err) {
      if (pgError(err).code === UNIQUE_VIOLATION) throw new FolioError('name_taken', `a user with the email "${user.email}" already exists`);
      throw err;
    }
  }

  async getUser(id: string): Promise<UserRecord | undefined> {
    const rows = await this.query('SELECT * FROM users WHERE id = $1', [id], 'get_user');
    return rows[0] && userOf(rows[0]);
  }

  async findUserByEmail(email: string): Promise<UserRecord | undefined> {
    const rows = await this.query('SELECT * FROM users WHERE email = $1', [email], 'user_by_email');
    return rows[0] && userOf(rows[0]);
  }

  async findUserByInviteHash(hash: string): Promise<UserRecord | undefined> {
    const rows = await this.query('SELECT * FROM users WHERE invite_hash = $1', [hash]);
    return rows[0] && userOf(rows[0]);
  }

  async listUsers(orgId?: string): Promise<UserRecord[]> {
    const rows = orgId === undefined
      ? await this.query('SELECT * FROM users ORDER BY email')
      : await this.query('SELECT * FROM users WHERE memberships @> $1::jsonb ORDER BY email', [JSON.stringify([{ org_id: orgId }])]);
    return rows.map(userOf);
  }

  async updateUser(id: string, changes: UserChanges): Promise<UserRecord> {
    const set: string[] = [];
    const values: unknown[] = [id];
    const add = (column: string, value: unknown) => {
      values.push(value);
      set.push(`${column} = $${values.length}`);
    };
    if (changes.password_hash !== undefined) add('password_hash', changes.password_hash);
    if (changes.memberships !== undefined) add('memberships', JSON.stringify(changes.memberships));
    if (changes.invite !== undefined) {
      const [hash, expiresAt, joins] = inviteColumns(changes.invite);
      add('invite_hash', hash);
      add('invite_expires_at', expiresAt);
      add('invite_joins', joins);
    }
    const rows = set.length === 0
      ? await this.query('SELECT * FROM users WHERE id = $1', values)
      : await this.query(`UPDATE users SET ${set.join(', ')} WHERE id = $1 RETURNING *`, values);
    if (!rows[0]) throw new FolioError('not_found', `user ${id} not found`);
    return userOf(rows[0]);
  }

  async deleteUser(id: string): Promise<void> {
    // Sessions go with the user (ON DELETE CASCADE).
    const rows = await this.query('DELETE FROM users WHERE id = $1 RETURNING id', [id]);
    if (!rows[0]) throw new FolioError('not_found', `user ${id} not found`);
  }

  async createSession(session: SessionRecord): Promise<SessionRecord> {
    try {
      const rows = await this.query(
        `INSERT INTO sessions (id, hash, user_id, org_id, csrf_token, created_at, last_seen_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
        [session.id, session.hash, session.user_id, session.org_id, session.csrf_token, session.created_at, session.last_seen_at],
      );
      return sessionOf(rows[0]);
    } catch (err) {
      if (pgError(err).code === FOREIGN_KEY_VIOLATION) throw new FolioError('not_found', `user ${session.user_id} not found`);
      throw err;
    }
  }

  async findSessionByHash(hash: string): Promise<SessionRecord | undefined> {
    const rows = await this.query('SELECT * FROM sessions WHERE hash = $1', [hash], 'session_by_hash');
    if (!rows[0]) return undefined;
    const session = sessionOf(rows[0]);
    // A use this node has not written yet still counts, so a session never looks idler than it is.
    const at = this.sessionsTouched.get(session.id);
    if (at && session.last_seen_at < at) session.last_seen_at = at;
    return session;
  }

  async setSessionOrg(id: string, orgId: string): Promise<SessionRecord> {
    const rows = await this.query('UPDATE sessions SET org_id = $2 WHERE id = $1 RETURNING *', [id, orgId]);
    if (!rows[0]) throw new FolioError('not_found', `session ${id} not found`);
    return sessionOf(rows[0]);
  }

  touchSession(id: string, at: string): void {
    this.sessionsTouched.set(id, at);
  }

  async deleteSession(id: string): Promise<void> {
    this.sessionsTouched.delete(id);
    await this.query('DELETE FROM sessions WHERE id = $1', [id]);
  }

  async deleteUserSessions(userId: string, exceptId?: string): Promise<void> {
    await this.query('DELETE FROM sessions WHERE user_id = $1 AND id IS DISTINCT FROM $2', [userId, exceptId ?? null]);
  }

  // Continuous deployment (docs/decisions.md#continuous-deployment).

  async rememberHookDelivery(projectId: string, deliveryId: string): Promise<boolean> {
    // One statement: the row lock makes the check and the append atomic across nodes.
    const rows = await this.query(
      `UPDATE projects SET hook_deliveries = (COALESCE(hook_deliveries, '{}') || $2::text)[greatest(1, cardinality(COALESCE(hook_deliveries, '{}')) + 2 - $3):]
       WHERE id = $1 AND NOT ($2 = ANY (COALESCE(hook_deliveries, '{}'))) RETURNING id`,
      [projectId, deliveryId, HOOK_DELIVERIES_KEPT],
    );
    if (rows[0]) return true;
    if (!(await this.getProject(projectId))) throw new FolioError('not_found', `project ${projectId} not found`);
    return false;
  }

  async createWebhook(webhook: WebhookRecord): Promise<WebhookRecord> {
    try {
      const rows = await this.query(
        'INSERT INTO webhooks (id, project_id, url, events, secret, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *',
        [webhook.id, webhook.project_id, webhook.url, webhook.events, webhook.secret, webhook.created_at],
      );
      return rows[0] as unknown as WebhookRecord;
    } catch (err) {
      if (pgError(err).code === FOREIGN_KEY_VIOLATION) throw new FolioError('not_found', `project ${webhook.project_id} not found`);
      throw err;
    }
  }

  async getWebhook(id: string): Promise<WebhookRecord | undefined> {
    const rows = await this.query('SELECT * FROM webhooks WHERE id = $1', [id]);
    return rows[0] as unknown as WebhookRecord | undefined;
  }

  async listWebhooks(projectId: string): Promise<WebhookRecord[]> {
    return (await this.query('SELECT * FROM webhooks WHERE project_id = $1 ORDER BY created_at, id', [projectId])) as unknown as WebhookRecord[];
  }

  async deleteWebhook(id: string): Promise<void> {
    const rows = await this.query('DELETE FROM webhooks WHERE id = $1 RETURNING id', [id]);
    if (!rows[0]) throw new FolioError('not_found', `webhook ${id} not found`);
  }

  async createDelivery(delivery: DeliveryRecord): Promise<DeliveryRecord> {
    const columns = Object.keys(delivery).filter((c) => (delivery as unknown as Row)[c] !== undefined);
    try {
      return await this.transaction(async (client) => {
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
  }

  async updateDelivery(id: string, changes: DeliveryChanges): Promise<DeliveryRecord | undefined> {
    // Every field given is written; one given as undefined is cleared (next_attempt_at once sent).
    const fields = ['status', 'attempts', 'next_attempt_at', 'last_attempt_at', 'response_code', 'last_error'] as const;
    const set = fields.filter((f) => f in changes);
    if (set.length === 0) return (await this.query('SELECT * FROM webhook_deliveries WHERE id = $1', [id])).map((r) => withoutNulls<DeliveryRecord>(r))[0];
    const rows = await this.query(
      `UPDATE webhook_deliveries SET ${set.map((f, i) => `${f} = $${i + 2}`).join(', ')} WHERE id = $1 RETURNING *`,
      [id, ...set.map((f) => changes[f] ?? null)],
    );
    return rows[0] && withoutNulls<DeliveryRecord>(rows[0]);
  }

  async listDeliveries(webhookId: string, limit: number, after?: ListPosition): Promise<ListSlice<DeliveryRecord>> {
    const rows = after
      ? await this.query(
        'SELECT * FROM webhook_deliveries WHERE webhook_id = $1 AND (created_at, id) < ($2, $3) ORDER BY created_at DESC, id DESC LIMIT $4',
        [webhookId, after.created_at, after.id, limit + 1])
      : await this.query('SELECT * FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2', [webhookId, limit + 1]);
    return pageOfRows(rows, limit, (r) => withoutNulls<DeliveryRecord>(r));
  }

  async pendingDeliveries(): Promise<DeliveryRecord[]> {
    return (await this.query("SELECT * FROM webhook_deliveries WHERE status = 'pending' ORDER BY next_attempt_at")).map((r) => withoutNulls<DeliveryRecord>(r));
  }

  /**
   * Copies every record of a JSON store into this empty database in one transaction (`admin db
   * import`): all of them, or none when anything is refused.
   */
  async importRecords(records: StoreRecords): Promise<void> {
    await this.transaction(async (client) => {
      const { rows } = await client.query<{ count: number }>('SELECT count(*)::int AS count FROM orgs');
      if (rows[0].count > 0) throw new FolioError('invalid_request', `the database already holds ${rows[0].count} organization(s): import into an empty database`);
      const deployments = records.deployments.map(({ error, ...d }) => ({ ...d, error_code: error?.code ?? null, error_message: error?.message ?? null }));
      // Columns are matched by name; fields a record lacks become NULL.
      const users = records.users.map(({ invite, ...u }) => {
        const [invite_hash, invite_expires_at, joins] = inviteColumns(invite);
        return { ...u, invite_hash, invite_expires_at, invite_joins: joins === null ? null : JSON.parse(joins) };
      });
      const tables = [
        ['orgs', records.orgs], ['api_keys', records.keys], ['projects', records.projects], ['deployments', deployments],
        ['users', users], ['sessions', records.sessions], ['webhooks', records.webhooks], ['webhook_deliveries', records.deliveries],
      ] as const;
      for (const [table, list] of tables) {
        await client.query(`INSERT INTO ${table} SELECT * FROM json_populate_recordset(NULL::${table}, $1)`, [JSON.stringify(list)]);
      }
    });
  }

  // The job queue (docs/decisions.md#job-queue-and-node-roles, #fair-build-queue): claims take
  // turns on a transaction-scoped advisory lock, so each one sees every claim before it and the
  // limit of builds per organization holds over all nodes (SKIP LOCKED alone let two nodes each
  // count one fewer). One row per organization with a deployment that can start (its project has
  // none building) goes to nextTurn, written once for both stores; its pick becomes building. The
  // unique index deployments_one_building stays the last guard of one build per project.
  async claimDeployment(owner: string, leaseMs: number, buildsPerOrg = 0): Promise<DeploymentRecord | undefined> {
    for (let attempt = 0; ; attempt++) {
      try {
        const claimed = await this.transaction(async (client) => {
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
  }

  async renewDeploymentLease(id: string, owner: string, leaseMs: number): Promise<boolean> {
    const rows = await this.query(
      `UPDATE deployments SET lease_expires_at = now() + make_interval(secs => $3::double precision / 1000)
       WHERE id = $1 AND status = 'building' AND lease_owner = $2 RETURNING id`,
      [id, owner, leaseMs], 'renew_lease');
    return rows.length > 0;
  }

  async takeExpiredLeases(owner: string, leaseMs: number): Promise<DeploymentRecord[]> {
    // A deployment without a lease was left building by a Folio before leases (or imported).
    const rows = await this.query(
      `UPDATE deployments SET lease_owner = $1, lease_expires_at = now() + make_interval(secs => $2::double precision / 1000)
       WHERE id IN (
         SELECT id FROM deployments
         WHERE status = 'building' AND (lease_expires_at IS NULL OR lease_expires_at < now())
         FOR UPDATE SKIP LOCKED)
       RETURNING *`,
      [owner, leaseMs], 'take_expired_leases');
    return rows.map(deploymentOf);
  }

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
        c = await this.pool.connect();
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
  }

  async isHealthy(): Promise<boolean> {
    try {
      await this.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    clearInterval(this.touchTimer);
    await this.flushTouches().catch(() => {});
    await this.pool.end();
  }
}

