import { eq } from 'drizzle-orm';
import type { Role } from '@hornada/domain';
import type { Db } from '../db';
import { users } from '../db/schema';

export interface UserState {
  uid: string;
  email: string;
  name: string;
  role: Role;
  companyId: string | null;
  disabled: boolean;
  deleted: boolean;
  /** Id tokens issued before this are refused (modules/identity/sessions.ts). */
  sessionsValidFrom: Date | null;
}

/**
 * The current role, company and status of users, read by the authentication hook on every request and
 * by the change feed on every event. Cached, and kept exact by the change feed: every write to users
 * must go through ctx.write with the resource 'users' so that each instance forgets the entry.
 */
export class UserDirectory {
  private readonly cache = new Map<string, Promise<UserState | null>>();
  private static readonly MAX = 50_000;

  constructor(private readonly db: Db) {}

  get(uid: string): Promise<UserState | null> {
    let entry = this.cache.get(uid);
    if (!entry) {
      entry = this.load(uid);
      if (this.cache.size >= UserDirectory.MAX) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(uid, entry);
      // A failed read is not remembered.
      entry.catch(() => this.cache.delete(uid));
    }
    return entry;
  }

  /**
   * Read from the database whatever is cached: for a request whose caches could not be shown current
   * (the change feed down or behind). Kept like get()'s, so a change meanwhile forgets it the same way.
   */
  reload(uid: string): Promise<UserState | null> {
    this.cache.delete(uid);
    return this.get(uid);
  }

  forget(uid: string): void {
    this.cache.delete(uid);
  }

  private async load(uid: string): Promise<UserState | null> {
    const [u] = await this.db
      .select({
        uid: users.id,
        email: users.email,
        name: users.name,
        role: users.role,
        companyId: users.companyId,
        disabled: users.disabled,
        deletedAt: users.deletedAt,
        sessionsValidFrom: users.sessionsValidFrom,
      })
      .from(users)
      .where(eq(users.id, uid))
      .limit(1);
    if (!u) return null;
    return {
      uid: u.uid,
      email: u.email,
      name: u.name,
      role: u.role,
      companyId: u.companyId,
      disabled: u.disabled,
      deleted: u.deletedAt !== null,
      sessionsValidFrom: u.sessionsValidFrom,
    };
  }
}
