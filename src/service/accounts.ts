// Console accounts (docs/decisions.md#console): users, their organizations and roles, passwords,
// one-time invite links and signed-in sessions. No HTTP here: the console pages (src/console/)
// and the admin CLI call these functions.
import { hash, randomBytes, randomUUID, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { z } from 'zod';
import { publicOrigin, type Config } from './config.ts';
import { FolioError } from './errors.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type { Membership, Org, OrgRole, SessionRecord, UserInvite, UserRecord } from './store/records.ts';
import type { Store } from './store/store.ts';

export const MIN_PASSWORD_LENGTH = 12;
/** Long enough for any passphrase, short enough that hashing it costs nothing extra. */
export const MAX_PASSWORD_LENGTH = 256;
export const INVITE_TTL_MS = 24 * 60 * 60 * 1000;
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000;
/** Failed sign-ins allowed per minute, per client IP and per email, before 429. */
export const SIGN_IN_FAILURES_PER_MINUTE = 10;
export const ROLES = ['owner', 'member'] as const;
/**
 * The stand-in address of the account `npm start` makes on an empty store, before anyone has one:
 * its one-time link asks for the holder's own address (docs/decisions.md#a-console-people-enjoy).
 * `.invalid` is reserved (RFC 2606), so no one can be invited under it.
 */
export const FIRST_OWNER_EMAIL = 'first-owner@folio.invalid';

// scrypt with N=2^15, r=8 (32 MiB of memory per hash, OWASP's minimum for scrypt): memory-hard, so
// a stolen store cannot be guessed through on GPUs cheaply. Each user has a random 16-byte salt.
const SCRYPT = { N: 2 ** 15, r: 8, p: 1 };
const SCRYPT_KEY_BYTES = 32;

const scryptAsync = (password: string, salt: Buffer, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, SCRYPT_KEY_BYTES, { ...options, maxmem: 128 * options.N! * options.r! * 2 }, (err, key) =>
      err ? reject(err) : resolve(key)));

/** The stored form of a password: `scrypt$N$r$p$salt$hash`, salt and hash in base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Compares in constant time; false for any malformed stored value. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await scryptAsync(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * Hashed in place of a user's when the email is unknown (or has no password yet), so that a wrong
 * email costs the same time as a wrong password and answers the same.
 */
let decoy: Promise<string> | undefined;
const decoyHash = () => (decoy ??= hashPassword(randomBytes(16).toString('hex')));

const sha256 = (text: string) => hash('sha256', text, 'hex');
const secret = () => randomBytes(32).toString('base64url');

// Zod schemas of the console's forms and the admin CLI, with messages naming the field.
export const emailField = z
  .string({ error: 'email is required' })
  .trim()
  .toLowerCase()
  .pipe(z.string().max(254, 'email must be at most 254 characters').regex(/^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/, 'email must be an address such as ada@example.com'));

export const newPasswordField = z
  .string({ error: 'password is required' })
  .refine((s) => [...s].length >= MIN_PASSWORD_LENGTH, `password must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .refine((s) => [...s].length <= MAX_PASSWORD_LENGTH, `password must be at most ${MAX_PASSWORD_LENGTH} characters`);

export const roleField = z.enum(ROLES, { error: `role must be one of ${ROLES.join(', ')}` });

/** A user as the CLI and the console show one: never a hash or token. */
export interface UserInfo {
  id: string;
  email: string;
  memberships: Membership[];
  /** False until the invite link was used. */
  has_password: boolean;
  /** Organizations the user joins only once they use their open invite link (an existing account added to them). */
  joining: Membership[];
  created_at: string;
}

/** The memberships an unexpired invite link adds when it is used. */
const joinsOnInvite = (u: UserRecord): Membership[] =>
  u.invite && u.invite.expires_at > new Date().toISOString() ? (u.invite.joins ?? []) : [];

export const userInfo = (u: UserRecord): UserInfo => ({
  id: u.id,
  email: u.email,
  memberships: u.memberships.map((m) => ({ ...m })),
  has_password: u.password_hash !== undefined,
  joining: joinsOnInvite(u).map((m) => ({ ...m })),
  created_at: u.created_at,
});

/** Who a console request comes from. */
export interface SignedIn {
  session: SessionRecord;
  user: UserRecord;
  org: Org;
  role: OrgRole;
}

export type SignInResult =
  | { ok: true; sessionSecret: string; session: SessionRecord }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'rate_limited'; retryAfter: number };

export interface Accounts {
  /**
   * The operator's `user create`: creates a user with a one-time link to choose a password, or, for
   * an existing account, makes a fresh link that adds the org only when it is used and replaces the
   * password (docs/decisions.md#invites-prove-the-address): until then the account is not in the org.
   * Without `role`, the org's first user (counting those its open links add) becomes its owner.
   */
  addUser(org: Org, email: string, role?: OrgRole): Promise<{ user: UserInfo; inviteToken: string }>;
  /**
   * An owner's invite from the console: creates a new user only. An existing account (of another
   * org) is refused: its one-time link, or its membership, would hand that account, or this org,
   * to whoever holds the other side (docs/decisions.md#console). The operator's CLI can add it.
   */
  inviteNewUser(org: Org, email: string, role: OrgRole): Promise<{ user: UserInfo; inviteToken: string }>;
  /** A new one-time link for a user (a password reset): their password and sessions end now. */
  resetPassword(email: string): Promise<{ user: UserInfo; inviteToken: string }>;
  /** Takes a user out of an org; a user left without an org is removed. Their sessions end. */
  removeFromOrg(orgId: string, email: string): Promise<UserInfo>;
  listUsers(orgId?: string): Promise<UserInfo[]>;
  /** The user an unexpired invite token belongs to. */
  findInvite(token: string): Promise<UserInfo | undefined>;
  /**
   * Sets the password of an invite's user and adds the organizations the link joins; the token is
   * used up and every session of the user ends. The first owner's link (`firstOwnerLink`) also
   * needs `email`, the holder's own address, which becomes the account's.
   */
  acceptInvite(token: string, password: string, email?: string): Promise<UserInfo | undefined>;
  /**
   * On an empty store (`npm start`'s first run): a one-time link that makes its holder the org's
   * first owner; they choose their address and password on the link's page.
   */
  firstOwnerLink(org: Org): Promise<string>;
  /** Starts a session of a user who just proved who they are (an invite's password set). */
  startSession(userId: string): Promise<{ sessionSecret: string; session: SessionRecord }>;
  /** Checks email and password (rate limited per IP and email) and starts a session. */
  signIn(email: string, password: string, clientIp: string): Promise<SignInResult>;
  /** The signed-in user of a session secret (from the cookie), or undefined; records its use (at `nowMs`). */
  session(secret: string, nowMs?: number): Promise<SignedIn | undefined>;
  signOut(sessionId: string): Promise<void>;
  /**
   * Changes a password after checking the current one; every other session of the user ends. A
   * wrong current password counts as a failed sign-in of the account (`rate_limited` beyond 10).
   */
  changePassword(signedIn: SignedIn, current: string, next: string): Promise<boolean>;
  /** Shows another org of the user in this session. */
  switchOrg(signedIn: SignedIn, orgId: string): Promise<void>;
}

export function createAccounts(store: Store, limiter: RateLimiter): Accounts {
  void decoyHash(); // ready before the first sign-in, so that one is timed like the others
  const findUser = async (email: string) => {
    const user = await store.findUserByEmail(email);
    if (!user) throw new FolioError('not_found', `no user with the email "${email}"`);
    return user;
  };
  /** A one-time link; `joins`: the memberships it adds when used. */
  const newInvite = (joins: Membership[] = []) => {
    const token = secret();
    const invite: UserInvite = { hash: sha256(token), expires_at: new Date(Date.now() + INVITE_TTL_MS).toISOString() };
    if (joins.length > 0) invite.joins = joins;
    return { token, invite };
  };
  const inviteUser = async (token: string) => {
    const user = await store.findUserByInviteHash(sha256(token));
    return user?.invite && user.invite.expires_at > new Date().toISOString() ? user : undefined;
  };

  /** `ownerInvite`: an existing account (another org's) is refused, see `inviteNewUser`. */
  const addUser = async (org: Org, email: string, role: OrgRole, ownerInvite: boolean) => {
    const existing = await store.findUserByEmail(email);
    if (existing) {
      if (existing.memberships.some((m) => m.org_id === org.id)) {
        throw new FolioError('name_taken', `${email} is already a member of the organization "${org.name}"`);
      }
      if (ownerInvite) {
        throw new FolioError(
          'name_taken',
          `${email} already has a Folio account; an owner cannot add an existing account, the server's operator can (npm run admin -- user create --org ${org.name} --email ${email})`,
        );
      }
      // Folio checks no address: the account's password, or its open link, is whoever's its first
      // org gave the link to (an owner may have invited someone else's address and chosen the
      // password). So the org is added only through a fresh link, sent to the address, whose use
      // replaces the password and ends every session; the old link stops working now. Organizations
      // an earlier link of the operator's would have added stay in the new one.
      const joins = [...joinsOnInvite(existing).filter((m) => m.org_id !== org.id), { org_id: org.id, role }];
      const { token, invite } = newInvite(joins);
      return { user: userInfo(await store.updateUser(existing.id, { invite })), inviteToken: token };
    }
    const { token, invite } = newInvite();
    const user = await store.createUser({ id: randomUUID(), email, memberships: [{ org_id: org.id, role }], invite, created_at: new Date().toISOString() });
    return { user: userInfo(user), inviteToken: token };
  };

  /** Whether an org has no user yet, none invited through a link either. */
  const firstOfOrg = async (orgId: string) =>
    (await store.listUsers()).every((u) => !u.memberships.some((m) => m.org_id === orgId) && !joinsOnInvite(u).some((m) => m.org_id === orgId));

  /** Serialises the tasks of one key (in this process), in arrival order. */
  const queues = new Map<string, Promise<unknown>>();
  const oneAtATime = <T>(key: string, task: () => Promise<T>): Promise<T> => {
    const result = (queues.get(key) ?? Promise.resolve()).then(task);
    const tail = result.catch(() => undefined);
    queues.set(key, tail);
    void tail.then(() => {
      if (queues.get(key) === tail) queues.delete(key);
    });
    return result;
  };

  const attemptSignIn = async (buckets: readonly string[], email: string, password: string): Promise<SignInResult> => {
    // Only failures count, so a user who types correctly is never locked out by their own use.
    for (const bucket of buckets) {
      const used = await limiter.peek(bucket, SIGN_IN_FAILURES_PER_MINUTE);
      if (used.remaining === 0) return { ok: false, reason: 'rate_limited', retryAfter: used.retryAfter };
    }
    const user = await store.findUserByEmail(email);
    // The same work whether or not the email is known, and the same answer.
    const valid = await verifyPassword(password, user?.password_hash ?? (await decoyHash()));
    if (!user?.password_hash || !valid || user.memberships.length === 0) {
      for (const bucket of buckets) await limiter.hit(bucket, SIGN_IN_FAILURES_PER_MINUTE);
      return { ok: false, reason: 'invalid' };
    }
    return { ok: true, ...(await startSession(user)) };
  };

  const startSession = async (user: UserRecord) => {
    const sessionSecret = secret();
    const now = new Date().toISOString();
    const session = await store.createSession({
      id: randomUUID(),
      hash: sha256(sessionSecret),
      user_id: user.id,
      org_id: user.memberships[0].org_id,
      csrf_token: secret(),
      created_at: now,
      last_seen_at: now,
    });
    return { sessionSecret, session };
  };

  /** The first owner's link used: the holder's address replaces the stand-in (a new account, the stand-in goes). */
  const claimFirstOwner = async (placeholder: UserRecord, email: string | undefined, passwordHash: string) => {
    const parsed = emailField.safeParse(email ?? '');
    if (!parsed.success) throw new FolioError('invalid_request', parsed.error.issues[0].message);
    if (parsed.data.endsWith('.invalid')) throw new FolioError('invalid_request', 'email must be your own address, such as ada@example.com');
    if (await store.findUserByEmail(parsed.data)) {
      throw new FolioError('name_taken', `${parsed.data} already has a Folio account: sign in with it, or use another address`);
    }
    await store.deleteUser(placeholder.id);
    return store.createUser({ id: randomUUID(), email: parsed.data, memberships: placeholder.memberships, password_hash: passwordHash, created_at: new Date().toISOString() });
  };

  return {
    addUser: async (org, email, role) => addUser(org, email, role ?? (await firstOfOrg(org.id) ? 'owner' : 'member'), false),
    inviteNewUser: (org, email, role) => addUser(org, email, role, true),

    async resetPassword(email) {
      const user = await findUser(email);
      const { token, invite } = newInvite(joinsOnInvite(user));
      await store.deleteUserSessions(user.id);
      // The old password stops working at once: whoever asked for the reset may fear it is known.
      const updated = await store.updateUser(user.id, { invite, password_hash: await hashPassword(secret()) });
      return { user: { ...userInfo(updated), has_password: false }, inviteToken: token };
    },

    async removeFromOrg(orgId, email) {
      const user = await findUser(email);
      const memberships = user.memberships.filter((m) => m.org_id !== orgId);
      const joins = joinsOnInvite(user);
      if (memberships.length === user.memberships.length) {
        // Not a member yet, only invited: the link no longer adds the org.
        if (!user.invite || !joins.some((m) => m.org_id === orgId)) throw new FolioError('not_found', `${email} is not a member of this organization`);
        return userInfo(await store.updateUser(user.id, { invite: { ...user.invite, joins: joins.filter((m) => m.org_id !== orgId) } }));
      }
      if (memberships.length === 0) {
        await store.deleteUser(user.id);
        return userInfo({ ...user, memberships });
      }
      await store.deleteUserSessions(user.id);
      return userInfo(await store.updateUser(user.id, { memberships }));
    },

    async listUsers(orgId) {
      return (await store.listUsers(orgId)).map(userInfo);
    },

    async findInvite(token) {
      const user = await inviteUser(token);
      return user && userInfo(user);
    },

    // One use at a time per link: two tabs sending the first owner's page at once make one owner.
    acceptInvite: (token, password, email) => oneAtATime(`invite:${sha256(token)}`, async () => {
      const user = await inviteUser(token);
      if (!user) return undefined;
      if (user.email === FIRST_OWNER_EMAIL) return userInfo(await claimFirstOwner(user, email, await hashPassword(password)));
      const joins = joinsOnInvite(user).filter((j) => !user.memberships.some((m) => m.org_id === j.org_id));
      const updated = await store.updateUser(user.id, {
        password_hash: await hashPassword(password),
        invite: null,
        ...(joins.length > 0 && { memberships: [...user.memberships, ...joins] }),
      });
      await store.deleteUserSessions(user.id);
      return userInfo(updated);
    }),

    async firstOwnerLink(org) {
      const existing = await store.findUserByEmail(FIRST_OWNER_EMAIL);
      if (existing) await store.deleteUser(existing.id);
      return (await addUser(org, FIRST_OWNER_EMAIL, 'owner', false)).inviteToken;
    },

    async startSession(userId) {
      const user = await store.getUser(userId);
      if (!user || user.memberships.length === 0) throw new FolioError('not_found', `user ${userId} not found`);
      return startSession(user);
    },

    signIn: (email, password, clientIp) => {
      const buckets = [`sign-in-ip:${clientIp}`, `sign-in-email:${email}`] as const;
      // One attempt at a time per IP and per email (always in this order, so none waits on another
      // in a circle): otherwise a burst of parallel guesses all pass the check before the first
      // failure is counted, and the limit of 10 a minute becomes one of hundreds.
      return oneAtATime(buckets[0], () => oneAtATime(buckets[1], () => attemptSignIn(buckets, email, password)));
    },
    async session(secretValue, now = Date.now()) {
      if (secretValue.length > 100) return undefined;
      const session = await store.findSessionByHash(sha256(secretValue));
      if (!session) return undefined;
      if (Date.parse(session.last_seen_at) + SESSION_IDLE_MS < now) {
        await store.deleteSession(session.id);
        return undefined;
      }
      const user = await store.getUser(session.user_id);
      // The org shown may have been taken from the user since: fall back to another of theirs.
      const membership = user?.memberships.find((m) => m.org_id === session.org_id) ?? user?.memberships[0];
      const org = membership && (await store.getOrg(membership.org_id));
      if (!user || !membership || !org) {
        await store.deleteSession(session.id);
        return undefined;
      }
      store.touchSession(session.id, new Date(now).toISOString());
      return { session: { ...session, org_id: org.id }, user, org, role: membership.role };
    },

    async signOut(sessionId) {
      await store.deleteSession(sessionId);
    },

    // A wrong current password counts as a failed sign-in of the account: a stolen session must
    // not be a way to guess the password (and then lock its owner out) without limit.
    changePassword: (signedIn, current, next) =>
      oneAtATime(`sign-in-email:${signedIn.user.email}`, async () => {
        const bucket = `sign-in-email:${signedIn.user.email}`;
        const used = await limiter.peek(bucket, SIGN_IN_FAILURES_PER_MINUTE);
        if (used.remaining === 0) throw new FolioError('rate_limited', `too many wrong passwords: wait ${used.retryAfter} seconds, then try again`);
        const user = await store.getUser(signedIn.user.id);
        if (!user?.password_hash || !(await verifyPassword(current, user.password_hash))) {
          await limiter.hit(bucket, SIGN_IN_FAILURES_PER_MINUTE);
          return false;
        }
        await store.updateUser(user.id, { password_hash: await hashPassword(next) });
        await store.deleteUserSessions(user.id, signedIn.session.id);
        return true;
      }),

    async switchOrg(signedIn, orgId) {
      if (!signedIn.user.memberships.some((m) => m.org_id === orgId)) throw new FolioError('not_found', `organization ${orgId} not found`);
      await store.setSessionOrg(signedIn.session.id, orgId);
    },
  };
}

/** The console's host name: `console.{FOLIO_SERVICE_DOMAIN}` (a reserved label, never a project). */
export const consoleHost = (config: Pick<Config, 'serviceDomain'>) => `console.${config.serviceDomain}`;

/** The console's origin as browsers reach it, for invite links and the console's Origin check. */
export const consoleOrigin = (config: Pick<Config, 'serviceDomain' | 'publicScheme' | 'publicPort' | 'port'>) => publicOrigin(config, consoleHost(config));
