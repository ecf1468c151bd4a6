// The PostgreSQL store's connection pool and what every entity module shares: the rows' mapping
// to records, the batched key and session uses, transactions. Every rule the JSON store checks in
// memory is a constraint here (service/postgres/migrations.ts), so concurrent writers on different
// nodes cannot both win: the database refuses the second, and that refusal becomes the same
// FolioError the JSON store throws.
import type pg from 'pg';
import { FolioError } from '../../errors.ts';
import { createLanes } from '../../postgres/lanes.ts';
import type {
  ApiKeyRecord, DeploymentChanges, DeploymentErrorCode, DeploymentRecord, ListPosition, ListSlice, Membership, Org, ProjectChanges, ProjectRecord,
  SessionRecord, StoreRecords, UserInvite, UserRecord,
} from '../records.ts';


/** How often batched key uses (`touchKey`) are written. Losing one in a crash is acceptable. */
const TOUCH_FLUSH_MS = 5_000;

export type Row = Record<string, unknown>;

/** A copy of `row` without its null columns: absent optional fields, as in the JSON store. */
export function withoutNulls<T>(row: Row): T {
  const record: Row = {};
  for (const [key, value] of Object.entries(row)) if (value !== null) record[key] = value;
  return record as T;
}

export const orgOf = (row: Row) => row as unknown as Org;
export const keyOf = (row: Row) => row as unknown as ApiKeyRecord;
export const projectOf = (row: Row) => withoutNulls<ProjectRecord>(row);

export function deploymentOf(row: Row): DeploymentRecord {
  // The lease is the queue's business (claimDeployment), never part of the record.
  const { error_code, error_message, lease_owner: _owner, lease_expires_at: _expires, ...rest } = row;
  const deployment = withoutNulls<DeploymentRecord>(rest);
  if (typeof error_code === 'string') deployment.error = { code: error_code as DeploymentErrorCode, message: String(error_message ?? '') };
  return deployment;
}

export function userOf(row: Row): UserRecord {
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
export const inviteColumns = (invite: UserInvite | null | undefined) =>
  [invite?.hash ?? null, invite?.expires_at ?? null, invite?.joins ? JSON.stringify(invite.joins) : null] as const;

export const sessionOf = (row: Row) => row as unknown as SessionRecord;

/** The SQLSTATE and constraint of a PostgreSQL error, if `err` is one. */
export function pgError(err: unknown): { code?: string; constraint?: string } {
  return typeof err === 'object' && err !== null ? (err as { code?: string; constraint?: string }) : {};
}
export const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';
/** The build queue's claims take turns on this advisory lock; unique to Folio like the migrations' one. */
export const QUEUE_LOCK = 0x466f6c71; // "Folq"

export const PROJECT_FIELDS = [
  'name', 'status', 'source_repo', 'source_branch', 'custom_domain', 'custom_domain_status', 'custom_domain_token',
  'custom_domain_checked_at', 'last_deploy_at', 'allow_code', 'webhook_secret', 'previews', 'preview_branches',
] as const satisfies readonly (keyof ProjectChanges)[];

export const DEPLOYMENT_FIELDS = [
  'status', 'started_at', 'finished_at', 'source_branch', 'commit_sha', 'page_count', 'warnings', 'full_build', 'progress',
] as const satisfies readonly (keyof DeploymentChanges)[];

/** A page of a newest-first list: `limit + 1` rows were asked for, to know whether more follow. */
/**
 * One page of a table's rows that belong to `ownerId`, newest first, after `after` (the list
 * position the API's cursors carry). `table` and `owner` are Folio's own names, never input.
 */
export async function newestFirst<T>(
  db: PostgresDatabase,
  of: { table: string; owner: string; statement?: string },
  ownerId: string,
  limit: number,
  after: ListPosition | undefined,
  map: (row: Row) => T,
): Promise<ListSlice<T>> {
  const named = (suffix: string) => (of.statement ? `${of.statement}${suffix}` : undefined);
  const rows = after
    ? await db.query(
      `SELECT * FROM ${of.table} WHERE ${of.owner} = $1 AND (created_at, id) < ($2, $3) ORDER BY created_at DESC, id DESC LIMIT $4`,
      [ownerId, after.created_at, after.id, limit + 1], named('_after'))
    : await db.query(`SELECT * FROM ${of.table} WHERE ${of.owner} = $1 ORDER BY created_at DESC, id DESC LIMIT $2`, [ownerId, limit + 1], named(''));
  return { items: rows.slice(0, limit).map(map), hasMore: rows.length > limit };
}


export class PostgresDatabase {
  readonly pool: pg.Pool;
  touched = new Map<string, string>();
  /** Session uses not yet written (touchSession), batched like key uses. */
  sessionsTouched = new Map<string, string>();
  private touchTimer: NodeJS.Timeout;
  /** Reads of one project in flight: concurrent ones share the next statement (lanes.ts). */
  projectReads = createLanes<Row | undefined>();

  constructor(pool: pg.Pool) {
    this.pool = pool;
    this.touchTimer = setInterval(() => void this.flushTouches().catch(() => {}), TOUCH_FLUSH_MS);
    this.touchTimer.unref();
  }

  async query(text: string, values: unknown[] = [], name?: string): Promise<Row[]> {
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

  /** A key as this node knows it: with a use not yet written, so a listing never goes back in time. */
  withPendingTouch(key: ApiKeyRecord): ApiKeyRecord {
    const at = this.touched.get(key.id);
    if (at && (!key.last_used_at || key.last_used_at < at)) key.last_used_at = at;
    return key;
  }

  async flushTouches(): Promise<void> {
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

