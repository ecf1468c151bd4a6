// The JSON store: console users and their sessions.
import { FolioError } from '../../errors.ts';
import type { SessionRecord, UserChanges, UserRecord } from '../records.ts';
import type { AccountStore } from '../store.ts';
import { own, type JsonStoreFile } from './file.ts';

export function jsonAccounts(file: JsonStoreFile): AccountStore {
  return {
    async createUser(user: UserRecord): Promise<UserRecord> {
      if (file.usersByEmail.has(user.email)) throw new FolioError('name_taken', `a user with the email "${user.email}" already exists`);
      const record = structuredClone(user);
      file.db.data.users[record.id] = record;
      file.usersByEmail.set(record.email, record);
      if (record.invite) file.usersByInvite.set(record.invite.hash, record);
      await file.commit();
      return structuredClone(record);
    },

    async getUser(id: string): Promise<UserRecord | undefined> {
      const user = own(file.db.data.users, id);
      return user && structuredClone(user);
    },

    async findUserByEmail(email: string): Promise<UserRecord | undefined> {
      const user = file.usersByEmail.get(email);
      return user && structuredClone(user);
    },

    async findUserByInviteHash(hash: string): Promise<UserRecord | undefined> {
      const user = file.usersByInvite.get(hash);
      return user && structuredClone(user);
    },

    async listUsers(orgId?: string): Promise<UserRecord[]> {
      return Object.values(file.db.data.users)
        .filter((u) => !orgId || u.memberships.some((m) => m.org_id === orgId))
        .sort((a, b) => (a.email < b.email ? -1 : 1))
        .map((u) => structuredClone(u));
    },

    async updateUser(id: string, changes: UserChanges): Promise<UserRecord> {
      const user = own(file.db.data.users, id);
      if (!user) throw new FolioError('not_found', `user ${id} not found`);
      if (changes.password_hash !== undefined) user.password_hash = changes.password_hash;
      if (changes.memberships !== undefined) user.memberships = structuredClone(changes.memberships);
      if (changes.invite !== undefined) {
        if (user.invite) file.usersByInvite.delete(user.invite.hash);
        if (changes.invite === null) delete user.invite;
        else file.usersByInvite.set((user.invite = structuredClone(changes.invite)).hash, user);
      }
      await file.commit();
      return structuredClone(user);
    },

    async deleteUser(id: string): Promise<void> {
      const user = own(file.db.data.users, id);
      if (!user) throw new FolioError('not_found', `user ${id} not found`);
      file.usersByEmail.delete(user.email);
      if (user.invite) file.usersByInvite.delete(user.invite.hash);
      delete file.db.data.users[id];
      file.dropSessions((s) => s.user_id === id);
      await file.commit();
    },

    async createSession(session: SessionRecord): Promise<SessionRecord> {
      if (!own(file.db.data.users, session.user_id)) throw new FolioError('not_found', `user ${session.user_id} not found`);
      const record = { ...session };
      file.db.data.sessions[record.id] = record;
      file.sessionsByHash.set(record.hash, record);
      await file.commit();
      return { ...record };
    },

    async findSessionByHash(hash: string): Promise<SessionRecord | undefined> {
      const session = file.sessionsByHash.get(hash);
      return session && { ...session };
    },

    async setSessionOrg(id: string, orgId: string): Promise<SessionRecord> {
      const session = own(file.db.data.sessions, id);
      if (!session) throw new FolioError('not_found', `session ${id} not found`);
      session.org_id = orgId;
      await file.commit();
      return { ...session };
    },

    touchSession(id: string, at: string): void {
      const session = own(file.db.data.sessions, id);
      if (!session) return;
      session.last_seen_at = at;
      file.sessionsTouched = true;
    },

    async deleteSession(id: string): Promise<void> {
      file.dropSessions((s) => s.id === id);
      await file.commit();
    },

    async deleteUserSessions(userId: string, exceptId?: string): Promise<void> {
      file.dropSessions((s) => s.user_id === userId && s.id !== exceptId);
      await file.commit();
    },
  };
}
