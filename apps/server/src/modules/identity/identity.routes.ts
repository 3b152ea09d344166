import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  AUTH_MESSAGES,
  BackendLogin,
  CompaniesQuery,
  CompanyChoice,
  CreateBakeryInput,
  IdentitySession,
  LoginInput,
  Registered,
  Settings,
  MeInput,
  PasswordChangeInput,
  RegisterInput,
  ShopperSignUpInput,
  SignInInput,
  User,
} from '@hornada/domain';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../../config';
import { users } from '../../db/schema';
import { AppError, unauthenticated } from '../../lib/errors';
import { writeLimit } from '../../plugins/rate-limit';
import { userDoc } from '../../resources/definitions/users';
import { asSent } from '../../resources/routes';
import { DEVICE_COOKIE, DEVICE_TTL_MS } from './device-cookies';
import type { SignedIn } from './identity.service';
import { prepareDummyHash } from '../../lib/passwords';
import { REFRESH_COOKIE, REFRESH_TTL_MS } from './refresh-tokens';
import { registerAccountEmailRoutes } from './account-email.routes';
import { registerGoogleRoutes } from './google.routes';
import { openToGuests } from '../../plugins/auth';
import { withJobLock } from '../../lib/job-lock';
import { requireShop } from '../../resources/shop-directory';

const COOKIE_PATH = '/api/identity';
/** Expired attempts and refresh tokens are deleted this often. */
export const PRUNE_INTERVAL_MS = 10 * 60_000;

/**
 * The refresh and device cookies are Secure outside development, and always when the public address
 * is https (whatever NODE_ENV says). NODE_ENV is read as config.ts reads it (unset or empty:
 * development); `npm start` and the e2e server leave it unset and serve plain http.
 */
export function secureCookies(nodeEnv: Config['nodeEnv'], publicUrl = ''): boolean {
  return nodeEnv !== 'development' || /^https:/i.test(publicUrl);
}

/** The answers, declared for the OpenAPI document and encoded through it: no field outside them leaves. */
const session = z.object({ data: IdentitySession });
const nothing = z.object({ data: z.null() });
const oneUser = z.object({ data: User });
const Jwks = z.object({
  keys: z.array(
    z.object({
      kty: z.string(),
      crv: z.string(),
      x: z.string(),
      y: z.string().optional(),
      kid: z.string(),
      alg: z.string(),
      use: z.string(),
    }),
  ),
});

/** Identity endpoints of docs/design.md §3 and the spec's §7 authentication calls. */
export function registerIdentityRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = app.modules.identity;
  const accountEmail = app.modules.accountEmail;
  const tags = ['identity'];
  const cookieOptions = {
    httpOnly: true,
    secure: secureCookies(app.ctx.config.nodeEnv, app.ctx.config.publicUrl),
    sameSite: 'lax' as const,
    path: COOKIE_PATH,
  };
  // Answers that carry tokens, and their errors, are never stored by a browser or a proxy.
  const noStore = (reply: FastifyReply) => void reply.header('cache-control', 'no-store');
  const sendSession = (reply: FastifyReply, s: SignedIn) => {
    noStore(reply);
    void reply.setCookie(REFRESH_COOKIE, s.refreshToken, { ...cookieOptions, maxAge: REFRESH_TTL_MS / 1000 });
    return { data: { idToken: s.idToken, expiresIn: s.expiresIn, user: s.user } };
  };
  const clearSession = (reply: FastifyReply) => void reply.clearCookie(REFRESH_COOKIE, cookieOptions);
  // Counted against the write limit like the resource writes (docs/design.md §2).
  const writes = writeLimit(app);

  // Made now, not at the first unknown e-mail, whose answer would otherwise take longer.
  const dummyReady = prepareDummyHash();
  app.addHook('onReady', async () => {
    await dummyReady;
  });
  const pruning = setInterval(() => {
    // One instance prunes at a time (job-lock.ts); the others skip this hour's run.
    withJobLock(app.ctx.db, 'identity-prune', () => Promise.all([service.prune(), accountEmail.prune()])).catch(
      (err: unknown) => app.log.warn({ err }, 'identity prune failed'),
    );
  }, PRUNE_INTERVAL_MS);
  pruning.unref();
  app.addHook('onClose', async () => clearInterval(pruning));

  // These never read the bearer (see plugins/auth.ts).
  const ignoreBearer = { ignoreBearer: true };

  registerAccountEmailRoutes(app, accountEmail);
  registerGoogleRoutes(app, service, { cookieOptions, send: sendSession });

  r.post(
    '/api/identity/sign-in',
    {
      config: ignoreBearer,
      schema: { tags, summary: 'Sign in with e-mail and password', body: SignInInput, response: { 200: session } },
    },
    async (req, reply) => {
      noStore(reply);
      const s = await service.signIn(req.body.email, req.body.password, req.ip, req.cookies[DEVICE_COOKIE]);
      // Kept across sign-outs: it remembers the device, not the session (device-cookies.ts).
      void reply.setCookie(DEVICE_COOKIE, s.deviceCookie, { ...cookieOptions, maxAge: DEVICE_TTL_MS / 1000 });
      return sendSession(reply, s);
    },
  );

  r.post(
    '/api/identity/refresh',
    {
      config: ignoreBearer,
      schema: {
        tags,
        summary: 'Rotate the refresh cookie and get a new id token',
        description: 'Without a session (no cookie): `{data: null}`, so that a guest’s page load logs no error.',
        response: { 200: z.object({ data: IdentitySession.nullable() }) },
      },
    },
    async (req, reply) => {
      noStore(reply);
      try {
        const s = await service.refresh(req.cookies[REFRESH_COOKIE]);
        // No session is not an error: a guest's page load stays quiet.
        return s ? sendSession(reply, s) : { data: null };
      } catch (err) {
        clearSession(reply);
        throw err;
      }
    },
  );

  r.post(
    '/api/identity/sign-out',
    { config: ignoreBearer, schema: { tags, summary: 'End this session', response: { 200: nothing } } },
    async (req, reply) => {
      noStore(reply);
      await service.signOut(req.cookies[REFRESH_COOKIE]);
      clearSession(reply);
      return { data: null };
    },
  );

  // The keys do not change while the app runs: checked against the document once.
  const jwks = Jwks.parse(app.ctx.keys.jwks());
  r.get(
    '/api/identity/jwks.json',
    { config: ignoreBearer, schema: { tags, summary: 'Public keys of id tokens', response: { 200: Jwks } } },
    async (_req, reply) => {
      void reply.header('cache-control', 'public, max-age=300');
      return jwks;
    },
  );

  r.post(
    '/api/auth/register',
    {
      config: openToGuests(),
      schema: {
        tags,
        summary: 'Register (docs/product.md §7)',
        body: RegisterInput,
        response: { 201: z.object({ data: Registered }) },
      },
    },
    async (req, reply) => {
      const data = await service.register(req.rc, req.body, req.ip);
      // Design §1: a new account gets a link to confirm its e-mail.
      await accountEmail.sendVerification(data.user.uid);
      return reply.status(201).send({ data });
    },
  );

  r.post(
    '/api/identity/shoppers',
    {
      config: openToGuests(),
      schema: {
        tags,
        summary: "A shopper's own customer account at the shop; a link to verify the e-mail is mailed",
        body: ShopperSignUpInput,
        response: { 201: z.object({ data: Registered }) },
      },
    },
    async (req, reply) => {
      const { companyId } = await requireShop(req);
      if (!companyId) throw new AppError(404, 'not_found', 'This shop does not exist');
      const data = await service.registerShopper(req.body, companyId, req.ip);
      await accountEmail.sendVerification(data.user.uid);
      return reply.status(201).send({ data });
    },
  );

  r.post(
    '/api/auth/login',
    {
      ...writes,
      config: { ...writes.config, guestMessage: AUTH_MESSAGES.backendAuthFailed },
      schema: {
        tags,
        summary: 'Backend login with the bearer id token (docs/product.md §7)',
        body: LoginInput,
        response: { 200: z.object({ data: BackendLogin }) },
      },
    },
    async (req) => ({ data: await service.login(req.rc, req.body.email) }),
  );

  r.get(
    '/api/companies',
    {
      schema: {
        tags: ['companies'],
        summary: 'The bakeries a system admin may act on (the company switcher)',
        querystring: CompaniesQuery,
        response: {
          200: z.object({ data: z.array(CompanyChoice), total: z.number().int() }),
        },
      },
    },
    async (req) => service.listCompanies(req.rc, req.query.search || undefined, req.query.per_page),
  );

  r.post(
    '/api/companies',
    {
      serializerCompiler: asSent,
      schema: {
        tags: ['companies'],
        summary: 'Create a bakery (createBakery)',
        body: CreateBakeryInput,
        response: {
          201: z.object({
            data: z.object({
              company: z.object({ id: z.string(), name: z.string(), slug: z.string() }),
              settings: Settings.omit({ updatedAt: true }),
            }),
          }),
        },
      },
    },
    async (req, reply) => {
      const data = await service.createBakery(req.rc, req.body);
      return reply.status(201).send({ data });
    },
  );

  /** The caller's record as the document declares it (its dates as ISO strings; nothing else leaves). */
  const me = async (uid: string) => {
    const [u] = await app.ctx.db.select().from(users).where(eq(users.id, uid)).limit(1);
    return User.parse(JSON.parse(JSON.stringify(userDoc(u!))));
  };

  r.get('/api/me', { schema: { tags, summary: 'The signed-in user', response: { 200: oneUser } } }, async (req) => {
    if (!req.caller) throw unauthenticated();
    return { data: await me(req.caller.uid) };
  });

  r.patch(
    '/api/me',
    {
      ...writes,
      schema: { tags, summary: 'Change my name, phone and addresses', body: MeInput, response: { 200: oneUser } },
    },
    async (req) => {
      if (!req.caller) throw unauthenticated();
      await service.touchUser(req.rc, req.body);
      return { data: await me(req.caller.uid) };
    },
  );

  r.post(
    '/api/me/password',
    {
      ...writes,
      schema: {
        tags,
        summary: 'Change my password (current one required); every other session ends',
        body: PasswordChangeInput,
        response: { 200: session },
      },
    },
    async (req, reply) => {
      noStore(reply);
      const s = await service.changePassword(req.rc, req.body.currentPassword, req.body.newPassword);
      return sendSession(reply, s);
    },
  );

  r.delete(
    '/api/me/sessions',
    {
      ...writes,
      schema: {
        tags,
        summary: 'Sign out everywhere',
        description:
          'Ends every session of the signed-in user: refresh tokens are revoked, id tokens issued so far ' +
          'are refused (401 auth/invalid-token) and open change streams end.',
        response: { 200: nothing },
      },
    },
    async (req, reply) => {
      noStore(reply);
      await service.signOutEverywhere(req.rc);
      clearSession(reply);
      return { data: null };
    },
  );
}
