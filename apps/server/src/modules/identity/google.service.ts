import { randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import * as oidc from 'openid-client';
import type { AppContext } from '../../context';
import type { RequestContext } from '../../request-context';
import { userIdentities, users } from '../../db/schema';
import { AppError, unauthenticated } from '../../lib/errors';
import type { ResourceRegistry } from '../../resources/registry';
import { systemActor } from '../../resources/actor';
import { can, SHOPPER_ROLE, titleCaseName } from '@hornada/domain';
import type { WriteScope } from '../../resources/service';
import { issueActionToken, peekActionToken, spendActionToken } from './action-tokens';
import { awaitsOwner, releaseToOwner } from './account-claims';
import { revokeAllForUser } from './refresh-tokens';
import { nextSessionsValidFrom, unlessMissing } from './sessions';

/** The web page the callback hands its result to (apps/web/src/config/paths.ts: googleReturn). */
export const GOOGLE_RETURN_PAGE = '/acceso/google';
/** The flow's cookie: state, nonce, PKCE verifier and redirect, HMAC-signed, for 10 minutes. */
export const GOOGLE_FLOW_COOKIE = 'hornada_google';
export const GOOGLE_FLOW_TTL_MS = 10 * 60_000;
/**
 * The browser that started the flow, HMAC-signed, for as long as the flow: the code the callback hands
 * the web page is bound to it, so the page of another browser cannot exchange it (login CSRF).
 */
export const GOOGLE_BROWSER_COOKIE = 'hornada_google_browser';
const PROVIDER = 'google';
const FLOW_PURPOSE = 'google-flow v1';
const BROWSER_PURPOSE = 'google-browser v1';
const BINDING_PURPOSE = 'google-code-browser v1';

/**
 * Whether a browser or a router could read the path as another host: `//x` or `/\x` (`\` is `/` to a
 * browser), as given, once normalised (`/.//x` is `//x`) or once percent-decoded (`/.%2F/x`).
 */
function leavesOrigin(path: string, base: URL): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return true;
  }
  return [path, decoded].some((p) => {
    if (/^[/\\]{2}/.test(p)) return true;
    const url = new URL(p, base);
    return url.origin !== base.origin || /^[/\\]{2}/.test(url.pathname);
  });
}

/**
 * A path on PUBLIC_URL's origin, else null (the web app then opens the user's landing page): what starts
 * with one slash and stays on the origin however it is read (leavesOrigin), returned normalised.
 */
export function safeRedirect(publicUrl: string, wanted: string | undefined): string | null {
  if (!wanted || !wanted.startsWith('/') || wanted.includes('\\')) return null;
  try {
    const base = new URL(publicUrl);
    if (leavesOrigin(wanted, base)) return null;
    const url = new URL(wanted, base);
    return leavesOrigin(url.pathname, base) ? null : `${url.pathname}${url.search}`;
  } catch {
    return null;
  }
}

interface Flow {
  state: string;
  nonce: string;
  verifier: string;
  redirect: string | null;
  /** The id in the browser cookie of the browser that started (GOOGLE_BROWSER_COOKIE). */
  browser: string;
  exp: number;
}

const otherBrowser = () =>
  new AppError(403, 'auth/google-other-browser', 'This Google sign-in was started in another browser');

/** `value.mac` checked in constant time; the value, or null. */
function readSigned(keys: AppContext['keys'], purpose: string, cookie: string | undefined): string | null {
  if (!cookie || cookie.length > 4096) return null;
  const [body, mac, extra] = cookie.split('.');
  if (!body || !mac || extra !== undefined) return null;
  const expected = Buffer.from(keys.mac(purpose, body));
  const given = Buffer.from(mac);
  return given.length === expected.length && timingSafeEqual(given, expected) ? body : null;
}

/** A single-use code bound to a browser: `id.secret.binding`, the binding a MAC of the code and the browser. */
export function bindCode(keys: AppContext['keys'], code: string, browser: string): string {
  return `${code}.${keys.mac(BINDING_PURPOSE, `${code}:${browser}`)}`;
}

/** A new browser id and its signed cookie value (GET …/google/start). */
export function newBrowserCookie(keys: AppContext['keys']): { browser: string; cookie: string } {
  const browser = randomBytes(24).toString('base64url');
  return { browser, cookie: `${browser}.${keys.mac(BROWSER_PURPOSE, browser)}` };
}

/** Why a sign-in with Google ended without a session: the web page words each one in Spanish. */
export type GoogleFailure = 'state' | 'provider' | 'unverified' | 'disabled';

export class GoogleSignInError extends Error {
  constructor(readonly reason: GoogleFailure) {
    super(`Google sign-in failed: ${reason}`);
  }
}

/**
 * Sign-in with Google over OpenID Connect (docs/design.md §1, §3): authorization code with PKCE, state and nonce,
 * the ID token's signature checked against the issuer's keys. The account is keyed on the provider's
 * subject; only an identity whose e-mail the provider verified signs in, and an existing account with the
 * same e-mail is linked as it is only when its own e-mail is verified (accountFor). The web app receives a
 * single-use code of 60 seconds, bound to the browser that started, never a token in a URL.
 */
export class GoogleSignIn {
  private configuration: Promise<oidc.Configuration> | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly resources: ResourceRegistry,
    private readonly settings: { issuer: string; clientId: string; clientSecret: string },
    private readonly log: FastifyBaseLogger,
    /** Tells an account's owner that signing in with Google made them its only owner (in the background). */
    private readonly notifyOwner: (userId: string) => void,
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

  /** A path on our own origin, else null (the web app then opens the user's landing page). */
  safeRedirect(wanted: string | undefined): string | null {
    return safeRedirect(this.ctx.config.publicUrl, wanted);
  }

  /** GET …/google/start: the provider's authorization URL and the signed flow cookie that goes with it. */
  async start(redirect: string | undefined): Promise<{ url: string; cookie: string; browserCookie: string }> {
    const config = await this.discover();
    const browser = newBrowserCookie(this.ctx.keys);
    const flow: Flow = {
      browser: browser.browser,
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
    return { url: url.href, cookie: `${body}.${this.ctx.keys.mac(FLOW_PURPOSE, body)}`, browserCookie: browser.cookie };
  }

  private readFlow(cookie: string | undefined): Flow | null {
    const body = readSigned(this.ctx.keys, FLOW_PURPOSE, cookie);
    if (!body) return null;
    try {
      const flow = JSON.parse(Buffer.from(body, 'base64url').toString()) as Flow;
      return flow.exp > this.ctx.clock.now().getTime() && typeof flow.browser === 'string' ? flow : null;
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
      name:
        typeof claims.name === 'string' && claims.name.trim()
          ? titleCaseName(claims.name.trim().slice(0, 120))
          : claims.email,
    });
    if (user.disabled) throw new GoogleSignInError('disabled');
    const code = bindCode(
      this.ctx.keys,
      await issueActionToken(this.ctx.db, this.ctx.clock, user.id, 'google-code'),
      flow.browser,
    );
    const q = new URLSearchParams(flow.redirect ? { code, redirect: flow.redirect } : { code });
    return `${GOOGLE_RETURN_PAGE}?${q.toString()}`;
  }

  /**
   * The account for the provider's subject. Nothing is created or linked unless the
   * provider vouches for the e-mail. Then: the account already linked; else the one with the same e-mail,
   * linked as it is when its e-mail is verified, or else taken over by this proven owner (takeOver); else
   * a new account (a customer with no company yet: the web app's POST /api/auth/google-auth registers it
   * in the market).
   */
  private async accountFor(id: { subject: string; email: string; emailVerified: boolean; name: string }) {
    if (!id.emailVerified) throw new GoogleSignInError('unverified');
    const linked = await this.linkedUser(id.subject);
    if (linked) return linked;
    const [same] = await this.ctx.db
      .select()
      .from(users)
      .where(and(sql`lower(${users.email}) = ${id.email}`, isNull(users.deletedAt)))
      .limit(1);
    let tookOver = false;
    const user = await this.resources.transaction(same?.companyId ?? '', async (scope) => {
      let user = same;
      if (user) {
        if (!user.emailVerified) {
          await this.takeOver(user, scope);
          tookOver = true;
        }
      } else {
        // A new account: a customer of no company yet (googleAuth registers it in the market).
        const created = await this.resources.users.create(
          systemActor('registration'),
          null,
          {
            email: id.email,
            name: id.name,
            role: SHOPPER_ROLE,
            emailVerified: true,
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
        .values({
          provider: PROVIDER,
          subject: id.subject,
          userId: user.id,
          emailVerified: true,
          createdAt: this.ctx.clock.now(),
        })
        .onConflictDoNothing();
      return (await this.linkedUser(id.subject, scope.tx)) ?? user;
    });
    if (tookOver) this.notifyOwner(user.id);
    return user;
  }

  /**
   * An account whose e-mail was never verified, claimed by the provider's proven owner of that e-mail:
   * whoever registered it (anyone can type an address) loses it. The password is cleared, every session
   * and refresh token ends, identities linked without a verified e-mail are unlinked, the e-mail counts
   * as verified; the owner is told by e-mail after the commit. An account a bakery made for the address
   * also leaves that bakery (account-claims.ts): nobody asked its owner to accept it.
   */
  private async takeOver(
    user: Pick<typeof users.$inferSelect, 'id' | 'companyId' | 'createdBy' | 'emailVerified'>,
    scope: WriteScope,
  ): Promise<void> {
    const userId = user.id;
    if (awaitsOwner(user)) {
      await releaseToOwner(this.resources, this.ctx.clock, scope, user, false);
    } else {
      await this.resources.users.update(
        systemActor('takeover'),
        user.companyId,
        userId,
        { passwordHash: null, emailVerified: true, sessionsValidFrom: nextSessionsValidFrom(this.ctx.clock) },
        scope,
      );
      await revokeAllForUser(scope.tx, this.ctx.clock, userId);
    }
    await scope.tx
      .delete(userIdentities)
      .where(and(eq(userIdentities.userId, userId), ne(userIdentities.emailVerified, true)));
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

  /**
   * POST …/google/exchange: spends the code, in the browser that started the flow only (its cookie);
   * elsewhere it is refused without being spent. The user whose session starts.
   */
  async exchange(bound: string, browserCookie: string | undefined): Promise<{ userId: string }> {
    const cut = bound.lastIndexOf('.');
    const code = bound.slice(0, cut);
    const browser = readSigned(this.ctx.keys, BROWSER_PURPOSE, browserCookie);
    if (cut < 0 || !browser) throw otherBrowser();
    const expected = Buffer.from(bindCode(this.ctx.keys, code, browser));
    const given = Buffer.from(bound);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw otherBrowser();
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
   * POST /api/auth/google-auth (docs/product.md §7): the signed-in Google user is registered as a company_customer of
   * the market the first time (a new account has no company yet); afterwards nothing is registered again.
   * The role and companyId of the payload are never read.
   */
  async googleAuth(rc: RequestContext, email: unknown, shopId?: string | null) {
    const { caller } = rc;
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
      const market = shopId === undefined ? await this.ctx.marketCompanyId() : shopId;
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
