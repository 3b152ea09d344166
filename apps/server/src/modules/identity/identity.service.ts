import { and, eq, isNull, sql } from 'drizzle-orm';
import { AUTH_MESSAGES, isRole, SettingsInput, type Role } from '@hornada/domain';
import { z } from 'zod';
import type { AppContext, Caller } from '../../context';
import type { DbOrTx } from '../../db';
import { companies, settings, users } from '../../db/schema';
import { AppError, forbidden, fromZodIssues, unauthenticated } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { assertEmailFree, userDoc } from '../users/users.resource';
import { Attempts } from './attempts';
import { assertAcceptablePassword, hashPassword, verifyPassword } from './passwords';
import { familyOf, issueRefreshToken, revokeAllForUser, revokeFamily, spendRefreshToken } from './refresh-tokens';

export const ID_TOKEN_TTL_S = 3600;
const SIGNIN_WINDOW_MS = 15 * 60_000;
const REGISTER_WINDOW_MS = 60 * 60_000;

export interface SignedIn {
  idToken: string;
  expiresIn: number;
  user: { uid: string; email: string; name: string; emailVerified: boolean };
  refreshToken: string;
}

type UserRow = typeof users.$inferSelect;

const credentialError = () => new AppError(401, 'auth/invalid-credential', AUTH_MESSAGES.invalidCredential);

/**
 * Identity (design §1): e-mail and password with argon2id, id tokens of one hour, rotating refresh
 * tokens, registration and bakery creation. Brute force is counted in PostgreSQL (Attempts) so every
 * instance agrees; time comes from the app's clock.
 */
export class IdentityService {
  private readonly attempts: Attempts;

  constructor(private readonly ctx: AppContext) {
    this.attempts = new Attempts(ctx.db, ctx.clock);
  }

  private async idTokenFor(user: Pick<UserRow, 'id' | 'email' | 'role' | 'companyId'>): Promise<string> {
    // Role and company are informational for the client; the server reads them from the database.
    return this.ctx.keys.sign(
      { sub: user.id, email: user.email, role: user.role, companyId: user.companyId },
      { expiresInSeconds: ID_TOKEN_TTL_S, now: this.ctx.clock.now() },
    );
  }

  private async findByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
    const [u] = await db
      .select()
      .from(users)
      .where(and(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`, isNull(users.deletedAt)))
      .limit(1);
    return u;
  }

  /** 429 with Retry-After in whole seconds. */
  private limited(retryAfterMs: number): AppError {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    return new AppError(429, 'rate_limited', `Too many attempts, try again in ${seconds} s`, undefined, {
      'retry-after': String(seconds),
    });
  }

  /**
   * Per address: a fixed number of attempts a window. Per account: after N failures each further try
   * waits twice as long as the last (1 s, 2 s, 4 s … up to the window), so nobody is locked out for good.
   */
  private async checkSignInLimits(emailKey: string, ipKey: string): Promise<void> {
    const { signInPerAccount, signInPerAddress } = this.ctx.config.rateLimits;
    const now = this.ctx.clock.now().getTime();
    const ip = await this.attempts.recent(ipKey, SIGNIN_WINDOW_MS);
    if (ip.count >= signInPerAddress && ip.first) throw this.limited(ip.first.getTime() + SIGNIN_WINDOW_MS - now);
    const account = await this.attempts.recent(emailKey, SIGNIN_WINDOW_MS);
    if (account.count >= signInPerAccount && account.last) {
      const delay = Math.min(1000 * 2 ** (account.count - signInPerAccount), SIGNIN_WINDOW_MS);
      const until = account.last.getTime() + delay;
      if (until > now) throw this.limited(until - now);
    }
  }

  async signIn(emailInput: string, password: string, ip: string): Promise<SignedIn> {
    if (!this.ctx.config.emailPasswordSignIn) {
      throw new AppError(403, 'auth/operation-not-allowed', AUTH_MESSAGES.operationNotAllowed);
    }
    const emailKey = `signin-email:${emailInput.trim().toLowerCase()}`;
    const ipKey = `signin-ip:${ip}`;
    await this.checkSignInLimits(emailKey, ipKey);
    await this.attempts.record(ipKey);

    const user = await this.findByEmail(this.ctx.db, emailInput);
    // Unknown account and wrong password: the same work, the same answer.
    const ok = await verifyPassword(user?.passwordHash ?? null, password);
    if (!user || !ok) {
      await this.attempts.record(emailKey);
      throw credentialError();
    }
    if (user.disabled) throw new AppError(403, 'auth/user-disabled', AUTH_MESSAGES.userDisabled);
    await this.attempts.clear(emailKey);
    return this.session(user);
  }

  private async session(user: UserRow, familyId?: string): Promise<SignedIn> {
    const refreshToken = await issueRefreshToken(this.ctx.db, this.ctx.clock, user.id, familyId);
    return {
      idToken: await this.idTokenFor(user),
      expiresIn: ID_TOKEN_TTL_S,
      user: { uid: user.id, email: user.email, name: user.name, emailVerified: user.emailVerified },
      refreshToken,
    };
  }

  /** Rotates the refresh token; a spent one revokes its family. Null when there is no session. */
  async refresh(cookie: string | undefined): Promise<SignedIn | null> {
    if (!cookie) return null;
    const result = await this.ctx.db.transaction((tx) => spendRefreshToken(tx, this.ctx.clock, cookie));
    if (!result.ok) throw new AppError(401, 'auth/invalid-token', 'Session expired, sign in again');
    const [user] = await this.ctx.db.select().from(users).where(eq(users.id, result.userId)).limit(1);
    if (!user || user.deletedAt) throw new AppError(401, 'auth/invalid-token', 'Session expired, sign in again');
    if (user.disabled) {
      await revokeAllForUser(this.ctx.db, this.ctx.clock, user.id);
      throw new AppError(403, 'auth/user-disabled', AUTH_MESSAGES.userDisabled);
    }
    return this.session(user, result.familyId);
  }

  async signOut(cookie: string | undefined): Promise<void> {
    if (!cookie) return;
    const family = await familyOf(this.ctx.db, cookie);
    if (family) await revokeFamily(this.ctx.db, this.ctx.clock, family);
  }

  /** Spec §7 POST /auth/register with spec §5's messages, word for word. */
  async register(body: Record<string, unknown>, caller: Caller | null, ip: string) {
    const { email, password, name, role, companyId } = body;
    if (!isRole(role)) throw new AppError(400, 'validation', AUTH_MESSAGES.invalidRole);
    if (role === 'system_admin') throw new AppError(501, 'not_implemented', AUTH_MESSAGES.systemAdminNotImplemented);
    const present = (v: unknown) => typeof v === 'string' && v.trim() !== '';
    let targetCompany: string | null = null;
    if (role === 'company_admin') {
      if (!present(email) || !present(password) || !present(name)) {
        throw new AppError(400, 'validation', AUTH_MESSAGES.adminFieldsRequired);
      }
    } else {
      if (!present(email) || !present(password) || !present(name) || !present(companyId)) {
        throw new AppError(400, 'validation', AUTH_MESSAGES.userFieldsRequired);
      }
      if (role !== 'company_staff' && role !== 'company_customer') {
        throw new AppError(400, 'validation', AUTH_MESSAGES.invalidBakeryRole);
      }
      if (!caller) throw new AppError(401, 'unauthenticated', 'Authentication required');
      const sameCompany = caller.role === 'system_admin' || caller.companyId === companyId;
      const allowed =
        sameCompany &&
        (caller.role === 'system_admin' ||
          caller.role === 'company_admin' ||
          (caller.role === 'company_staff' && role === 'company_customer'));
      if (!allowed) throw forbidden('You cannot register this user');
      targetCompany = companyId as string;
      const [company] = await this.ctx.db
        .select({ id: companies.id })
        .from(companies)
        .where(eq(companies.id, targetCompany));
      if (!company) throw forbidden('You cannot register this user');
    }

    const parsed = z
      .object({ email: z.email('Invalid email address').max(254), name: z.string().trim().min(1).max(120) })
      .safeParse({ email: String(email).trim(), name });
    if (!parsed.success) throw fromZodIssues(parsed.error.issues);
    assertAcceptablePassword(password as string);

    const ipKey = `register-ip:${ip}`;
    const recent = await this.attempts.recent(ipKey, REGISTER_WINDOW_MS);
    const now = this.ctx.clock.now().getTime();
    if (recent.count >= this.ctx.config.rateLimits.registerPerAddress && recent.first) {
      throw this.limited(recent.first.getTime() + REGISTER_WINDOW_MS - now);
    }
    await this.attempts.record(ipKey);

    const user = await this.createUser({
      email: parsed.data.email.toLowerCase(),
      password: password as string,
      name: parsed.data.name,
      role,
      companyId: targetCompany,
    });
    return { user: { uid: user.id, email: user.email, name: user.name, role: user.role, companyId: user.companyId } };
  }

  async createUser(input: {
    email: string;
    password: string;
    name: string;
    role: Role;
    companyId: string | null;
    emailVerified?: boolean;
  }) {
    const hashed = await hashPassword(input.password);
    return this.ctx.write(input.companyId ?? '', async (tx, changes) => {
      await assertEmailFree(tx, input.email);
      const now = this.ctx.clock.now();
      const [row] = await tx
        .insert(users)
        .values({
          id: newId(),
          email: input.email,
          name: input.name,
          role: input.role,
          companyId: input.companyId,
          passwordHash: hashed,
          emailVerified: input.emailVerified ?? false,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      if (input.companyId) changes.add('users', 'added', userDoc(row!));
      return row!;
    });
  }

  /** Spec §7 POST /auth/login: confirms the token's user, records the sign-in. */
  async login(caller: Caller | null, emailInput: unknown) {
    if (!caller) throw new AppError(401, 'unauthenticated', AUTH_MESSAGES.backendAuthFailed);
    if (typeof emailInput !== 'string' || emailInput.trim().toLowerCase() !== caller.email.toLowerCase()) {
      throw new AppError(401, 'auth/email-mismatch', AUTH_MESSAGES.backendAuthFailed);
    }
    await this.touchUser(caller, { lastLoginAt: this.ctx.clock.now() });
    return { name: caller.name, role: caller.role, companyId: caller.companyId };
  }

  /** A write to the caller's own user row, through the change log (it invalidates caches). */
  async touchUser(caller: Caller, set: Partial<typeof users.$inferInsert>) {
    return this.ctx.write(caller.companyId ?? '', async (tx, changes) => {
      const [row] = await tx
        .update(users)
        .set({ ...set, updatedAt: this.ctx.clock.now() })
        .where(eq(users.id, caller.uid))
        .returning();
      const doc = userDoc(row!);
      changes.add('users', 'modified', doc);
      return doc;
    });
  }

  /** POST /api/companies (createBakery): a company admin without a company creates one and runs it. */
  async createBakery(
    caller: Caller | null,
    input: { name: string; phone: string | null; whatsapp: string | null; address: string | null },
  ) {
    if (!caller) throw unauthenticated();
    if (caller.role !== 'company_admin' || caller.companyId !== null) {
      throw forbidden('Only a company admin without a bakery can create one');
    }
    const companyId = newId();
    const data = SettingsInput.parse({
      marketName: input.name,
      phone: input.phone,
      whatsapp: input.whatsapp,
      address: input.address,
    });
    return this.ctx.write(companyId, async (tx, changes) => {
      const now = this.ctx.clock.now();
      await tx.insert(companies).values({ id: companyId, name: input.name, createdAt: now, updatedAt: now });
      await tx.insert(settings).values({ companyId, data, updatedAt: now });
      const [row] = await tx
        .update(users)
        .set({ companyId, updatedAt: now })
        .where(and(eq(users.id, caller.uid), isNull(users.companyId)))
        .returning();
      if (!row) throw forbidden('Only a company admin without a bakery can create one');
      changes.add('users', 'modified', userDoc(row));
      changes.add('settings', 'added', { id: companyId, companyId, ...data, updatedAt: now.toISOString() });
      return { company: { id: companyId, name: input.name }, settings: { companyId, ...data } };
    });
  }

  async changePassword(caller: Caller | null, currentPassword: string, newPassword: string) {
    if (!caller) throw unauthenticated();
    const [user] = await this.ctx.db.select().from(users).where(eq(users.id, caller.uid)).limit(1);
    if (!user || !(await verifyPassword(user.passwordHash, currentPassword))) {
      throw new AppError(400, 'auth/wrong-password', 'The current password is not correct', [
        { path: 'currentPassword', message: 'Not correct' },
      ]);
    }
    assertAcceptablePassword(newPassword, 'newPassword');
    const passwordHash = await hashPassword(newPassword);
    await this.touchUser(caller, { passwordHash });
    // Every session ends; this one gets a fresh refresh token, the others sign in again.
    await revokeAllForUser(this.ctx.db, this.ctx.clock, caller.uid);
    return this.session({ ...user, passwordHash });
  }
}
