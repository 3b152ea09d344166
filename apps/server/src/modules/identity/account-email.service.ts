import { can, grantOf, hearsFromPlatform, isRole, type LinkInfo } from '@hornada/domain';
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import type { RequestContext } from '../../request-context';
import { orders, userIdentities, users } from '../../db/schema';
import { AppError, forbidden, unauthenticated } from '../../lib/errors';
import { assertAcceptablePassword, hashPassword } from '../../lib/passwords';
import type { EmailDriver } from '../../providers/email';
import {
  googleOwnerMail,
  invitationMail,
  passwordResetMail,
  verifyEmailMail,
  type MailVoice,
} from '../../providers/email/templates';
import { fileUrl } from '../files';
import type { ResourceRegistry } from '../../resources/registry';
import { writeAccess } from '../../resources/access';
import { asUser, systemActor } from '../../resources/actor';
import type { WriteScope } from '../../resources/service';
import { Attempts, countGate, RECOVERY_WINDOW_MS, SIGNIN_WINDOW_MS } from './attempts';
import {
  issueActionToken,
  peekActionToken,
  pruneActionTokens,
  spendActionToken,
  spendOthers,
  type ActionOutcome,
  type ActionPurpose,
} from './action-tokens';
import { awaitsOwner, releaseToOwner } from './account-claims';
import { lockUser, revokeAllForUser } from './refresh-tokens';
import { nextSessionsValidFrom, unlessMissing } from './sessions';

/** The web pages the links open (apps/web/src/config/paths.ts: passwordReset, verifyEmail). */
const RESET_PAGE = '/restablecer-contrasena';
const VERIFY_PAGE = '/verificar-correo';

/** Messages one address may get of each kind in an hour, beyond which requests are answered but not sent. */
const MAILS_PER_ACCOUNT = 5;

/** Invitations one person may be sent again in an hour (a slip of the finger, not a mailbox flooded). */
export const INVITATION_RESENDS_PER_HOUR = 3;

/** The platform's own name: the voice of mail to bakery owners (voiceOf). */
const PLATFORM_NAME = 'Hornada';
/** Hornada's voice: its name, never a bakery's logo. */
const PLATFORM_VOICE: MailVoice = { name: PLATFORM_NAME, logoUrl: null };

type UserRow = typeof users.$inferSelect;

const invalidLink = () => new AppError(400, 'auth/invalid-action-code', 'This link is not valid or was already used');
const expiredLink = () => new AppError(400, 'auth/expired-action-code', 'This link has expired');

function refused(outcome: Exclude<ActionOutcome, { ok: true }>): AppError {
  return outcome.reason === 'expired' ? expiredLink() : invalidLink();
}

/**
 * Password recovery and e-mail verification (docs/design.md §1, §3): single-use links of 30 minutes, built on
 * PUBLIC_URL (never the request's Host), mailed through the e-mail driver. Mail goes out in the
 * background, so a reset request takes the same time and gets the same answer whether or not the
 * account exists.
 */
export class AccountEmailService {
  private readonly attempts: Attempts;
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly ctx: AppContext,
    private readonly resources: ResourceRegistry,
    private readonly email: EmailDriver,
    private readonly log: FastifyBaseLogger,
  ) {
    this.attempts = new Attempts(ctx.db, ctx.clock);
  }

  /** Resolves once every message started so far has been handed over (or failed and been logged). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /**
   * A link on PUBLIC_URL, or for a shopper on their bakery's shop (docs/design.md §4: `{slug}.{host}`), where their
   * session lives; never on the request's Host.
   */
  private async link(page: string, token: string, user: { role?: string; companyId: string | null }): Promise<string> {
    const origin =
      isRole(user.role) && can(user.role, 'orders:own') && user.companyId
        ? await this.ctx.shops.originOf(user.companyId)
        : this.ctx.config.publicUrl;
    return `${origin}${page}?token=${encodeURIComponent(token)}`;
  }

  /** A bakery's name as its settings give it (Hornada's while unreadable). */
  private async bakeryName(companyId: string): Promise<string> {
    return (await this.bakeryVoice(companyId)).name;
  }

  /** A bakery's name and its logo on its own shop's origin (Hornada's voice while unreadable). */
  private async bakeryVoice(companyId: string): Promise<MailVoice> {
    const s = await this.resources.settings.publicOf(companyId).catch(() => null);
    if (!s?.marketName) return PLATFORM_VOICE;
    const logoUrl = s.logo ? fileUrl(await this.ctx.shops.originOf(companyId), s.logo.path) : null;
    return { name: s.marketName, logoUrl };
  }

  /**
   * Who speaks in an account's mail. The voice follows the account, not the request's
   * host: a bakery's people (its shoppers, staff, drivers) hear from their bakery; a bakery's owner, someone
   * signing up to create one (no bakery yet) and a system admin are the platform's customers and hear from
   * Hornada, never from the market's bakery, whatever shop they came through.
   */
  private async voiceOf(user: { role: string; companyId: string | null }): Promise<MailVoice> {
    return this.isPlatformVoice(user) || !user.companyId ? PLATFORM_VOICE : this.bakeryVoice(user.companyId);
  }

  private isPlatformVoice(user: { role: string; companyId: string | null }): boolean {
    return !isRole(user.role) || hearsFromPlatform({ role: user.role, companyId: user.companyId });
  }

  /**
   * Writes and sends a message in the background, when the account may get one more of its kind this hour
   * (`limitKey`); a failure is logged, never shown to the requester.
   */
  private dispatch(
    user: UserRow,
    purpose: ActionPurpose,
    page: string,
    write: typeof passwordResetMail,
    limitKey?: string,
  ): void {
    this.background(purpose, async () => {
      if (limitKey && !(await this.mayMail(limitKey))) return;
      const token = await issueActionToken(this.ctx.db, this.ctx.clock, user.id, purpose);
      const voice = await this.voiceOf(user);
      const mail = write(voice, user.name, await this.link(page, token, user));
      await this.email.send({ ...mail, to: user.email, fromName: voice.name });
    });
  }

  private background(purpose: string, send: () => Promise<void>): void {
    const job = send()
      .catch((err: unknown) => this.log.error({ err, purpose }, 'e-mail could not be sent'))
      .finally(() => this.pending.delete(job));
    this.pending.add(job);
  }

  /**
   * Mails an invitation whose code was issued in the creating transaction (identity's users hook), after
   * it committed: the link opens the reset page, where the person chooses a password.
   */
  sendInvitation(
    user: { id: string; email: string; name: string; role: string; companyId: string | null },
    token: string,
  ): void {
    this.background('invitation', async () => {
      // An invitation speaks as the bakery that invited, whatever role it gave (an owner's co-admin too).
      const voice = user.companyId ? await this.bakeryVoice(user.companyId) : PLATFORM_VOICE;
      const mail = invitationMail(voice, user.name, await this.link(RESET_PAGE, token, user));
      await this.email.send({ ...mail, to: user.email, fromName: voice.name });
    });
  }

  /** Tells the owner that signing in with Google made them the account's only owner (google.service.ts). */
  notifyGoogleOwner(uid: string): void {
    this.background('google-owner', async () => {
      const user = await this.activeUser(eq(users.id, uid));
      if (!user) return;
      const voice = await this.voiceOf(user);
      await this.email.send({ ...googleOwnerMail(voice), to: user.email, fromName: voice.name });
    });
  }

  private async activeUser(where: SQL): Promise<UserRow | undefined> {
    const u = await this.liveUser(where);
    return u && !u.disabled ? u : undefined;
  }

  private async liveUser(where: SQL): Promise<UserRow | undefined> {
    const [u] = await this.ctx.db
      .select()
      .from(users)
      .where(and(where, isNull(users.deletedAt)))
      .limit(1);
    return u;
  }

  /**
   * The account a recovery or verification link may reach: an active one, or one a bakery made for this
   * address and disabled before its owner proved it (that bakery's choice never keeps the owner out).
   */
  private async reachableUser(where: SQL): Promise<UserRow | undefined> {
    const u = await this.liveUser(where);
    return u && (!u.disabled || awaitsOwner(u)) ? u : undefined;
  }

  /** Whether this account may get one more message of the kind this hour (counted whether or not sent). */
  private async mayMail(key: string): Promise<boolean> {
    const admission = await this.attempts.admit([countGate(key, MAILS_PER_ACCOUNT, RECOVERY_WINDOW_MS)]);
    return admission.ok;
  }

  /**
   * POST /api/identity/password-reset. Limited per address (429); otherwise the same answer for every
   * e-mail. A known, enabled account gets a link, at most a few an hour.
   */
  async requestPasswordReset(emailInput: string, ip: string): Promise<void> {
    const { recoveryPerAddress } = this.ctx.config.rateLimits;
    await this.attempts.admitOrThrow([countGate(`recovery-ip:${ip}`, recoveryPerAddress, RECOVERY_WINDOW_MS)]);
    const email = emailInput.trim().toLowerCase();
    const user = await this.reachableUser(sql`lower(${users.email}) = ${email}`);
    // The per-account cap is checked in the background too: a known e-mail costs the request no more work.
    if (user) this.dispatch(user, 'password-reset', RESET_PAGE, passwordResetMail, `recovery-email:${user.id}`);
  }

  /**
   * POST /api/identity/password-reset/confirm: a new password under the Identity rules. The link is
   * spent, the hash replaced, the e-mail counted as verified (the link reached that mailbox), every
   * session of the account ends (refresh tokens revoked, earlier id tokens refused), and a Google identity
   * linked without a verified e-mail is unlinked, all in one transaction. An invitation's link is taken the
   * same way; choosing a password through it accepts the inviting bakery. An account a bakery made for the
   * address leaves that bakery otherwise, unless the owner `accept`s it (account-claims.ts).
   */
  async confirmPasswordReset(token: string, password: string, ip: string, accept = false): Promise<void> {
    assertAcceptablePassword(password);
    const { signInPerAddress } = this.ctx.config.rateLimits;
    await this.attempts.admitOrThrow([countGate(`signin-ip:${ip}`, signInPerAddress, SIGNIN_WINDOW_MS)]);
    const passwordHash = await hashPassword(password);
    const purpose = (await peekActionToken(this.ctx.db, token, 'invitation')) ? 'invitation' : 'password-reset';
    await this.spend(token, purpose, async (user, scope) => {
      const row = await unlessMissing(
        this.resources.users.update(
          systemActor('password'),
          user.companyId,
          user.id,
          { passwordHash, emailVerified: true, sessionsValidFrom: nextSessionsValidFrom(this.ctx.clock) },
          scope,
        ),
      );
      if (!row) throw invalidLink();
      await revokeAllForUser(scope.tx, this.ctx.clock, user.id);
      await spendOthers(scope.tx, this.ctx.clock, user.id, 'password-reset');
      await spendOthers(scope.tx, this.ctx.clock, user.id, 'invitation');
      // The mailbox's owner is proven now: a provider identity that never proved this e-mail goes.
      await scope.tx
        .delete(userIdentities)
        .where(and(eq(userIdentities.userId, user.id), eq(userIdentities.emailVerified, false)));
      if (awaitsOwner(user) && !this.accepts(user, purpose === 'invitation' || accept)) {
        // The password is the owner's own from this link: it stays.
        await releaseToOwner(this.resources, this.ctx.clock, scope, user, true);
        return;
      }
      // The link proved the mailbox, as a verification does (a guest's «crear mi cuenta» ends here).
      await this.joinGuestOrders(user, scope);
    });
  }

  /**
   * POST /api/identity/link-info: for a recovery or verification link of an account a bakery made for the
   * address, that bakery's name and the role it gave, so the page asks whether the owner stays in it. Null
   * otherwise (an invitation's link accepts by itself; a disabled account leaves; a bad link is told by the
   * proof). Only the mailbox's owner holds the code, so this tells nobody else anything.
   */
  async linkInfo(token: string): Promise<LinkInfo> {
    const none: LinkInfo = { madeBy: null, invitation: null, platform: false };
    const invited = await peekActionToken(this.ctx.db, token, 'invitation');
    if (invited) {
      // The invitation's page speaks as the bakery that invited, as its mail did.
      const user = await this.reachableUser(eq(users.id, invited));
      const bakery = user?.companyId ? await this.bakeryName(user.companyId) : null;
      return { ...none, invitation: bakery ? { bakery } : null };
    }
    for (const purpose of ['password-reset', 'verify-email'] as const) {
      const uid = await peekActionToken(this.ctx.db, token, purpose);
      if (!uid) continue;
      const user = await this.liveUser(eq(users.id, uid));
      if (!user) return none;
      const platform = this.isPlatformVoice(user);
      if (!user.companyId || user.disabled || !awaitsOwner(user)) return { ...none, platform };
      return { ...none, madeBy: { bakery: await this.bakeryName(user.companyId), role: user.role }, platform };
    }
    return none;
  }

  /** Whether the owner's proof keeps a made account in its bakery: asked, and not disabled by that bakery. */
  private accepts(user: UserRow, asked: boolean): boolean {
    return asked && !user.disabled;
  }

  /**
   * Spends a code and runs `then` in the same transaction (the users service's, so the change is logged
   * under the user's company). A disabled or deleted account's code is refused like an unknown one.
   */
  private async spend(
    token: string,
    purpose: ActionPurpose,
    then: (user: UserRow, scope: WriteScope) => Promise<void>,
  ): Promise<UserRow> {
    const uid = await peekActionToken(this.ctx.db, token, purpose);
    const owner = uid ? await this.reachableUser(eq(users.id, uid)) : undefined;
    if (!owner) throw invalidLink();
    return this.resources.transaction(owner.companyId ?? '', async (scope) => {
      const outcome = await spendActionToken(scope.tx, this.ctx.clock, token, purpose);
      if (!outcome.ok) throw refused(outcome);
      // Read again under the user's lock: what `then` decides on (a bakery's claim above all) is the row as
      // it is now, not as another link of the same owner left it a moment ago.
      const current = await lockUser(scope.tx, owner.id);
      if (!current || current.deletedAt || current.companyId !== owner.companyId) throw invalidLink();
      await then(current, scope);
      return current;
    });
  }

  /** Registration's link (docs/design.md §1): sent to a new account whose e-mail is not yet verified. */
  async sendVerification(uid: string): Promise<void> {
    const user = await this.activeUser(eq(users.id, uid));
    if (user && !user.emailVerified) {
      this.dispatch(user, 'verify-email', VERIFY_PAGE, verifyEmailMail, `verify-email:${user.id}`);
    }
  }

  /**
   * POST /api/identity/verify-email: marks the account's e-mail verified. An account a bakery made for the
   * address leaves that bakery unless the owner `accept`s it, and then loses the creator's password too: the
   * owner chooses their own through a recovery link (account-claims.ts).
   */
  async verifyEmail(token: string, accept = false): Promise<{ email: string; emailVerified: true }> {
    const user = await this.spend(token, 'verify-email', async (owner, scope) => {
      if (awaitsOwner(owner) && !this.accepts(owner, accept)) {
        await releaseToOwner(this.resources, this.ctx.clock, scope, owner, false);
        return;
      }
      await this.resources.users.update(
        systemActor('verify-email'),
        owner.companyId,
        owner.id,
        { emailVerified: true },
        scope,
      );
      await this.joinGuestOrders(owner, scope);
    });
    return { email: user.email, emailVerified: true };
  }

  /**
   * A customer's guest orders join their account once the e-mail is proven: the web orders of
   * their bakery placed without an account with that contact e-mail. Never before: anyone may type an
   * address at registration.
   */
  private async joinGuestOrders(owner: UserRow, scope: WriteScope): Promise<void> {
    if (!can(owner.role, 'orders:own') || !owner.companyId) return;
    const rows = await scope.tx
      .select({ id: orders.id })
      .from(orders)
      .where(
        and(
          eq(orders.companyId, owner.companyId),
          isNull(orders.customerId),
          isNull(orders.deletedAt),
          eq(orders.channel, 'web'),
          sql`lower(${orders.contact}->>'email') = ${owner.email.toLowerCase()}`,
        ),
      )
      .limit(1000);
    if (rows.length === 0) return;
    await this.resources.get('orders').bulkUpdate(
      systemActor('join-orders'),
      owner.companyId,
      rows.map((r) => ({ id: r.id, data: { customerId: owner.id } })),
      scope,
    );
  }

  /** POST /api/identity/verify-email/resend: a new link for the signed-in user, limited per address and account. */
  async resendVerification(rc: RequestContext, ip: string): Promise<{ sent: boolean }> {
    const { caller } = rc;
    if (!caller) throw unauthenticated();
    const { recoveryPerAddress } = this.ctx.config.rateLimits;
    await this.attempts.admitOrThrow([
      countGate(`recovery-ip:${ip}`, recoveryPerAddress, RECOVERY_WINDOW_MS),
      countGate(`verify-resend:${caller.uid}`, MAILS_PER_ACCOUNT, RECOVERY_WINDOW_MS),
    ]);
    const user = await this.activeUser(eq(users.id, caller.uid));
    if (!user || user.emailVerified) return { sent: false };
    this.dispatch(user, 'verify-email', VERIFY_PAGE, verifyEmailMail);
    return { sent: true };
  }

  /**
   * POST …/users/{id}/invitation: the invitation sent again to a person who has not yet chosen a password nor
   * signed in. Whoever may create that person may (an admin anyone, staff a customer); another company's
   * person, or one the caller may not see, is a 404. A new link is issued and the older ones stop working, in
   * one transaction; the mail goes after it commits. Limited per person (429).
   */
  async resendInvitation(rc: RequestContext, userId: string): Promise<{ invitedAt: string }> {
    const companyId = rc.company();
    const auth = writeAccess('users', asUser(rc.caller), companyId, 'create');
    // Reading it through the users resource applies the caller's reach: another bakery's, or not theirs, is a 404.
    const person = await this.resources.users.get(rc, userId);
    if (
      auth.user &&
      grantOf(auth.user.role, 'users', 'create') === 'customers' &&
      !(isRole(person.role) && can(person.role, 'orders:own'))
    ) {
      throw forbidden('Your role cannot invite this user');
    }
    if (!person.invitedAt || person.disabled) {
      throw new AppError(409, 'users/not-invited', 'This person has no pending invitation');
    }
    await this.attempts.admitOrThrow([
      countGate(`invitation-resend:${userId}`, INVITATION_RESENDS_PER_HOUR, RECOVERY_WINDOW_MS),
    ]);
    const { user, token } = await this.resources.transaction(companyId, async (scope) => {
      const current = await lockUser(scope.tx, userId);
      if (!current || current.deletedAt || current.companyId !== companyId || !current.invitedAt) {
        throw new AppError(409, 'users/not-invited', 'This person has no pending invitation');
      }
      await spendOthers(scope.tx, this.ctx.clock, userId, 'invitation');
      const issued = await issueActionToken(scope.tx, this.ctx.clock, userId, 'invitation');
      await this.resources.users.update(
        systemActor('invitation'),
        companyId,
        userId,
        { invitedAt: this.ctx.clock.now() },
        scope,
      );
      return { user: current, token: issued };
    });
    // Committed by now: the mail never announces a link the database does not hold.
    this.sendInvitation(user, token);
    return { invitedAt: this.ctx.clock.now().toISOString() };
  }

  async prune(): Promise<number> {
    return pruneActionTokens(this.ctx.db, this.ctx.clock);
  }
}
