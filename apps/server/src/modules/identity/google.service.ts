import { timingSafeEqual } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import * as oidc from 'openid-client';
import type { AppContext, Caller } from '../../context';
import { userIdentities, users } from '../../db/schema';
import { AppError, unauthenticated } from '../../lib/errors';
import type { ResourceRegistry } from '../../resources/registry';
import { systemActor } from '../../resources/actor';
import { can, ROLE } from '@hornada/domain';
import { unlessMissing } from './sessions';
import { issueActionToken, peekActionToken, spendActionToken } from './action-tokens';

/** The web page the callback hands its result to (apps/web/src/config/paths.ts: googleReturn). */
export const GOOGLE_RETURN_PAGE = '/acceso/google';
/** The flow's cookie: state, nonce, PKCE verifier and redirect, HMAC-signed, for 10 minutes. */
export const GOOGLE_FLOW_COOKIE = 'hornada_google';
export const GOOGLE_FLOW_TTL_MS = 10 * 60_000;
const PROVIDER = 'google';
const FLOW_PURPOSE = 'google-flow v1';

interface Flow {
  state: string;
  nonce: string;
  verifier: string;
  redirect: string | null;
  exp: number;
}

/** Why a sign-in with Google ended without a session: the web page words each one in Spanish. */
export type GoogleFailure = 'state' | 'provider' | 'unverified' | 'disabled';

export class GoogleSignInError extends Error {
  constructor(readonly reason: GoogleFailure) {
    super(`Google sign-in failed: ${reason}`);
  }
}

/**
 * Sign-in with Google over OpenID Connect (design §1, §3): authorization code with PKCE, state and nonce,
 * the ID token's signature checked against the issuer's keys. The account is keyed on the provider's
 * subject; an existing account with the same e-mail is linked only when the provider says that e-mail is
 * verified. The web app receives a single-use code of 60 seconds, never a token in a URL.
 */
export class GoogleSignIn {
  private configuration: Promise<oidc.Configuration> | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly resources: ResourceRegistry,
    private readonly settings: { issuer: string; clientId: string; clientSecret: string },
    private readonly log: FastifyBaseLogger,
  ) {}

  private get redirectUri(): string {
    return `${this.ctx.config.publicUrl}/api/identity/google/callback`;
  }

  /** The issuer's metadata, discovered once (again after a failure). */
  private discover(): Promise<oidc.Configuration> {
    this.configuration ??= (async () => {
      const issuer = new URL(this.settings.issuer);
      // Plain http only for an issuer on this machine (the tests' local provider).
      const local = issuer.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(issuer.hostname);
      const config = await oidc.discovery(issuer, this.settings.clientId, this.settings.clientSecret, undefined, {
        execute: local ? [oidc.allowInsecureRequests] : [],
        timeout: 10,
      });
      oidc.enableNonRepudiationChecks(config);
      return config;
    })().catch((err: unknown) => {
      this.configuration = null;
      throw err;
    });
    return this.configuration;
  }

  /**
   * A path on our own origin, else null (the web app then opens the user's landing page). Only what starts with one slash, resolves on PUBLIC_URL and stays
   * on its origin is kept: `//evil.test`, `/\evil.test` and `https://evil.test/` are not.
   */
  safeRedirect(wanted: string | undefined): string | null {
    if (!wanted || !wanted.startsWith('/') || wanted.startsWith('//') || wanted.includes('\\')) return null;
    try {
      const base = new URL(this.ctx.config.publicUrl);
      const url = new URL(wanted, base);
      return url.origin === base.origin ? `${url.pathname}${url.search}` : null;
    } catch {
      return null;
    }
  }

  /** GET …/google/start: the provider's authorization URL and the signed flow cookie that goes with it. */
  async start(redirect: string | undefined): Promise<{ url: string; cookie: string }> {
    const config = await this.discover();
    const flow: Flow = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      verifier: oidc.randomPKCECodeVerifier(),
      redirect: this.safeRedirect(redirect),
      exp: this.ctx.clock.now().getTime() + GOOGLE_FLOW_TTL_MS,
    };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri,
      scope: 'openid email profile',
      response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: 'S256',
      state: flow.state,
      nonce: flow.nonce,
    });
    const body = Buffer.from(JSON.stringify(flow)).toString('base64url');
    return { url: url.href, cookie: `${body}.${this.ctx.keys.mac(FLOW_PURPOSE, body)}` };
  }

  private readFlow(cookie: string | undefined): Flow | null {
    if (!cookie || cookie.length > 4096) return null;
    const [body, mac, extra] = cookie.split('.');
    if (!body || !mac || extra !== undefined) return null;
    const expected = Buffer.from(this.ctx.keys.mac(FLOW_PURPOSE, body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const flow = JSON.parse(Buffer.from(body, 'base64url').toString()) as Flow;
      return flow.exp > this.ctx.clock.now().getTime() ? flow : null;
    } catch {
      return null;
    }
  }

  /**
   * GET …/google/callback: checks state, PKCE and nonce, the ID token (signature, issuer, audience, expiry),
   * then finds, links or creates the account and returns the web page to go to with a single-use code.
   * The URL checked is rebuilt on PUBLIC_URL from the request's path and query, never from its Host.
   */
  async callback(pathAndQuery: string, flowCookie: string | undefined): Promise<string> {
    const flow = this.readFlow(flowCookie);
    if (!flow) throw new GoogleSignInError('state');
    const config = await this.discover();
    const current = new URL(pathAndQuery, this.ctx.config.publicUrl);
    if (current.searchParams.get('state') !== flow.state) throw new GoogleSignInError('state');
    let claims: oidc.IDToken | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (err) {
      this.log.warn({ err }, 'Google sign-in refused');
      throw new GoogleSignInError('provider');
    }
    if (!claims?.sub || typeof claims.email !== 'string') throw new GoogleSignInError('provider');
    const user = await this.accountFor({
      subject: claims.sub,
      email: claims.email.trim().toLowerCase(),
      emailVerified: claims.email_verified === true,
      name: typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim().slice(0, 120) : claims.email,
    });
    if (user.disabled) throw new GoogleSignInError('disabled');
    const code = await issueActionToken(this.ctx.db, this.ctx.clock, user.id, 'google-code');
    const q = new URLSearchParams(flow.redirect ? { code, redirect: flow.redirect } : { code });
    return `${GOOGLE_RETURN_PAGE}?${q.toString()}`;
  }

  /**
   * The account for the provider's subject: the one already linked, else the one with the same e-mail when
   * the provider vouches for it (linked now), else a new account (a customer with no company yet: the
   * web app's POST /api/auth/google-auth registers it in the market). An account with the same e-mail
   * that the provider does not vouch for is never taken over.
   */
  private async accountFor(id: { subject: string; email: string; emailVerified: boolean; name: string }) {
    const linked = await this.linkedUser(id.subject);
    if (linked) return linked;
    const [same] = await this.ctx.db
      .select()
      .from(users)
      .where(and(sql`lower(${users.email}) = ${id.email}`, isNull(users.deletedAt)))
      .limit(1);
    if (same && !id.emailVerified) throw new GoogleSignInError('unverified');
    return this.resources.transaction(same?.companyId ?? '', async (scope) => {
      let user = same;
      if (user) {
        if (!user.emailVerified) {
          await this.resources.users.update(
            systemActor('verify-email'),
            user.companyId,
            user.id,
            { emailVerified: true },
            scope,
          );
        }
      } else {
        // A new account: a customer of no company yet (googleAuth registers it in the market).
        const created = await this.resources.users.create(
          systemActor('registration'),
          null,
          {
            email: id.email,
            name: id.name,
            role: ROLE.companyCustomer,
            emailVerified: id.emailVerified,
            passwordHash: null,
          },
          scope,
        );
        const [row] = await scope.tx
          .select()
          .from(users)
          .where(eq(users.id, created.id as string));
        user = row!;
      }
      // Two first sign-ins at once: the unique (provider, subject) index lets one link; the other reads it.
      await scope.tx
        .insert(userIdentities)
        .values({ provider: PROVIDER, subject: id.subject, userId: user.id, createdAt: this.ctx.clock.now() })
        .onConflictDoNothing();
      return (await this.linkedUser(id.subject, scope.tx)) ?? user;
    });
  }

  private async linkedUser(subject: string, db: Pick<AppContext['db'], 'select'> = this.ctx.db) {
    const [row] = await db
      .select({ user: users })
      .from(userIdentities)
      .innerJoin(users, eq(users.id, userIdentities.userId))
      .where(and(eq(userIdentities.provider, PROVIDER), eq(userIdentities.subject, subject), isNull(users.deletedAt)))
      .limit(1);
    return row?.user;
  }

  /** POST …/google/exchange: spends the code; the user whose session starts. */
  async exchange(code: string): Promise<{ userId: string }> {
    const uid = await peekActionToken(this.ctx.db, code, 'google-code');
    const outcome = uid
      ? await this.ctx.db.transaction((tx) => spendActionToken(tx, this.ctx.clock, code, 'google-code'))
      : ({ ok: false, reason: 'invalid' } as const);
    if (!outcome.ok) {
      throw outcome.reason === 'expired'
        ? new AppError(400, 'auth/expired-action-code', 'This code has expired')
        : new AppError(400, 'auth/invalid-action-code', 'This code is not valid or was already used');
    }
    return { userId: outcome.userId };
  }

  /**
   * POST /api/auth/google-auth (spec §7): the signed-in Google user is registered as a company_customer of
   * the market the first time (a new account has no company yet); afterwards nothing is registered again.
   * The role and companyId of the payload are never read.
   */
  async googleAuth(caller: Caller | null, email: unknown) {
    if (!caller) throw unauthenticated();
    if (typeof email !== 'string' || email.trim().toLowerCase() !== caller.email.toLowerCase()) {
      throw new AppError(401, 'auth/email-mismatch', 'Backend authentication failed');
    }
    const [identity] = await this.ctx.db
      .select({ subject: userIdentities.subject })
      .from(userIdentities)
      .where(and(eq(userIdentities.provider, PROVIDER), eq(userIdentities.userId, caller.uid)))
      .limit(1);
    if (!identity) throw new AppError(403, 'forbidden', 'This account has not signed in with Google');
    let registered = false;
    if (can(caller.role, 'market:join') && caller.companyId === null) {
      const market = await this.ctx.marketCompanyId();
      if (!market) throw new AppError(503, 'unavailable', 'The market has no company yet');
      // Logged under the market: its back office sees its new customer.
      const row = await this.resources.transaction(market, (scope) =>
        unlessMissing(
          this.resources.users.update(
            systemActor('market'),
            null,
            caller.uid,
            { companyId: market, lastLoginAt: this.ctx.clock.now() },
            scope,
            { where: isNull(users.companyId) },
          ),
        ),
      );
      registered = row !== null;
    }
    const [u] = await this.ctx.db.select().from(users).where(eq(users.id, caller.uid)).limit(1);
    if (!u) throw unauthenticated();
    if (!registered) {
      await this.resources.users.update(systemActor('sign-in'), u.companyId, u.id, {
        lastLoginAt: this.ctx.clock.now(),
      });
    }
    return {
      registered,
      user: {
        uid: u.id,
        email: u.email,
        name: u.name,
        role: u.role,
        companyId: u.companyId,
        emailVerified: u.emailVerified,
      },
    };
  }
}
