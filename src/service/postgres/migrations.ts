// The PostgreSQL schema as an ordered list of migrations (content/operating/several-machines.mdx).
// A migration is never edited once released: a change to the schema is a new entry at the end.
// Constraints carry the rules the JSON-file store enforces in memory, so that several Folio nodes
// writing at once cannot break them: one slug per project, one verified holder per custom domain,
// at most one queued deployment per project. Identifiers compare byte-wise (COLLATE "C") so that
// newest-first lists break ties exactly as the JSON-file store does, whatever the database's locale.
import type { ClientBase } from 'pg';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'orgs, API keys, projects, deployments',
    sql: `
      CREATE TABLE orgs (
        id text COLLATE "C" PRIMARY KEY,
        name text COLLATE "C" NOT NULL UNIQUE,
        plan text NOT NULL CHECK (plan IN ('free', 'pro', 'business')),
        created_at timestamptz NOT NULL
      );
      CREATE TABLE api_keys (
        id text COLLATE "C" PRIMARY KEY,
        org_id text COLLATE "C" NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
        name text NOT NULL,
        prefix text NOT NULL,
        hash text NOT NULL UNIQUE,
        scopes text[] NOT NULL,
        created_at timestamptz NOT NULL,
        last_used_at timestamptz,
        revoked_at timestamptz
      );
      CREATE INDEX api_keys_org ON api_keys (org_id);
      CREATE TABLE projects (
        id text COLLATE "C" PRIMARY KEY,
        org_id text COLLATE "C" NOT NULL REFERENCES orgs (id) ON DELETE CASCADE,
        name text NOT NULL,
        slug text COLLATE "C" NOT NULL UNIQUE,
        status text NOT NULL CHECK (status IN ('pending', 'building', 'active', 'failed')),
        created_at timestamptz NOT NULL,
        source_repo text,
        source_branch text,
        custom_domain text COLLATE "C",
        custom_domain_status text CHECK (custom_domain_status IN ('pending', 'verified', 'failed')),
        custom_domain_token text,
        custom_domain_checked_at timestamptz,
        last_deploy_at timestamptz,
        allow_code boolean
      );
      CREATE INDEX projects_org_newest ON projects (org_id, created_at DESC, id DESC);
      CREATE UNIQUE INDEX projects_verified_domain ON projects (custom_domain) WHERE custom_domain_status = 'verified';
      CREATE INDEX projects_with_domain ON projects (custom_domain) WHERE custom_domain IS NOT NULL;
      CREATE TABLE deployments (
        id text COLLATE "C" PRIMARY KEY,
        project_id text COLLATE "C" NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        status text NOT NULL CHECK (status IN ('queued', 'building', 'succeeded', 'failed', 'canceled')),
        trigger text NOT NULL,
        created_at timestamptz NOT NULL,
        started_at timestamptz,
        finished_at timestamptz,
        source_branch text,
        commit_sha text,
        page_count integer,
        error_code text,
        error_message text
      );
      CREATE INDEX deployments_project_newest ON deployments (project_id, created_at DESC, id DESC);
      CREATE INDEX deployments_status ON deployments (status, created_at, id);
      CREATE UNIQUE INDEX deployments_one_queued ON deployments (project_id) WHERE status = 'queued';
    `,
  },
  {
    version: 2,
    name: 'rate-limit windows',
    // Unlogged: counters of the current minute are not worth a WAL write per request; a database
    // crash empties them, which only gives each client a fresh window once.
    sql: `
      CREATE UNLOGGED TABLE rate_limit_windows (
        bucket text COLLATE "C" NOT NULL,
        window_start bigint NOT NULL,
        count integer NOT NULL,
        PRIMARY KEY (bucket, window_start)
      );
    `,
  },
  {
    version: 3,
    name: 'console users and sessions',
    // One email per user and one user per invite token are constraints, as in the JSON store's
    // indexes. Memberships are a small list read with the user: jsonb, filtered with @>.
    sql: `
      CREATE TABLE users (
        id text COLLATE "C" PRIMARY KEY,
        email text COLLATE "C" NOT NULL UNIQUE,
        password_hash text,
        memberships jsonb NOT NULL,
        invite_hash text COLLATE "C" UNIQUE,
        invite_expires_at timestamptz,
        created_at timestamptz NOT NULL
      );
      CREATE TABLE sessions (
        id text COLLATE "C" PRIMARY KEY,
        hash text COLLATE "C" NOT NULL UNIQUE,
        user_id text COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        org_id text COLLATE "C" NOT NULL,
        csrf_token text NOT NULL,
        created_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL
      );
      CREATE INDEX sessions_user ON sessions (user_id);
    `,
  },
  {
    version: 4,
    name: 'continuous deployment: push webhooks, previews, promote, event webhooks',
    // One queued deployment per project and target: production (no branch) and each preview branch
    // coalesce separately (docs/decisions.md#continuous-deployment).
    sql: `
      ALTER TABLE projects ADD COLUMN webhook_secret text, ADD COLUMN previews boolean, ADD COLUMN preview_branches text,
        ADD COLUMN hook_deliveries text[];
      ALTER TABLE deployments ADD COLUMN branch text, ADD COLUMN preview_label text, ADD COLUMN promoted_from text;
      DROP INDEX deployments_one_queued;
      CREATE UNIQUE INDEX deployments_one_queued ON deployments (project_id, (COALESCE(branch, ''))) WHERE status = 'queued';
      CREATE TABLE webhooks (
        id text COLLATE "C" PRIMARY KEY,
        project_id text COLLATE "C" NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        url text NOT NULL,
        events text[] NOT NULL,
        secret text NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX webhooks_project ON webhooks (project_id, created_at, id);
      CREATE TABLE webhook_deliveries (
        id text COLLATE "C" PRIMARY KEY,
        webhook_id text COLLATE "C" NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
        project_id text COLLATE "C" NOT NULL,
        event text NOT NULL,
        body text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
        attempts integer NOT NULL,
        created_at timestamptz NOT NULL,
        next_attempt_at timestamptz,
        last_attempt_at timestamptz,
        response_code integer,
        last_error text
      );
      CREATE INDEX webhook_deliveries_newest ON webhook_deliveries (webhook_id, created_at DESC, id DESC);
      CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
    `,
  },
  {
    version: 5,
    name: 'job queue: build leases',
    // A worker claims a queued deployment by making it `building` with its own lease_owner and a
    // lease it renews; one whose lease ran out is failed `interrupted` by any node
    // (docs/decisions.md#job-queue-and-node-roles). One building deployment per project is a
    // constraint, so two workers claiming at once cannot both build a project. Deployments left
    // building by a server that ran the earlier in-process queue have no lease: the sweeper ends
    // them; extra ones of a project (several such servers) are ended here so the index can exist.
    // The trigger tells listening nodes (LISTEN folio_queue) that the queue changed.
    sql: `
      ALTER TABLE deployments ADD COLUMN lease_owner text, ADD COLUMN lease_expires_at timestamptz;
      UPDATE deployments SET status = 'failed', finished_at = now(), error_code = 'interrupted',
        error_message = 'the server stopped during the deployment; trigger it again'
        WHERE status = 'building' AND id NOT IN (
          SELECT DISTINCT ON (project_id) id FROM deployments WHERE status = 'building' ORDER BY project_id, started_at DESC NULLS LAST, id);
      CREATE UNIQUE INDEX deployments_one_building ON deployments (project_id) WHERE status = 'building';
      CREATE INDEX deployments_leases ON deployments (lease_expires_at) WHERE status = 'building';
      CREATE FUNCTION folio_queue_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN PERFORM pg_notify('folio_queue', ''); RETURN NULL; END $$;
      CREATE TRIGGER deployments_queue_changed AFTER INSERT OR DELETE OR UPDATE OF status ON deployments
        FOR EACH STATEMENT EXECUTE FUNCTION folio_queue_changed();
    `,
  },
  {
    version: 6,
    name: 'fast redeploys: a deployment can ask for a full build',
    sql: `ALTER TABLE deployments ADD COLUMN full_build boolean;`,
  },
  {
    version: 7,
    name: 'object storage: which build is live',
    // With FOLIO_STORAGE_URL, the build each project (label '') and each preview (its branch label)
    // serves; a change is announced on channel folio_live (docs/decisions.md#object-storage).
    sql: `
      CREATE TABLE live_builds (
        project_id text COLLATE "C" NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        label text COLLATE "C" NOT NULL,
        build_id text COLLATE "C" NOT NULL,
        published_at timestamptz NOT NULL,
        PRIMARY KEY (project_id, label)
      );
      CREATE INDEX live_builds_published ON live_builds (published_at) WHERE label <> '';
    `,
  },
  {
    version: 8,
    name: 'the queue is notified only when a deployment row changes',
    // A statement-level trigger fired on every claim, even one that found nothing to claim, so each
    // node's listener claimed again at once: an idle node spun at hundreds of transactions a second.
    // Row level fires only for rows changed; PostgreSQL folds equal notifications of a transaction
    // into one, so a many-row change still sends one.
    sql: `
      DROP TRIGGER deployments_queue_changed ON deployments;
      CREATE TRIGGER deployments_queue_changed AFTER INSERT OR DELETE OR UPDATE OF status ON deployments
        FOR EACH ROW EXECUTE FUNCTION folio_queue_changed();
    `,
  },
  {
    version: 9,
    name: 'pages, docs.json and snippets of API-managed projects',
    // The content root of a project without a repository, shared by every node
    // (docs/decisions.md#content-written-through-the-api-on-several-nodes): one row per file, and a
    // version per project that each change bumps under its row lock (changes of a project take
    // turns across nodes) and that tells a node whether its copy is current.
    sql: `
      CREATE TABLE project_content (
        project_id text COLLATE "C" PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
        version bigint NOT NULL CHECK (version >= 0)
      );
      CREATE TABLE project_files (
        project_id text COLLATE "C" NOT NULL REFERENCES project_content (project_id) ON DELETE CASCADE,
        -- Relative to the content root: no leading or doubled slash, no "." or ".." segment, no
        -- backslash or control character.
        path text COLLATE "C" NOT NULL CHECK (
          length(path) BETWEEN 1 AND 1024 AND path !~ '(^|/)[.]{0,2}(/|$)' AND path !~ '[\\\\\\x01-\\x1f\\x7f]'
        ),
        content bytea NOT NULL,
        sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (project_id, path)
      );
    `,
  },
  {
    version: 10,
    name: 'content versions never repeat',
    // A project's stored content is dropped when it connects to a repository (postgres/content.ts:
    // reset), and its row made again on the first change after a disconnect. Versions drawn from
    // one sequence, started past every version already stored, never repeat for a project, so no
    // node can take its old copy for the new content because the version numbers met.
    sql: `
      CREATE SEQUENCE project_content_versions;
      SELECT setval('project_content_versions', COALESCE((SELECT max(version) FROM project_content), 0) + 1, false);
    `,
  },
  {
    version: 11,
    name: 'invites that add an existing account to an organization',
    // The memberships an open invite link adds when it is used (docs/decisions.md#invites-prove-the-address).
    sql: `ALTER TABLE users ADD COLUMN invite_joins jsonb;`,
  },
  {
    version: 12,
    name: 'fair build queue: when each organization last started a build',
    // Organizations take turns at the build queue (docs/decisions.md#fair-build-queue): a claim
    // reads each waiting organization's last start by key instead of scanning its deployments.
    sql: `
      CREATE TABLE build_turns (
        org_id text COLLATE "C" PRIMARY KEY REFERENCES orgs (id) ON DELETE CASCADE,
        last_started_at timestamptz NOT NULL
      );
    `,
  },
  {
    version: 13,
    name: 'a deployment counts its build warnings',
    sql: `ALTER TABLE deployments ADD COLUMN warnings integer CHECK (warnings >= 0);`,
  },
  {
    version: 14,
    name: 'a building deployment keeps its latest progress',
    // Written every few seconds by the worker, read by whichever node answers the console or the API.
    sql: `ALTER TABLE deployments ADD COLUMN progress jsonb;`,
  },
];

/** Any number stays unique to Folio's schema lock among other users of the database's advisory locks. */
const MIGRATION_LOCK = 0x466f6c69; // "Foli"

/**
 * Applies the migrations the database lacks, each in its own transaction, and returns the versions
 * applied. Nodes starting at once wait on an advisory lock, so each migration runs exactly once.
 */
export async function migrate(client: ClientBase): Promise<number[]> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
  try {
    await client.query(`CREATE TABLE IF NOT EXISTS folio_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await client.query<{ version: number }>('SELECT version FROM folio_migrations');
    const done = new Set(rows.map((r) => r.version));
    const newest = Math.max(0, ...done);
    const latest = MIGRATIONS[MIGRATIONS.length - 1].version;
    if (newest > latest) {
      throw new Error(`the database's schema is version ${newest}, newer than this Folio knows (${latest}): upgrade Folio before starting it on this database`);
    }
    const applied: number[] = [];
    for (const migration of MIGRATIONS) {
      if (done.has(migration.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query('INSERT INTO folio_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      }
      applied.push(migration.version);
    }
    return applied;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
  }
}
