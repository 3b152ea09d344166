/**
 * Sign-in with Google against a test issuer (helpers/oidc.ts):
 * - an account is linked to a Google identity only when its e-mail is verified; an account whose e-mail
 *   was never verified gets Google's proven owner as its only owner (password cleared, every session
 *   ended, told by e-mail); an identity whose e-mail the issuer does not vouch for creates and links
 *   nothing; the owner's password reset unlinks an identity whose e-mail was not verified;
 * - the single-use code is bound to the browser that started the flow: another browser's exchange of
 *   it is refused, and the code stays good for the browser it belongs to.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userIdentities, users } from '../../src/db/schema';
import { identityCalls, json, refreshCookieOf, setupTestApp, type TestApp } from '../helpers/app';
import { tokenIn, waitForMail } from '../helpers/mail';
import { startTestIssuer, type IssuerClaims, type TestIssuer } from '../helpers/oidc';

const PASSWORD = 'pan-de-bono-tibio';
const PUBLIC_URL = 'https://panaderia.example';
let t: TestApp;
let issuer: TestIssuer;
let root: string;
let calls: ReturnType<typeof identityCalls>;
const seen = new Set<string>();

beforeAll(async () => {
  issuer = await startTestIssuer();
  t = await setupTestApp({
    env: {
      ...issuer.env,
      PUBLIC_URL,
      RATE_LIMIT_SIGNIN_ADDRESS: '100000',
      RATE_LIMIT_REGISTER_ADDRESS: '100000',
      RATE_LIMIT_RECOVERY_ADDRESS: '100000',
    },
  });
  await t.company('Mercado');
  root = (await t.user('system_admin', null)).token;
  calls = identityCalls(t, PASSWORD);
});
afterAll(async () => {
  await t?.close();
  await issuer?.close();
});

/** A browser's cookie jar: what responses set, sent back as one Cookie header. */
class Jar {
  private readonly cookies = new Map<string, string>();
  take(res: { headers: Record<string, unknown> }): void {
    const raw = res.headers['set-cookie'];
    for (const c of Array.isArray(raw) ? raw.map(String) : raw ? [String(raw)] : []) {
      const [pair] = c.split(';');
      const eqAt = pair!.indexOf('=');
      const name = pair!.slice(0, eqAt);
      const value = pair!.slice(eqAt + 1);
      if (value === '' || /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/** From "Continuar con Google" to the return page, in one browser: the page's query (`code` or `error`). */
async function throughGoogle(claims: IssuerClaims, jar = new Jar()) {
  const start = await t.call({ method: 'GET', url: '/api/identity/google/start' });
  expect(start.statusCode, start.body).toBe(302);
  jar.take(start);
  const back = await t.call({
    method: 'GET',
    url: issuer.authorize(String(start.headers.location), claims),
    headers: { cookie: jar.header() },
  });
  expect(back.statusCode).toBe(302);
  jar.take(back);
  const page = new URL(String(back.headers.location));
  expect(page.origin + page.pathname).toBe(`${PUBLIC_URL}/acceso/google`);
  return { code: page.searchParams.get('code'), error: page.searchParams.get('error'), jar };
}

const exchange = (code: string, jar?: Jar) =>
  t.call({
    method: 'POST',
    url: '/api/identity/google/exchange',
    payload: { code },
    headers: jar ? { cookie: jar.header() } : {},
  });

/** Signs in with Google in one browser: the session's user and id token. */
async function signInWithGoogle(claims: IssuerClaims) {
  const { code, error, jar } = await throughGoogle(claims);
  expect(error).toBeNull();
  const res = await exchange(code!, jar);
  expect(res.statusCode, res.body).toBe(200);
  return json<{ data: { idToken: string; user: { uid: string; emailVerified: boolean } } }>(res).data;
}

const verified = (email: string, sub = `google-${email}`): IssuerClaims => ({
  sub,
  email,
  email_verified: true,
  name: 'Dueña Verdadera',
});

async function identitiesOf(uid: string) {
  return t.db.select().from(userIdentities).where(eq(userIdentities.userId, uid));
}

describe('linking a Google identity to an account (hole 1)', () => {
  it("makes Google's proven owner the only owner of an account whose e-mail was never verified", async () => {
    // The attacker registers the victim's e-mail with a password of theirs and keeps a session open.
    const email = 'victima@gmail.test';
    const reg = await calls.registerAdmin(email, PASSWORD, 'Soporte Hornada: llama al 300 000 0000');
    expect(reg.statusCode, reg.body).toBe(201);
    const uid = json<{ data: { user: { uid: string } } }>(reg).data.user.uid;
    const attacker = await calls.signIn(email);
    const attackerToken = json<{ data: { idToken: string } }>(attacker).data.idToken;
    const attackerCookie = refreshCookieOf(attacker)!;
    t.clock.advance(2000);

    // The victim signs in with Google, whose e-mail is verified: the same account, now theirs alone.
    const session = await signInWithGoogle(verified(email));
    expect(session.user.uid).toBe(uid);
    expect(session.user.emailVerified).toBe(true);
    expect((await t.call({ method: 'GET', url: '/api/me', token: session.idToken })).statusCode).toBe(200);

    // The attacker's password, id token and refresh token no longer work.
    expect((await calls.signIn(email)).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: '/api/me', token: attackerToken })).statusCode).toBe(401);
    const refreshed = await t.call({
      method: 'POST',
      url: '/api/identity/refresh',
      headers: { cookie: attackerCookie },
    });
    expect(refreshed.statusCode).toBe(401);

    // The owner is told, in a message that carries nothing the registrant wrote.
    const mail = await waitForMail(t, root, email, /Google/, seen);
    expect(mail.text).toMatch(/contraseña/);
    expect(mail.text).not.toContain('Soporte Hornada');
    expect(mail.html).not.toContain('Soporte Hornada');
  });

  it('takes an account a bakery made for the address out of that bakery', async () => {
    const boss = await calls.bakery('acaparadora@gmail.test');
    const made = await t.call({
      method: 'POST',
      url: `/api/companies/${boss.companyId}/users`,
      token: boss.token,
      payload: { email: 'ajena@gmail.test', password: PASSWORD, name: 'Ajena', role: 'company_staff' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const uid = json<{ data: { id: string } }>(made).data.id;

    const session = await signInWithGoogle(verified('ajena@gmail.test'));
    expect(session.user.uid).toBe(uid);
    const me = await t.call({ method: 'GET', url: '/api/me', token: session.idToken });
    expect(json(me)).toMatchObject({ data: { companyId: null, role: 'company_customer', emailVerified: true } });
    // The bakery reads nothing of it any more, and its password is gone.
    const read = await t.call({
      method: 'GET',
      url: `/api/companies/${boss.companyId}/users/${uid}`,
      token: boss.token,
    });
    expect(read.statusCode).toBe(404);
    expect((await calls.signIn('ajena@gmail.test')).statusCode).toBe(401);
  });

  it('links an account whose e-mail is verified and keeps its password', async () => {
    const email = 'verificada@gmail.test';
    const reg = await calls.registerAdmin(email);
    const uid = json<{ data: { user: { uid: string } } }>(reg).data.user.uid;
    const link = await waitForMail(t, root, email, /Confirma/, seen);
    const ok = await t.call({
      method: 'POST',
      url: '/api/identity/verify-email',
      payload: { token: tokenIn(link.text, '/verificar-correo') },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const session = await signInWithGoogle(verified(email));
    expect(session.user.uid).toBe(uid);
    expect((await calls.signIn(email)).statusCode).toBe(200);
  });

  it('never creates nor links an account from an identity whose e-mail is not verified', async () => {
    const unverified = (email: string): IssuerClaims => ({ ...verified(email), email_verified: false });
    // No account yet: none is made.
    const fresh = await throughGoogle(unverified('nadie-aun@gmail.test'));
    expect(fresh).toMatchObject({ code: null, error: 'unverified' });
    const [none] = await t.db.select().from(users).where(eq(users.email, 'nadie-aun@gmail.test'));
    expect(none).toBeUndefined();
    // An account with that e-mail: not linked, its password still its own.
    const email = 'con-clave@gmail.test';
    const uid = json<{ data: { user: { uid: string } } }>(await calls.registerAdmin(email)).data.user.uid;
    expect(await throughGoogle(unverified(email))).toMatchObject({ code: null, error: 'unverified' });
    expect(await identitiesOf(uid)).toEqual([]);
    expect((await calls.signIn(email)).statusCode).toBe(200);
  });

  it("the owner's password reset unlinks an identity whose e-mail was not verified", async () => {
    const email = 'recupera@gmail.test';
    const uid = json<{ data: { user: { uid: string } } }>(await calls.registerAdmin(email)).data.user.uid;
    // Identities linked before this rule: one the issuer did not vouch for, one it did.
    const now = t.clock.now();
    await t.db.insert(userIdentities).values([
      { provider: 'google', subject: 'intruso', userId: uid, createdAt: now, emailVerified: false },
      { provider: 'google', subject: 'propia', userId: uid, createdAt: now, emailVerified: true },
    ]);
    await t.call({ method: 'POST', url: '/api/identity/password-reset', payload: { email } });
    const mail = await waitForMail(t, root, email, /contraseña/, seen);
    const reset = await t.call({
      method: 'POST',
      url: '/api/identity/password-reset/confirm',
      payload: { token: tokenIn(mail.text, '/restablecer-contrasena'), password: 'corteza-crujiente' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    // The intruder's identity no longer opens the account; the owner's still does.
    const intruder = await signInWithGoogle(verified('intruso@otro.test', 'intruso'));
    expect(intruder.user.uid).not.toBe(uid);
    expect((await signInWithGoogle(verified(email, 'propia'))).user.uid).toBe(uid);
  });
});

describe('the return code is bound to the browser that started (hole 2)', () => {
  it('refuses the code in another browser and keeps it good for its own', async () => {
    const { code, jar } = await throughGoogle(verified('navegador@gmail.test'));
    // The victim's browser: no flow cookie at all, or one of its own flow.
    const none = await exchange(code!);
    expect(none.statusCode).toBe(403);
    expect(json(none).code).toBe('auth/google-other-browser');
    const other = new Jar();
    other.take(await t.call({ method: 'GET', url: '/api/identity/google/start' }));
    const foreign = await exchange(code!, other);
    expect(foreign.statusCode).toBe(403);
    expect(json(foreign).code).toBe('auth/google-other-browser');
    // The browser that started it signs in, once.
    const ok = await exchange(code!, jar);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(refreshCookieOf(ok)).toBeDefined();
    expect(json(await exchange(code!, jar)).code).toMatch(/^auth\/(invalid-action-code|google-other-browser)$/);
  });
});
