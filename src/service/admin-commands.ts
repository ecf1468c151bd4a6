// The admin CLI's commands (docs/decisions.md#tenancy-and-api-keys): parsed from argv in the CLI, executed against a store
// either by the CLI itself or, when a server holds the data dir, by that server.
import { randomUUID } from 'node:crypto';
import { emailField, roleField, type Accounts, type UserInfo } from './accounts.ts';
import { PLANS, type Plan } from './config.ts';
import { FolioError } from './errors.ts';
import { generateKey } from './keys.ts';
import { parseScopes, type Scope } from './scopes.ts';
import type { ApiKeyRecord, Org, OrgRole } from './store/records.ts';
import type { Store } from './store/store.ts';

export type AdminCommand =
  | { name: 'org create'; org: string; plan: Plan }
  | { name: 'org list' }
  | { name: 'org set-plan'; org: string; plan: Plan }
  | { name: 'key create'; org: string; scopes: Scope[]; label: string }
  | { name: 'key list'; org?: string }
  | { name: 'key revoke'; id: string }
  /** No `role`: the organization's first user becomes its owner, later ones members. */
  | { name: 'user create'; org: string; email: string; role?: OrgRole }
  | { name: 'user list'; org?: string }
  | { name: 'user remove'; org: string; email: string }
  | { name: 'user reset-password'; email: string };

/** What user commands need besides the store: the accounts service and where the console is. */
export interface AdminContext {
  accounts: Accounts;
  /** `http://console.{domain}[:port]`: invite links point into it. */
  consoleOrigin: string;
}

/** Commands the CLI runs itself, with no server on the data dir. */
export type OfflineCommand = { name: 'store restore'; force: boolean } | { name: 'db migrate' } | { name: 'db import' };

/** A key as the admin CLI shows it: never the key value or its hash. */
export type ApiKeyInfo = Omit<ApiKeyRecord, 'hash'>;

export type AdminResult =
  | { org: Org }
  | { orgs: Org[] }
  | { key: string; api_key: ApiKeyInfo }
  | { keys: ApiKeyInfo[] }
  | { api_key: ApiKeyInfo }
  /** `invite_url`: the one-time link to choose a password (user create, user reset-password). */
  | { user: UserInfo; invite_url?: string }
  | { users: UserInfo[] };

export const ADMIN_USAGE = `usage: npm run admin -- COMMAND [--json]
  org create NAME [--plan free|pro|business]
  org list
  org set-plan NAME_OR_ID free|pro|business
  key create --org NAME_OR_ID [--scopes all|SCOPE,SCOPE…] [--name LABEL]
  key list [--org NAME_OR_ID]
  key revoke KEY_ID
  user create --org NAME_OR_ID --email EMAIL [--role owner|member]   (default: owner for an organization's first user)
  user list [--org NAME_OR_ID]
  user remove --org NAME_OR_ID --email EMAIL
  user reset-password EMAIL
  store restore [--force]   (with the server stopped)
  db migrate                (FOLIO_DATABASE_URL: apply the schema's missing migrations)
  db import                 (FOLIO_DATABASE_URL: copy the data dir's JSON store into an empty database)`;

export class UsageError extends Error {
  override name = 'UsageError';
}

function parsePlan(value: string | undefined): Plan {
  if (!(PLANS as readonly (string | undefined)[]).includes(value)) {
    throw new UsageError(`plan must be one of ${PLANS.join(', ')} (got ${JSON.stringify(value ?? '')})`);
  }
  return value as Plan;
}

/** Splits argv into positionals and --options (`--x value` or `--x=value`; `--json` is a flag). */
function splitArgs(argv: string[]): { positional: string[]; options: Map<string, string>; json: boolean; force: boolean } {
  const positional: string[] = [];
  const options = new Map<string, string>();
  let json = false;
  let force = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--json') json = true;
    else if (arg === '--force') force = true;
    else if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      options.set(name, value);
    } else positional.push(arg);
  }
  return { positional, options, json, force };
}

/** Parses the CLI's arguments; throws a UsageError saying what is wrong. */
export function parseAdminArgs(argv: string[]): { command: AdminCommand | OfflineCommand; json: boolean } {
  const { positional, options, json, force } = splitArgs(argv);
  const [group, action, ...rest] = positional;
  const allow = (names: string[], count: number) => {
    for (const name of options.keys()) if (!names.includes(name)) throw new UsageError(`unknown option --${name} for "${group} ${action}"`);
    if (rest.length !== count) throw new UsageError(`"${group} ${action}" takes ${count} argument(s)\n${ADMIN_USAGE}`);
    if (force && `${group} ${action}` !== 'store restore') throw new UsageError(`unknown option --force for "${group} ${action}"`);
  };
  const command = ((): AdminCommand | OfflineCommand => {
    switch (`${group} ${action}`) {
      case 'store restore':
        allow([], 0);
        return { name: 'store restore', force };
      case 'db migrate':
      case 'db import':
        allow([], 0);
        return { name: `db ${action}` as 'db migrate' | 'db import' };
      case 'org create':
        allow(['plan'], 1);
        return { name: 'org create', org: checkOrgName(rest[0]), plan: parsePlan(options.get('plan') ?? 'free') };
      case 'org list':
        allow([], 0);
        return { name: 'org list' };
      case 'org set-plan':
        allow([], 2);
        return { name: 'org set-plan', org: rest[0], plan: parsePlan(rest[1]) };
      case 'key create': {
        allow(['org', 'scopes', 'name'], 0);
        const org = options.get('org');
        if (!org) throw new UsageError('key create needs --org NAME_OR_ID');
        let scopes: Scope[];
        try {
          scopes = parseScopes(options.get('scopes') ?? 'all');
        } catch (err) {
          throw new UsageError((err as Error).message);
        }
        return { name: 'key create', org, scopes, label: options.get('name') ?? '' };
      }
      case 'key list':
        allow(['org'], 0);
        return { name: 'key list', org: options.get('org') };
      case 'key revoke':
        allow([], 1);
        return { name: 'key revoke', id: rest[0] };
      case 'user create': {
        allow(['org', 'email', 'role'], 0);
        return { name: 'user create', org: requireOption(options, 'org', 'user create'), email: checkEmail(requireOption(options, 'email', 'user create')), role: options.has('role') ? checkRole(options.get('role')!) : undefined };
      }
      case 'user list':
        allow(['org'], 0);
        return { name: 'user list', org: options.get('org') };
      case 'user remove':
        allow(['org', 'email'], 0);
        return { name: 'user remove', org: requireOption(options, 'org', 'user remove'), email: checkEmail(requireOption(options, 'email', 'user remove')) };
      case 'user reset-password':
        allow([], 1);
        return { name: 'user reset-password', email: checkEmail(rest[0]) };
      default:
        throw new UsageError(`unknown command "${positional.join(' ')}"\n${ADMIN_USAGE}`);
    }
  })();
  return { command, json };
}

function requireOption(options: Map<string, string>, name: string, command: string): string {
  const value = options.get(name);
  if (!value) throw new UsageError(`${command} needs --${name}`);
  return value;
}

function checkEmail(value: string): string {
  const parsed = emailField.safeParse(value);
  if (!parsed.success) throw new UsageError(parsed.error.issues[0].message);
  return parsed.data;
}

function checkRole(value: string): OrgRole {
  const parsed = roleField.safeParse(value);
  if (!parsed.success) throw new UsageError(parsed.error.issues[0].message);
  return parsed.data;
}

function checkOrgName(name: string): string {
  const length = [...name].length;
  if (length < 1 || length > 80 || name.trim() === '' || /\p{Cc}/u.test(name)) {
    throw new UsageError('organization NAME must be 1 to 80 characters, not blank, without control characters');
  }
  return name;
}

const keyInfo = ({ hash: _hash, ...info }: ApiKeyRecord): ApiKeyInfo => info;

async function findOrg(store: Store, nameOrId: string): Promise<Org> {
  const org = await store.findOrg(nameOrId);
  if (!org) throw new FolioError('not_found', `organization "${nameOrId}" not found`);
  return org;
}

/** Creates an org (used by the CLI and by the server's first start). */
export async function createOrg(store: Store, name: string, plan: Plan): Promise<Org> {
  return store.createOrg({ id: randomUUID(), name, plan, created_at: new Date().toISOString() });
}

/** Creates a key for an org; returns the key value, which is shown once and never stored. */
export async function createKey(store: Store, orgId: string, scopes: Scope[], label: string) {
  const { key, record } = generateKey(orgId, scopes, label);
  const stored = await store.createKey(record);
  return { key, api_key: keyInfo(stored) };
}

const inviteUrl = (context: AdminContext, token: string) => `${context.consoleOrigin}/invite/${token}`;

/** Executes a command against a store. */
export async function runAdminCommand(store: Store, command: AdminCommand, context: AdminContext): Promise<AdminResult> {
  switch (command.name) {
    case 'org create':
      return { org: await createOrg(store, command.org, command.plan) };
    case 'org list':
      return { orgs: await store.listOrgs() };
    case 'org set-plan':
      return { org: await store.setOrgPlan((await findOrg(store, command.org)).id, command.plan) };
    case 'key create':
      return createKey(store, (await findOrg(store, command.org)).id, command.scopes, command.label);
    case 'key list': {
      const orgId = command.org === undefined ? undefined : (await findOrg(store, command.org)).id;
      return { keys: (await store.listKeys(orgId)).map(keyInfo) };
    }
    case 'key revoke':
      return { api_key: keyInfo(await store.revokeKey(command.id, new Date().toISOString())) };
    case 'user create': {
      const { user, inviteToken } = await context.accounts.addUser(await findOrg(store, command.org), command.email, command.role);
      return { user, invite_url: inviteUrl(context, inviteToken) };
    }
    case 'user list': {
      const orgId = command.org === undefined ? undefined : (await findOrg(store, command.org)).id;
      return { users: await context.accounts.listUsers(orgId) };
    }
    case 'user remove':
      return { user: await context.accounts.removeFromOrg((await findOrg(store, command.org)).id, command.email) };
    case 'user reset-password': {
      const { user, inviteToken } = await context.accounts.resetPassword(command.email);
      return { user, invite_url: inviteUrl(context, inviteToken) };
    }
  }
}
