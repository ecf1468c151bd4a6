// The PostgreSQL store: console users and their sessions.
import { FolioError } from '../../errors.ts';
import type { SessionRecord, UserChanges, UserRecord } from '../records.ts';
import type { AccountStore } from '../store.ts';
import { FOREIGN_KEY_VIOLATION, inviteColumns, pgError, sessionOf, UNIQUE_VIOLATION, userOf, type PostgresDatabase } from './database.ts';

export function postgresAccounts(db: PostgresDatabase): AccountStore {
  return {
    async createUser(user: UserRecord): Promise<UserRecord> {
      try {
        const rows = await db.query(
          `INSERT INTO users (id, email, password_hash, memberships, invite_hash, invite_expires_at, invite_joins, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
          [user.id, user.email, user.password_hash ?? null, JSON.stringify(user.memberships), ...inviteColumns(user.invite), user.created_at],
        );
        return userOf(rows[0]);
      } catch (err) {
        if (pgError(err).code === UNIQUE_VIOLATION) throw new FolioError('name_taken', `a user with the email "${user.email}" already exists`);
        throw err;
      }
    },

    async getUser(id: string): Promise<UserRecord | undefined> {
      const rows = await db.query('SELECT * FROM users WHERE id = $1', [id], 'get_user');
      return rows[0] && userOf(rows[0]);
    },

    async findUserByEmail(email: string): Promise<UserRecord | undefined> {
      const rows = await db.query('SELECT * FROM users WHERE email = $1', [email], 'user_by_email');
      return rows[0] && userOf(rows[0]);
    },

    async findUserByInviteHash(hash: string): Promise<UserRecord | undefined> {
      const rows = await db.query('SELECT * FROM users WHERE invite_hash = $1', [hash]);
      return rows[0] && userOf(rows[0]);
    },

    async listUsers(orgId?: string): Promise<UserRecord[]> {
      const rows = orgId === undefined
        ? await db.query('SELECT * FROM users ORDER BY email')
        : await db.query('SELECT * FROM users WHERE memberships @> $1::jsonb ORDER BY email', [JSON.stringify([{ org_id: orgId }])]);
      return rows.map(userOf);
    },

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
        ? await db.query('SELECT * FROM users WHERE id = $1', values)
        : await db.query(`UPDATE users SET ${set.join(', ')} WHERE id = $1 RETURNING *`, values);
      if (!rows[0]) throw new FolioError('not_found', `user ${id} not found`);
      return userOf(rows[0]);
    },

    async deleteUser(id: string): Promise<void> {
      // Sessions go with the user (ON DELETE CASCADE).
      const rows = await db.query('DELETE FROM users WHERE id = $1 RETURNING id', [id]);
      if (!rows[0]) throw new FolioError('not_found', `user ${id} not found`);
    },

    async createSession(session: SessionRecord): Promise<SessionRecord> {
      try {
        const rows = await db.query(
          `INSERT INTO sessions (id, hash, user_id, org_id, csrf_token, created_at, last_seen_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
          [session.id, session.hash, session.user_id, session.org_id, session.csrf_token, session.created_at, session.last_seen_at],
        );
        return sessionOf(rows[0]);
      } catch (err) {
        if (pgError(err).code === FOREIGN_KEY_VIOLATION) throw new FolioError('not_found', `user ${session.user_id} not found`);
        throw err;
      }
    },

    async findSessionByHash(hash: string): Promise<SessionRecord | undefined> {
      const rows = await db.query('SELECT * FROM sessions WHERE hash = $1', [hash], 'session_by_hash');
      if (!rows[0]) return undefined;
      const session = sessionOf(rows[0]);
      // A use this node has not written yet still counts, so a session never looks idler than it is.
      const at = db.sessionsTouched.get(session.id);
      if (at && session.last_seen_at < at) session.last_seen_at = at;
      return session;
    },

    async setSessionOrg(id: string, orgId: string): Promise<SessionRecord> {
      const rows = await db.query('UPDATE sessions SET org_id = $2 WHERE id = $1 RETURNING *', [id, orgId]);
      if (!rows[0]) throw new FolioError('not_found', `session ${id} not found`);
      return sessionOf(rows[0]);
    },

    touchSession(id: string, at: string): void {
      db.sessionsTouched.set(id, at);
    },

    async deleteSession(id: string): Promise<void> {
      db.sessionsTouched.delete(id);
      await db.query('DELETE FROM sessions WHERE id = $1', [id]);
    },

    async deleteUserSessions(userId: string, exceptId?: string): Promise<void> {
      await db.query('DELETE FROM sessions WHERE user_id = $1 AND id IS DISTINCT FROM $2', [userId, exceptId ?? null]);
    },
  };
}
