// Unit tests of console accounts (src/service/accounts.ts) on both real stores (the JSON file and
// PostgreSQL): scrypt hashes with a salt per user, sessions stored hashed that end after 7 idle
// days, at sign-out, at a password change (the others) and a reset (all), invites that expire and
// work once, removal from orgs.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createAccounts, hashPassword, SESSION_IDLE_MS, verifyPassword } from '../../src/service/accounts.ts';
import { createMemoryRateLimiter } from '../../src/service/rate-limiter.ts';
import { openPostgresStore } from '../../src/service/store/postgres/index.ts';
import { openStore, STORE_FILE } from '../../src/service/store/json/index.ts';
import type { Org } from '../../src/service/store/records.ts';
import type { Store } from '../../src/service/store/store.ts';
import { createTestDatabase } from '../helpers/postgres.ts';
import { removeDir, tempDataDir } from '../helpers/server.ts';

const PASSWORD = 'a long enough password';
const dirs: string[] = [];
const limiter = createMemoryRateLimiter();
afterAll(async () => {
  limiter.close();
  for (const dir of dirs) await removeDir(dir);
});

/** What a test reads of the stored data, to prove secrets are not in it. */
type Opened = { store: Store; storedText: () => Promise<string> };

const backends = [
  {
    name: 'JSON-file store',
    async open(): Promise<Opened> {
      const dir = await tempDataDir();
      dirs.push(dir);
      const store = await openStore(dir);
      return { store, storedText: () => readFile(path.join(dir, STORE_FILE), 'utf8') };
    },
  },
  {
    name: 'PostgreSQL store',
    async open(): Promise<Opened> {
      const store = await openPostgresStore(await createTestDatabase(inject('postgresUrl')));
      const storedText = async () => JSON.stringify([(await store.pool.query('SELECT * FROM users')).rows, (await store.pool.query('SELECT * FROM sessions')).rows]);
      return { store, storedText };
    },
  },
];

async function setup(open: () => Promise<Opened>) {
  const { store, storedText } = await open();
  const org: Org = { id: crypto.randomUUID(), name: 'acme', plan: 'free', created_at: new Date().toISOString() };
  await store.createOrg(org);
  const accounts = createAccounts(store, limiter);
  /** A user with a password, signed in; returns the session secret. */
  const member = async (email: string) => {
    const { inviteToken } = await accounts.addUser(org, email, 'member');
    await accounts.acceptInvite(inviteToken!, PASSWORD);
    const result = await accounts.signIn(email, PASSWORD, `10.0.0.${dirs.length}`);
    if (!result.ok) throw new Error('sign-in failed');
    return result.sessionSecret;
  };
  return { storedText, store, org, accounts, member };
}

describe.each(backends)('console accounts on the $name', ({ open }) => {
  it('hashes passwords with scrypt and a salt of their own', async () => {
    const a = await hashPassword(PASSWORD);
    const b = await hashPassword(PASSWORD);
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword(PASSWORD, a)).toBe(true);
    expect(await verifyPassword(`${PASSWORD}!`, a)).toBe(false);
    expect(await verifyPassword(PASSWORD, 'garbage')).toBe(false);
  });

  it('keeps sessions only hashed, and ends one after 7 idle days', async () => {
    const { storedText, store, accounts, member } = await setup(open);
    const secret = await member('ada@example.com');
    const signedIn = (await accounts.session(secret))!;
    expect(signedIn.user.email).toBe('ada@example.com');
    const file = await storedText();
    expect(file).not.toContain(secret);
    expect(file).not.toContain(PASSWORD);
    // Used 6 days later: still signed in, and the 7 days start again from that use.
    const day = 24 * 60 * 60 * 1000;
    expect(await accounts.session(secret, Date.now() + 6 * day)).toBeDefined();
    expect(await accounts.session(secret, Date.now() + 12 * day)).toBeDefined();
    // Then 7 idle days and a bit: ended, not only refused, so an earlier clock does not bring it back.
    expect(await accounts.session(secret, Date.now() + 12 * day + SESSION_IDLE_MS + 1000)).toBeUndefined();
    expect(await accounts.session(secret)).toBeUndefined();
    await store.close();
  });

  it('ends the other sessions at a password change, all of them at a reset', async () => {
    const { store, accounts, member } = await setup(open);
    const first = await member('bo@example.com');
    const second = await accounts.signIn('bo@example.com', PASSWORD, '10.1.0.1');
    if (!second.ok) throw new Error('second sign-in failed');
    const current = (await accounts.session(first))!;
    expect(await accounts.changePassword(current, 'not the password', 'another long password')).toBe(false);
    expect(await accounts.changePassword(current, PASSWORD, 'another long password')).toBe(true);
    expect(await accounts.session(first)).toBeDefined();
    expect(await accounts.session(second.sessionSecret)).toBeUndefined();
    expect((await accounts.signIn('bo@example.com', PASSWORD, '10.1.0.2')).ok).toBe(false);
    expect((await accounts.signIn('bo@example.com', 'another long password', '10.1.0.2')).ok).toBe(true);

    const { inviteToken } = await accounts.resetPassword('bo@example.com');
    expect(await accounts.session(first)).toBeUndefined();
    expect((await accounts.signIn('bo@example.com', 'another long password', '10.1.0.3')).ok).toBe(false);
    expect((await accounts.findInvite(inviteToken))?.email).toBe('bo@example.com');
    await accounts.acceptInvite(inviteToken, 'the third long password');
    expect(await accounts.findInvite(inviteToken)).toBeUndefined();
    expect((await accounts.signIn('bo@example.com', 'the third long password', '10.1.0.3')).ok).toBe(true);
    await store.close();
  });

  it('lets an invite expire after 24 hours and removes a user with their last organization', async () => {
    const { store, org, accounts, member } = await setup(open);
    const { user, inviteToken } = await accounts.addUser(org, 'late@example.com', 'member');
    await store.updateUser(user.id, { invite: { hash: (await store.getUser(user.id))!.invite!.hash, expires_at: new Date(Date.now() - 1).toISOString() } });
    expect(await accounts.findInvite(inviteToken!)).toBeUndefined();
    expect(await accounts.acceptInvite(inviteToken!, PASSWORD)).toBeUndefined();

    const secret = await member('leaving@example.com');
    await accounts.removeFromOrg(org.id, 'leaving@example.com');
    expect(await accounts.session(secret)).toBeUndefined();
    expect(await store.findUserByEmail('leaving@example.com')).toBeUndefined();
    await expect(accounts.removeFromOrg(org.id, 'leaving@example.com')).rejects.toThrow(/no user/);
    await store.close();
  });

  it('adds an existing account to another organization only through a fresh link that replaces its password', async () => {
    const { store, org, accounts, member } = await setup(open);
    const other: Org = { id: crypto.randomUUID(), name: 'victim', plan: 'free', created_at: new Date().toISOString() };
    const third: Org = { id: crypto.randomUUID(), name: 'third', plan: 'free', created_at: new Date().toISOString() };
    await store.createOrg(other);
    await store.createOrg(third);
    // Whoever chose this account's password (the inviting owner of acme, say) keeps its session...
    const chosenByInviter = await member('someone@example.com');
    const added = await accounts.addUser(other, 'someone@example.com', 'owner');
    expect(added.user.memberships.map((m) => m.org_id)).toEqual([org.id]);
    expect(added.user.joining).toEqual([{ org_id: other.id, role: 'owner' }]);
    // ...but it is not in the new org, and no new sign-in is either.
    expect((await accounts.session(chosenByInviter))?.user.memberships.map((m) => m.org_id)).toEqual([org.id]);
    const signedIn = (await accounts.session(chosenByInviter))!;
    await expect(accounts.switchOrg(signedIn, other.id)).rejects.toThrow(/not found/);
    expect((await accounts.listUsers(other.id)).map((u) => u.email)).toEqual([]);
    // A second org of the operator's, and a reset, keep the first in the (new) link; a removal takes it out.
    await accounts.addUser(third, 'someone@example.com', 'member');
    expect(await accounts.findInvite(added.inviteToken)).toBeUndefined();
    expect((await accounts.removeFromOrg(third.id, 'someone@example.com')).joining).toEqual([{ org_id: other.id, role: 'owner' }]);
    const { inviteToken } = await accounts.resetPassword('someone@example.com');
    expect((await accounts.findInvite(inviteToken))?.joining).toEqual([{ org_id: other.id, role: 'owner' }]);

    // The person at the address uses the link: member of both, the inviter's password and session gone.
    const joined = (await accounts.acceptInvite(inviteToken, 'the address owner password'))!;
    expect(joined.memberships).toEqual([{ org_id: org.id, role: 'member' }, { org_id: other.id, role: 'owner' }]);
    expect(joined.joining).toEqual([]);
    expect(await accounts.session(chosenByInviter)).toBeUndefined();
    expect((await accounts.signIn('someone@example.com', PASSWORD, '10.2.0.1')).ok).toBe(false);
    expect((await accounts.signIn('someone@example.com', 'the address owner password', '10.2.0.1')).ok).toBe(true);
    expect((await store.getUser(joined.id))!.invite).toBeUndefined();
    await store.close();
  });
});
