import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  can,
  InvitationParams,
  InvitationSent,
  LinkInfo,
  LinkInfoInput,
  PasswordResetConfirmInput,
  PasswordResetRequestInput,
  VerificationResent,
  VerifyEmailInput,
  EmailVerified,
} from '@hornada/domain';
import { z } from 'zod';
import { forbidden, unauthenticated } from '../../lib/errors';
import { OutboxPage, OutboxQuery } from '@hornada/domain/outbox';
import { listOutbox } from '../../providers/email/outbox';
import { escapeLike } from '../../resources/query';
import type { AccountEmailService } from './account-email.service';

/** Password recovery, e-mail verification and the outbox (docs/design.md §3's paths). */
export function registerAccountEmailRoutes(app: FastifyInstance, service: AccountEmailService): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['identity'];
  const nothing = z.object({ data: z.null() });
  const noStore = (reply: FastifyReply) => void reply.header('cache-control', 'no-store');
  // Opened from e-mails, perhaps in a browser holding an expired token: the bearer is not read.
  const ignoreBearer = { ignoreBearer: true };

  r.post(
    '/api/identity/password-reset',
    {
      config: ignoreBearer,
      schema: {
        tags,
        summary: 'Ask for a password reset link',
        description:
          'Always 200 {data: null}, byte for byte the same whether or not the account exists; a known account ' +
          'gets a single-use link of 30 minutes by e-mail. 429 beyond the per-address limit.',
        body: PasswordResetRequestInput,
        response: { 200: nothing },
      },
    },
    async (req, reply) => {
      noStore(reply);
      await service.requestPasswordReset(req.body.email, req.ip);
      return { data: null };
    },
  );

  r.post(
    '/api/identity/password-reset/confirm',
    {
      config: ignoreBearer,
      schema: {
        tags,
        summary: 'Set a new password with a reset link; every session of the account ends',
        description:
          'An account a bakery made for this address leaves that bakery, unless `accept` is true or the link is ' +
          "the bakery's invitation.",
        body: PasswordResetConfirmInput,
        response: { 200: nothing },
      },
    },
    async (req, reply) => {
      noStore(reply);
      await service.confirmPasswordReset(req.body.token, req.body.password, req.ip, req.body.accept);
      return { data: null };
    },
  );

  r.post(
    '/api/identity/verify-email',
    {
      config: ignoreBearer,
      schema: {
        tags,
        summary: 'Confirm an e-mail address with its link',
        description:
          'An account a bakery made for this address leaves that bakery and loses the password it was given, ' +
          'unless `accept` is true.',
        body: VerifyEmailInput,
        response: { 200: z.object({ data: EmailVerified }) },
      },
    },
    async (req, reply) => {
      noStore(reply);
      return { data: await service.verifyEmail(req.body.token, req.body.accept) };
    },
  );

  r.post(
    '/api/identity/link-info',
    {
      config: ignoreBearer,
      schema: {
        tags,
        summary: "What a recovery or verification link's page asks first",
        description:
          'madeBy: the bakery that made the account for this address and the role it gave, when its owner has ' +
          'not proven it yet (the page then asks whether to stay: accept); else null. Spends nothing.',
        body: LinkInfoInput,
        response: { 200: z.object({ data: LinkInfo }) },
      },
    },
    async (req, reply) => {
      noStore(reply);
      return { data: await service.linkInfo(req.body.token) };
    },
  );

  r.post(
    '/api/identity/verify-email/resend',
    {
      schema: {
        tags,
        summary: 'Send the signed-in user a new verification link',
        description: '`sent` is false when the e-mail is already verified.',
        response: { 200: z.object({ data: VerificationResent }) },
      },
    },
    async (req) => ({ data: await service.resendVerification(req.rc, req.ip) }),
  );

  r.post(
    '/api/companies/:companyId/users/:id/invitation',
    {
      schema: {
        tags,
        summary: 'Send a pending invitation again',
        description:
          'For a person invited who has not yet chosen a password nor signed in: a new link of 7 days by e-mail; ' +
          'the earlier links stop working. Whoever may create the person may (an admin anyone, staff a customer). ' +
          '404 for a person of another company; 409 users/not-invited when nothing is pending; 429 beyond ' +
          'a few a person in an hour.',
        params: InvitationParams,
        response: { 200: z.object({ data: InvitationSent }) },
      },
    },
    async (req, reply) => {
      noStore(reply);
      return { data: await service.resendInvitation(req.rc, req.params.id) };
    },
  );

  r.get(
    '/api/outbox',
    {
      schema: {
        tags: ['system'],
        summary: 'E-mail kept instead of sent (no SMTP_URL), newest first; system_admin only',
        description:
          '`q`: only the mails whose address contains it (any case). `total` counts what matches. The back ' +
          "office's /dashboard/outbox reads it.",
        querystring: OutboxQuery,
        response: { 200: OutboxPage },
      },
    },
    async (req, reply) => {
      if (!req.caller) throw unauthenticated();
      if (!can(req.caller.role, 'outbox:read')) throw forbidden();
      noStore(reply);
      return listOutbox(
        app.ctx.db,
        req.query.page,
        req.query.per_page,
        req.query.q ? `%${escapeLike(req.query.q.toLowerCase())}%` : undefined,
      );
    },
  );
}
