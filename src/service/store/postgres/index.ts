// The PostgreSQL store (FOLIO_DATABASE_URL): the same Store as the JSON file, for several Folio
// nodes sharing one database. database.ts holds the pool and the rows' mapping; one module per
// entity implements its part of the Store.
import pg from 'pg';
import { migrate, MIGRATIONS } from '../../postgres/migrations.ts';
import type { Store } from '../store.ts';
import { postgresAccounts } from './accounts.ts';
import { PostgresDatabase } from './database.ts';
import { postgresDeployments } from './deployments.ts';
import { postgresOrgs } from './orgs.ts';
import { postgresProjects } from './projects.ts';
import { postgresQueue } from './queue.ts';
import { postgresWebhooks } from './webhooks.ts';

/** The store with what storage.ts and `admin db import` need besides: its pool, transactions and the import. */
export type PostgresStore = Store & Pick<PostgresDatabase, 'pool' | 'transaction' | 'importRecords'>;


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
  const db = new PostgresDatabase(pool);
  const projects = postgresProjects(db);
  return {
    ...postgresOrgs(db),
    ...projects,
    ...postgresDeployments(db),
    ...postgresAccounts(db),
    ...postgresWebhooks(db, projects),
    ...postgresQueue(db),
    pool,
    transaction: (work) => db.transaction(work),
    importRecords: (records) => db.importRecords(records),
    isHealthy: () => db.isHealthy(),
    close: () => db.close(),
  };
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
