import { randomBytes } from 'node:crypto';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { assignSlug } from '../shops';
import {
  AUTH_MESSAGES,
  can,
  grantOf,
  isRole,
  normaliseKey,
  personName,
  reachesCompany,
  SHOPPER_ROLE,
  type Role,
} from '@hornada/domain';
import { z } from 'zod';
import type { AppContext } from '../../context';
import type { RequestContext } from '../../request-context';
import type { DbOrTx } from '../../db';
import { companies, settings, users } from '../../db/schema';
import { AppError, forbidden, fromZodIssues, pgErrorCode, unauthenticated } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { asUser, systemActor } from '../../resources/actor';
import { EMAIL_IN_USE } from '../../resources/definitions/users';
import { escapeLike } from '../../resources/query';
import type { ResourceRegistry } from '../../resources/registry';
import type { Row } from '../../resources/definition';
import type { WriteScope } from '../../resources/service';
import { assertEmailVerified } from '../../resources/verified-email';
import { Attempts, countGate, REGISTER_WINDOW_MS, SIGNIN_WINDOW_MS, type Gate } from './attempts';
import { assertAcceptablePassword, hashPassword, verifyPassword } from '../../lib/passwords';
import { issueActionToken } from './action-tokens';
import { deviceNonceFor, issueDeviceCookie } from './device-cookies';
import {
  issueRefreshToken,
  lockUser,
  pruneRefreshTokens,
  revokeAllForUser,
  revokeFamilyOf,
  spendRefreshToken,
} from './refresh-tokens';
import { endAllSessions, idTokenNotBefore, nextSessionsValidFrom, unlessMissing } from './sessions';

export const ID_TOKEN_TTL_S = 3600;

export interface SignedIn {
  idToken: string;
  expiresIn: number;
  user: { uid: string; email: string; name: string; emailVerified: boolean };
  refreshToken: string;
}

/** A sign-in also renews the device cookie (device-cookies.ts). */
export interface SignedInWithDevice extends SignedIn {
  deviceCookie: string;
}

type UserRow = typeof users.$inferSelect;

const credentialError = () => new AppError(401, 'auth/invalid-credential', AUTH_MESSAGES.invalidCredential);
const sessionExpired = () => new AppError(401, 'auth/invalid-token', 'Session expired, sign in again');
const userDisabled = () => new AppError(403, 'auth/user-disabled', AUTH_MESSAGES.userDisabled);
const wrongCurrentPassword = () =>
  new AppError(400, 'auth/wrong-password', 'The current password is not correct', [
    { path: 'currentPassword', message: 'Not correct' },
  ]);

const accountKey = (email: string) => `signin-email:${email.trim().toLowerCase()}`;
const deviceKey = (nonce: string) => `signin-device:${nonce}`;

/**
 * Identity (docs/design.md §1): e-mail and password with argon2id, id tokens of one hour, rotating refresh
 * tokens, registration and bakery creation. Brute force is counted in PostgreSQL (Attempts) so every
 * instance agrees; time comes from the app's clock.
 */
export class IdentityService {
  private readonly attempts: Attempts;

  constructor(
    private readonly ctx: AppContext,
    private readonly resources: ResourceRegistry,
  ) {
    this.attempts = new Attempts(ctx.db, ctx.clock);
  }

  private async idTokenFor(
    user: Pick<UserRow, 'id' | 'email' | 'role' | 'companyId' | 'sessionsValidFrom'>,
  ): Promise<string> {
    // Role and company are informational for the client; the server reads them from the database.
    // A session started after the user's sessions ended is stamped no earlier than that end (sessions.ts).
    return this.ctx.keys.sign(
      { sub: user.id, email: user.email, role: user.role, companyId: user.companyId },
      { expiresInSeconds: ID_TOKEN_TTL_S, now: idTokenNotBefore(this.ctx.clock.now(), user.sessionsValidFrom) },
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

  /** A fixed number of attempts per address in a window. */
  private addressGate(key: string, limit: number, windowMs: number): Gate {
    return countGate(key, limit, windowMs);
  }

  /**
   * Failures per account (or per known device, `deviceKey`): after N in the window each further try
   * waits twice as long as the last (1 s, 2 s, 4 s … up to the window), so nobody is locked out for good.
   */
  private failureGate(key: string): Gate {
    const limit = this.ctx.config.rateLimits.signInPerAccount;
    return {
      key,
      windowMs: SIGNIN_WINDOW_MS,
      wait: (r, now) => {
        if (r.count < limit || !r.last) return 0;
        const delay = Math.min(1000 * 2 ** (r.count - limit), SIGNIN_WINDOW_MS);
        return Math.max(0, r.last.getTime() + delay - now);
      },
    };
  }

  /**
   * Admits an attempt or throws 429. The attempt is recorded before the password is verified: a
   * failure per account counts provisionally from here on (the caller takes it back on success), so
   * parallel guesses cannot all slip in before the first failure is recorded.
   */
  private admit(gates: Gate[]): Promise<Map<string, number>> {
    return this.attempts.admitOrThrow(gates);
  }

  /**
   * `deviceCookie`: the browser's device cookie. When it is genuine and names this account, failures
   * are counted under that device alone, so an attacker's failures from unknown devices (which lock
   * the account's bucket) never delay the owner's own browser; the per-address limit applies to all.
   */
  async signIn(emailInput: string, password: string, ip: string, deviceCookie?: string): Promise<SignedInWithDevice> {
    if (!this.ctx.config.emailPasswordSignIn) {
      throw new AppError(403, 'auth/operation-not-allowed', AUTH_MESSAGES.operationNotAllowed);
    }
    const { signInPerAddress } = this.ctx.config.rateLimits;
    const nonce = deviceNonceFor(this.ctx.keys, deviceCookie, emailInput);
    const failures = this.failureGate(nonce ? deviceKey(nonce) : accountKey(emailInput));
    const ids = await this.admit([this.addressGate(`signin-ip:${ip}`, signInPerAddress, SIGNIN_WINDOW_MS), failures]);

    const user = await this.findByEmail(this.ctx.db, emailInput);
    // Unknown account and wrong password: the same work, the same answer; the failure stays counted.
    const ok = await verifyPassword(user?.passwordHash ?? null, password);
    if (!user || !ok) throw credentialError();
    if (user.disabled) {
      // The right password is not a failure.
      await this.attempts.remove([ids.get(failures.key)!]);
      throw userDisabled();
    }
    // A known device's success clears its own failures only: the account's stay, so the owner
    // signing in does not hand an attacker a fresh allowance.
    await this.attempts.clear(failures.key);
    return { ...(await this.startSession(user)), deviceCookie: issueDeviceCookie(this.ctx.keys, user.email) };
  }

  /**
   * A new session for a user whose password was just verified. Under the user's lock, the row is read
   * again: a password change, disabling or deletion that committed during the verify wins.
   */
  private startSession(verified: UserRow): Promise<SignedIn> {
    return this.sessionUnderLock(verified.id, (user) => user.passwordHash === verified.passwordHash);
  }

  /**
   * A new session for a user who proved themselves elsewhere (the Google sign-in's exchange code). Under
   * the user's lock: a disabling or deletion that committed meanwhile wins.
   */
  startVerifiedSession(userId: string): Promise<SignedIn> {
    return this.sessionUnderLock(userId, () => true);
  }

  private async sessionUnderLock(userId: string, stillValid: (user: UserRow) => boolean): Promise<SignedIn> {
    const outcome = await this.ctx.db.transaction(async (tx) => {
      const user = await lockUser(tx, userId);
      if (!user || user.deletedAt || !stillValid(user)) return 'invalid' as const;
      if (user.disabled) return 'disabled' as const;
      return { user, refreshToken: await issueRefreshToken(tx, this.ctx.clock, user.id) };
    });
    if (outcome === 'invalid') throw credentialError();
    if (outcome === 'disabled') throw userDisabled();
    return this.signed(outcome.user, outcome.refreshToken);
  }

  private async signed(user: UserRow, refreshToken: string): Promise<SignedIn> {
    return {
      idToken: await this.idTokenFor(user),
      expiresIn: ID_TOKEN_TTL_S,
      user: { uid: user.id, email: user.email, name: user.name, emailVerified: user.emailVerified },
      refreshToken,
    };
  }

  /**
   * Rotates the refresh token: the spent one is marked and its successor issued in one transaction
   * under the user's lock, so a revocation either sees the successor or comes after it. A spent one
   * revokes its family. Null when there is no session.
   */
  async refresh(cookie: string | undefined): Promise<SignedIn | null> {
    if (!cookie) return null;
    const outcome = await this.ctx.db.transaction(async (tx) => {
      const spent = await spendRefreshToken(tx, this.ctx.clock, cookie);
      if (!spent.ok) return 'invalid' as const;
      const { user } = spent;
      if (user.deletedAt) return 'invalid' as const;
      if (user.disabled) {
        await revokeAllForUser(tx, this.ctx.clock, user.id);
        return 'disabled' as const;
      }
      return { user, refreshToken: await issueRefreshToken(tx, this.ctx.clock, user.id, spent.familyId) };
    });
    if (outcome === 'invalid') throw sessionExpired();
    if (outcome === 'disabled') throw userDisabled();
    return this.signed(outcome.user, outcome.refreshToken);
  }

  async signOut(cookie: string | undefined): Promise<void> {
    if (cookie) await revokeFamilyOf(this.ctx.db, this.ctx.clock, cookie);
  }

  /**
   * Ends every session of the caller (sessions.ts): refresh tokens revoked, id tokens issued so far
   * refused, open change streams closed. Through the change log, so every instance forgets the user.
   */
  async signOutEverywhere(rc: RequestContext): Promise<void> {
    const { caller } = rc;
    if (!caller) throw unauthenticated();
    await this.resources.transaction(caller.companyId ?? '', (scope) =>
      endAllSessions(this.resources, scope, this.ctx.clock, caller),
    );
  }

  /** Expired attempt rows and expired or revoked refresh tokens (they would grow without bound). */
  async prune(): Promise<{ attempts: number; refreshTokens: number }> {
    return {
      attempts: await this.attempts.prune(),
      refreshTokens: await pruneRefreshTokens(this.ctx.db, this.ctx.clock),
    };
  }

  /** Spec §7 POST /auth/register with docs/product.md §5's messages, word for word. */
  async register(rc: RequestContext, body: Record<string, unknown>, ip: string) {
    const { caller } = rc;
    const { email, password, name, role, companyId } = body;
    if (!isRole(role)) throw new AppError(400, 'validation', AUTH_MESSAGES.invalidRole);
    // A role over every company is not registered through the API (docs/product.md §7 answers 501).
    if (can(role, 'companies:all')) throw new AppError(501, 'not_implemented', AUTH_MESSAGES.systemAdminNotImplemented);
    const present = (v: unknown) => typeof v === 'string' && v.trim() !== '';
    let targetCompany: string | null = null;
    // A founder registers without a bakery; she creates hers next.
    if (can(role, 'bakery:create')) {
      if (!present(email) || !present(password) || !present(name)) {
        throw new AppError(400, 'validation', AUTH_MESSAGES.adminFieldsRequired);
      }
    } else {
      if (!present(email) || !present(password) || !present(name) || !present(companyId)) {
        throw new AppError(400, 'validation', AUTH_MESSAGES.userFieldsRequired);
      }
      if (!can(role, 'accounts:registered-by-bakery')) {
        throw new AppError(400, 'validation', AUTH_MESSAGES.invalidBakeryRole);
      }
      if (!caller) throw new AppError(401, 'unauthenticated', 'Authentication required');
      // The permission table's users:create, as for POST …/users: staff register customers only. The
      // company is named in the body, so another company's is a 403 here, as docs/product.md §5 answers.
      const grant = grantOf(caller.role, 'users', 'create');
      const allowed =
        reachesCompany(caller, companyId as string) &&
        (grant === 'company' || (grant === 'customers' && can(role, 'orders:own')));
      if (!allowed) throw forbidden('You cannot register this user');
      targetCompany = companyId as string;
      const [company] = await this.ctx.db
        .select({ id: companies.id })
        .from(companies)
        .where(eq(companies.id, targetCompany));
      if (!company) throw forbidden('You cannot register this user');
    }

    const parsed = z
      .object({ email: z.email('Invalid email address').max(254), name: personName() })
      .safeParse({ email: String(email).trim(), name });
    if (!parsed.success) throw fromZodIssues(parsed.error.issues);
    assertAcceptablePassword(password as string);

    const { registerPerAddress } = this.ctx.config.rateLimits;
    await this.admit([this.addressGate(`register-ip:${ip}`, registerPerAddress, REGISTER_WINDOW_MS)]);

    const input = { email: parsed.data.email.toLowerCase(), password: password as string, name: parsed.data.name };
    const user = targetCompany
      ? // Through the users service: the same checks, hooks and change log as POST …/users.
        await this.resources.users.create(asUser(caller), targetCompany, { ...input, role, phone: null, addresses: [] })
      : await this.createUser({ ...input, role, companyId: null });
    return {
      user: {
        uid: String(user.id),
        email: String(user.email),
        name: String(user.name),
        role: user.role as Role,
        companyId: (user.companyId as string | null) ?? null,
      },
    };
  }

  /**
   * POST /api/identity/shoppers: a shopper makes their own customer account at the storefront's
   * bakery (the one the request's host names: `companyId`), e-mail not yet verified (a link is mailed).
   */
  async registerShopper(input: { email: string; password: string; name: string }, companyId: string, ip: string) {
    assertAcceptablePassword(input.password);
    const { registerPerAddress } = this.ctx.config.rateLimits;
    await this.admit([this.addressGate(`register-ip:${ip}`, registerPerAddress, REGISTER_WINDOW_MS)]);
    const user = await this.createUser({ ...input, role: SHOPPER_ROLE, companyId });
    return {
      user: {
        uid: String(user.id),
        email: String(user.email),
        name: String(user.name),
        role: user.role as Role,
        companyId: (user.companyId as string | null) ?? null,
      },
    };
  }

  /**
   * A guest who ticked «crear mi cuenta» at checkout: a customer account of the order's bakery
   * with no password anyone knows, and a single-use code of the invitation's life to choose one through the
   * mailed link (which also verifies the e-mail). Null when the address already has an account: the answer
   * to the checkout is the same either way, so nothing tells whose address it is.
   */
  async accountForGuest(input: { email: string; name: string; companyId: string }) {
    const unusable = randomBytes(32).toString('base64url');
    try {
      const user = await this.createUser({ ...input, password: unusable, role: SHOPPER_ROLE });
      const token = await issueActionToken(this.ctx.db, this.ctx.clock, String(user.id), 'invitation');
      return {
        user: {
          id: String(user.id),
          email: String(user.email),
          name: String(user.name),
          role: SHOPPER_ROLE,
          companyId: input.companyId,
        },
        token,
      };
    } catch (err) {
      if (err instanceof AppError && err.code === 'auth/email-in-use') return null;
      throw err;
    }
  }

  async createUser(
    input: {
      email: string;
      password: string;
      name: string;
      role: Role;
      companyId: string | null;
      emailVerified?: boolean;
    },
    scope?: WriteScope,
  ) {
    const hashed = await hashPassword(input.password);
    try {
      return await this.insertUser(input, hashed, scope);
    } catch (err) {
      // Safety net behind assertEmailFree's lock: the unique index is the last word on duplicates.
      if (pgErrorCode(err) === '23505') throw EMAIL_IN_USE();
      throw err;
    }
  }

  /**
   * A user created by the server's own rule (self-registration, the demo accounts): through the users
   * service as the system registering an account (its line in the permission table); the service's
   * before-write locks the address and refuses one in use.
   */
  private insertUser(
    input: { email: string; name: string; role: Role; companyId: string | null; emailVerified?: boolean },
    hashed: string,
    outer?: WriteScope,
  ): Promise<Row> {
    const insert = (scope: WriteScope) =>
      this.resources.users.create(
        systemActor('registration'),
        input.companyId,
        {
          email: input.email,
          name: input.name,
          role: input.role,
          passwordHash: hashed,
          emailVerified: input.emailVerified ?? false,
        },
        scope,
      );
    return outer ? insert(outer) : this.resources.transaction(input.companyId ?? '', insert);
  }

  /** Spec §7 POST /auth/login: confirms the token's user, records the sign-in. */
  async login(rc: RequestContext, emailInput: unknown) {
    const { caller } = rc;
    if (!caller) throw new AppError(401, 'unauthenticated', AUTH_MESSAGES.backendAuthFailed);
    if (typeof emailInput !== 'string' || emailInput.trim().toLowerCase() !== caller.email.toLowerCase()) {
      throw new AppError(401, 'auth/email-mismatch', AUTH_MESSAGES.backendAuthFailed);
    }
    const signedIn = await unlessMissing(
      this.resources.users.update(systemActor('sign-in'), caller.companyId, caller.uid, {
        lastLoginAt: this.ctx.clock.now(),
      }),
    );
    if (!signedIn) throw unauthenticated();
    return { name: caller.name, role: caller.role, companyId: caller.companyId };
  }

  /** PATCH /api/me: the caller edits its own account (its line `account`: name, phone, addresses). */
  async touchUser(rc: RequestContext, set: { name?: string; phone?: string | null; addresses?: unknown[] }) {
    const { caller } = rc;
    if (!caller) throw unauthenticated();
    const row = await unlessMissing(
      this.resources.users.update(asUser(caller, 'account'), caller.companyId, caller.uid, set),
    );
    if (!row) throw unauthenticated();
    return row;
  }

  /**
   * GET /api/companies: the bakeries a caller who acts on every company may switch to, by the
   * name customers see (the market name, else the company's), matched like the lists' search (docs/design.md §3).
   */
  async listCompanies(rc: RequestContext, search: string | undefined, limit: number) {
    const { caller } = rc;
    if (!caller) throw unauthenticated();
    if (!can(caller.role, 'companies:all')) throw forbidden();
    const name = sql<string>`coalesce(${settings.data}->>'marketName', ${companies.name})`;
    const key = search ? `%${escapeLike(normaliseKey(search))}%` : null;
    const where = key ? sql`hornada_norm(${name}) COLLATE "C" LIKE ${key}` : undefined;
    const rows = await this.ctx.db
      .select({ id: companies.id, name, total: sql<number>`count(*) OVER ()`.mapWith(Number) })
      .from(companies)
      .leftJoin(settings, eq(settings.companyId, companies.id))
      .where(where)
      .orderBy(sql`hornada_norm(${name}) COLLATE "C"`, asc(companies.id))
      .limit(limit);
    return { data: rows.map(({ id, name: n }) => ({ id, name: n })), total: rows[0]?.total ?? 0 };
  }

  /** POST /api/companies (createBakery): a company admin without a company creates one and runs it. */
  async createBakery(
    rc: RequestContext,
    input: { name: string; phone: string | null; whatsapp: string | null; address: string | null },
  ) {
    const { caller } = rc;
    if (!caller) throw unauthenticated();
    if (!can(caller.role, 'bakery:create') || caller.companyId !== null) {
      throw forbidden('Only a company admin without a bakery can create one');
    }
    await assertEmailVerified(this.ctx.db, caller);
    const companyId = newId();
    return this.resources.transaction(companyId, async (scope) => {
      const now = this.ctx.clock.now();
      await scope.tx.insert(companies).values({ id: companyId, name: input.name, createdAt: now, updatedAt: now });
      // Its shop's host name, `{slug}.{the PUBLIC_URL host}` (docs/design.md §4).
      const slug = await assignSlug(scope.tx, companyId, input.name);
      const { updatedAt: _at, ...data } = await this.resources.settings.createFor(scope, companyId, {
        marketName: input.name,
        phone: input.phone,
        whatsapp: input.whatsapp,
        address: input.address,
      });
      // The account joins its new bakery: the system's line `bakery`, only while it has none.
      const row = await unlessMissing(
        this.resources.users.update(systemActor('bakery'), null, caller.uid, { companyId }, scope, {
          where: isNull(users.companyId),
        }),
      );
      if (!row) throw forbidden('Only a company admin without a bakery can create one');
      return { company: { id: companyId, name: input.name, slug }, settings: data };
    });
  }

  /**
   * POST /api/me/password. Wrong current passwords count against the account's sign-in limit (429
   * with Retry-After), else a stolen id token would allow unlimited guesses. The new hash and the end
   * of every session (sessions.ts: refresh tokens revoked, earlier id tokens refused) commit together;
   * this session gets a fresh refresh token and an id token issued after the end.
   */
  async changePassword(rc: RequestContext, currentPassword: string, newPassword: string): Promise<SignedIn> {
    const { caller } = rc;
    if (!caller) throw unauthenticated();
    assertAcceptablePassword(newPassword, 'newPassword');
    const account = this.failureGate(accountKey(caller.email));
    await this.admit([account]);
    const [user] = await this.ctx.db.select().from(users).where(eq(users.id, caller.uid)).limit(1);
    const verifiedHash = user?.passwordHash ?? null;
    if (!user || !(await verifyPassword(verifiedHash, currentPassword))) throw wrongCurrentPassword();
    await this.attempts.clear(account.key);
    const passwordHash = await hashPassword(newPassword);
    const outcome = await this.resources.transaction(caller.companyId ?? '', async (scope) => {
      // The UPDATE locks the user's row before the tokens (the lock order of refresh-tokens.ts).
      const changed = await unlessMissing(
        this.resources.users.update(
          systemActor('password'),
          caller.companyId,
          caller.uid,
          { passwordHash, sessionsValidFrom: nextSessionsValidFrom(this.ctx.clock) },
          scope,
          { where: eq(users.passwordHash, verifiedHash!) },
        ),
      );
      // Changed meanwhile by another request: the password verified is no longer the current one.
      if (!changed) return null;
      const [row] = await scope.tx.select().from(users).where(eq(users.id, caller.uid));
      if (!row) return null;
      await revokeAllForUser(scope.tx, this.ctx.clock, row.id);
      return { row, refreshToken: await issueRefreshToken(scope.tx, this.ctx.clock, row.id) };
    });
    if (!outcome) throw wrongCurrentPassword();
    return this.signed(outcome.row, outcome.refreshToken);
  }
}
