// `npm run admin -- …`: manages organizations and API keys (docs/decisions.md#tenancy-and-api-keys). When a server holds the
// data dir, the command goes to that server over its admin socket; otherwise the CLI locks the
// data dir and edits the store itself. `store restore` runs only here, with no server running.
// With FOLIO_DATABASE_URL the store is PostgreSQL: every command goes straight to the database,
// whether servers run or not, and `db migrate` / `db import` manage it.
import path from 'node:path';
import {
  ADMIN_USAGE,
  parseAdminArgs,
  runAdminCommand,
  UsageError,
  type AdminCommand,
  type AdminResult,
  type ApiKeyInfo,
  type OfflineCommand,
} from '../src/service/admin-commands.ts';
import { sendAdminCommand } from '../src/service/admin-channel.ts';
import { consoleOrigin, createAccounts, type UserInfo } from '../src/service/accounts.ts';
import { ConfigError, loadConfig, type Config } from '../src/service/config.ts';
import { createMemoryRateLimiter } from '../src/service/rate-limiter.ts';
import { acquireLock, LockHeldError } from '../src/service/data-dir-lock.ts';
import { isFolioError } from '../src/service/errors.ts';
import { createPostgresContent } from '../src/service/postgres/content.ts';
import { migrateDatabase, openPostgresStore } from '../src/service/store/postgres/index.ts';
import { restoreStore } from '../src/service/store-backups.ts';
import { openStore, readStoreRecords, STORE_FILE, StoreDamagedError } from '../src/service/store/json/index.ts';
import type { Store } from '../src/service/store/store.ts';

const RETRY_MS = 10_000;

async function runLocally(config: Config, command: AdminCommand): Promise<AdminResult> {
  const lock = await acquireLock(config.dataDir, 'admin');
  try {
    return await runAndClose(config, await openStore(config.dataDir), command);
  } finally {
    await lock.release();
  }
}

/** Runs the command wherever the store lives now: in a running server, or here. */
async function execute(config: Config, command: AdminCommand): Promise<AdminResult> {
  const { dataDir } = config;
  const deadline = Date.now() + RETRY_MS;
  for (;;) {
    try {
      return await runLocally(config, command);
    } catch (err) {
      if (!(err instanceof LockHeldError)) throw err;
      if (err.owner.role === 'server') {
        try {
          return await sendAdminCommand(dataDir, command);
        } catch (sendErr) {
          // The server may be starting (socket not yet open) or stopping: try again.
          const code = (sendErr as NodeJS.ErrnoException).code;
          if (code !== 'ENOENT' && code !== 'ECONNREFUSED') throw sendErr;
        }
      }
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** `store restore`: the newest good backup replaces the store file; says what may be lost. */
async function restore(dataDir: string, command: Extract<OfflineCommand, { name: 'store restore' }>): Promise<string> {
  let lock;
  try {
    lock = await acquireLock(dataDir, 'admin');
  } catch (err) {
    if (err instanceof LockHeldError) throw new Error(`${err.message}: stop it before restoring the store`, { cause: err });
    throw err;
  }
  try {
    const file = path.join(dataDir, STORE_FILE);
    const outcome = await restoreStore(dataDir, file, command.force);
    const from = outcome.backup.takenAt.toISOString();
    const lost = outcome.lastWriteAt
      ? outcome.lastWriteAt > outcome.backup.takenAt
        ? `Writes acknowledged between ${from} and ${outcome.lastWriteAt.toISOString()} (the replaced file's last write) are lost; everything acknowledged before ${from} is kept.`
        : `The replaced file was last written at ${outcome.lastWriteAt.toISOString()}, before the backup: no acknowledged write is lost.`
      : `There was no store file: nothing acknowledged before ${from} is lost.`;
    return [
      `Restored ${file} from the backup ${outcome.backup.file} (taken at ${from}).`,
      lost,
      ...(outcome.keptAs ? [`The replaced file was kept as ${outcome.keptAs}.`] : []),
    ].join('\n');
  } finally {
    await lock.release();
  }
}

/** Runs a command against PostgreSQL directly: the database serialises it with every node's writes. */
async function runOnDatabase(config: Config, url: string, command: AdminCommand): Promise<AdminResult> {
  return runAndClose(config, await openPostgresStore(url, { poolSize: 1 }), command);
}

/** Runs a command on a store this CLI opened, then closes it (the JSON file or PostgreSQL). */
async function runAndClose(config: Config, store: Store, command: AdminCommand): Promise<AdminResult> {
  const limiter = createMemoryRateLimiter();
  try {
    return await runAdminCommand(store, command, { accounts: createAccounts(store, limiter), consoleOrigin: consoleOrigin(config) });
  } finally {
    limiter.close();
    await store.close();
  }
}

/** `db import`: the data dir's JSON store, locked so that no server changes it meanwhile, copied into PostgreSQL. */
async function importIntoDatabase(url: string, dataDir: string): Promise<string> {
  const lock = await acquireLock(dataDir, 'admin').catch((err: unknown) => {
    if (err instanceof LockHeldError) throw new Error(`${err.message}: stop it before importing its store`);
    throw err;
  });
  try {
    const records = await readStoreRecords(dataDir);
    const store = await openPostgresStore(url, { poolSize: 1 });
    // Projects without a repository: their pages, docs.json and snippets (in this data dir) are
    // stored by a first, empty change each (postgres/content.ts), so every node gets them.
    const written = records.projects.filter((p) => !p.source_repo);
    try {
      await store.importRecords(records);
      const content = createPostgresContent(store.pool, dataDir);
      for (const project of written) await content.change(project.id, async () => {});
    } finally {
      await store.close();
    }
    return `Imported ${records.orgs.length} organization(s), ${records.keys.length} API key(s), ${records.projects.length} project(s) and ` +
      `${records.deployments.length} deployment(s) from ${path.join(dataDir, STORE_FILE)}, and the pages, docs.json and snippets of ` +
      `${written.length} project(s) without a repository. Start Folio with FOLIO_DATABASE_URL set to use them; ` +
      'the data dir keeps the sites, sources and logs.';
  } finally {
    await lock.release();
  }
}

/** The database's URL, required by the `db` commands. */
function databaseUrlOf(url: string | undefined): string {
  if (!url) throw new ConfigError('FOLIO_DATABASE_URL is not set: the db commands work on a PostgreSQL database (postgres://…)');
  return url;
}

const table = (rows: string[][]): string => {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd()).join('\n');
};

const keyRow = (k: ApiKeyInfo) => [
  k.id,
  k.prefix + '…',
  k.org_id,
  k.scopes.join(','),
  k.created_at,
  k.last_used_at ?? 'never',
  k.revoked_at ? `revoked ${k.revoked_at}` : 'active',
];

const userRow = (u: UserInfo) => [
  u.id,
  u.email,
  [...u.memberships.map((m) => `${m.org_id}:${m.role}`), ...u.joining.map((m) => `${m.org_id}:${m.role} (on using the link)`)].join(','),
  u.has_password ? 'yes' : 'invited',
  u.created_at,
];

function formatText(command: AdminCommand, result: AdminResult): string {
  if ('users' in result) {
    return table([['ID', 'EMAIL', 'ORGS', 'PASSWORD', 'CREATED'], ...result.users.map(userRow)]);
  }
  if ('user' in result) {
    const { user } = result;
    const done =
      command.name === 'user remove'
        ? user.memberships.length === 0
          ? `Removed ${user.email} (no organization left, so the user was deleted); their sessions ended.`
          : `Removed ${user.email} from the organization; their sessions ended.`
        : command.name === 'user reset-password'
          ? `Reset the password of ${user.email}: the old one no longer works and every session ended.`
          : user.joining.length > 0
            ? // An existing account: the org is added only through the link (docs/decisions.md#invites-prove-the-address).
              `${user.email} already has an account. They join the organization (${user.joining.at(-1)!.role}) only when they use this link, which also replaces their password; send it to that address.`
            : `${user.email} is a member (${user.memberships.map((m) => m.role).at(-1)}) of the organization.`;
    // The link goes on the last line, alone, so scripts can take it with `tail -n 1`.
    return result.invite_url
      ? `${done}\nSend them this one-time link to choose a password (valid 24 hours, shown only now):\n${result.invite_url}`
      : done;
  }
  if ('orgs' in result) {
    return table([['ID', 'NAME', 'PLAN', 'CREATED'], ...result.orgs.map((o) => [o.id, o.name, o.plan, o.created_at])]);
  }
  if ('org' in result) {
    const { org } = result;
    const verb = command.name === 'org create' ? 'Created organization' : 'Updated organization';
    return `${verb} "${org.name}" (id ${org.id}, plan ${org.plan})`;
  }
  if ('keys' in result) {
    return table([['ID', 'PREFIX', 'ORG', 'SCOPES', 'CREATED', 'LAST USED', 'STATUS'], ...result.keys.map(keyRow)]);
  }
  if ('key' in result) {
    const k = result.api_key;
    return `Created API key ${k.id} for organization ${k.org_id} with scopes ${k.scopes.join(',')}.\n` +
      `The key is shown only this once:\n${result.key}`;
  }
  return `Revoked API key ${result.api_key.id} (${result.api_key.prefix}…)`;
}

async function main(): Promise<number> {
  let parsed: ReturnType<typeof parseAdminArgs>;
  try {
    parsed = parseAdminArgs(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`error: ${err.message}`);
    return 2;
  }
  try {
    const config = loadConfig();
    const { dataDir, databaseUrl } = config;
    const { command } = parsed;
    if (command.name === 'store restore') {
      console.log(await restore(dataDir, command));
      return 0;
    }
    if (command.name === 'db migrate') {
      const { applied, version } = await migrateDatabase(databaseUrlOf(databaseUrl));
      console.log(applied.length ? `Applied migration(s) ${applied.join(', ')}: the database's schema is at version ${version}.` : `The database's schema is already at version ${version}.`);
      return 0;
    }
    if (command.name === 'db import') {
      console.log(await importIntoDatabase(databaseUrlOf(databaseUrl), dataDir));
      return 0;
    }
    const result = databaseUrl ? await runOnDatabase(config, databaseUrl, command) : await execute(config, command);
    console.log(parsed.json ? JSON.stringify(result) : formatText(command, result));
    return 0;
  } catch (err) {
    const known = isFolioError(err) || err instanceof ConfigError || err instanceof LockHeldError || err instanceof StoreDamagedError ||
      parsed.command.name === 'store restore' || parsed.command.name === 'db import' || parsed.command.name === 'db migrate';
    const advice = err instanceof StoreDamagedError ? ` ${err.advice}` : '';
    console.error(`error: ${known ? (err as Error).message + advice : String((err as Error).stack ?? err)}`);
    if (!known) console.error(ADMIN_USAGE);
    return 1;
  }
}

process.exitCode = await main();
