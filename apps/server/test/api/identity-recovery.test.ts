/**
 * Password recovery (docs/design.md §1, §3): the request answers the same bytes for every e-mail, the link is
 * built on PUBLIC_URL, single-use and valid 30 minutes (test clock), the new password follows the
 * Identity rules, and a reset ends every session of the account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityCalls, json, refreshCookieOf, setupTestApp, type TestApp } from '../helpers/app';
import { outboxOf, tokenIn, waitForMail } from '../helpers/mail';

const PASSWORD = 'pan-de-bono-tibio';
const NEW_PASSWORD = 'corteza-crujiente';
const PUBLIC_URL = 'https://panaderia.example';
let t: TestApp;
let root: string;
let calls: ReturnType<typeof identityCalls>;
/** Messages a test already read. */
const seen = new Set<string>();

beforeAll(async () => {
  t = await setupTestApp({
    env: { PUBLIC_URL, RATE_LIMIT_SIGNIN_ADDRESS: '100000', RATE_LIMIT_REGISTER_ADDRESS: '100000' },
  });
  root = (await t.user('system_admin', null)).token;
  calls = identityCalls(t, PASSWORD);
});
afterAll(async () => {
  await t?.close();
});

const requestReset = (email: string, headers: Record<string, string> = {}) =>
  t.call({ method: 'POST', url: '/api/identity/password-reset', payload: { email }, headers });
const confirm = (token: string, password = NEW_PASSWORD) =>
  t.call({ method: 'POST', url: '/api/identity/password-reset/confirm', payload: { token, password } });

async function account(email: string) {
  const reg = await calls.registerAdmin(email);
  expect(reg.statusCode, reg.body).toBe(201);
  const signIn = await calls.signIn(email);
  return { cookie: refreshCookieOf(signIn)!, token: json<{ data: { idToken: string } }>(signIn).data.idToken };
}

async function resetLink(email: string): Promise<string> {
  const res = await requestReset(email, { host: 'evil.test', 'x-forwarded-host': 'evil.test' });
  expect(res.statusCode).toBe(200);
  const mail = await waitForMail(t, root, email, /contraseña/, seen);
  expect(mail.text).not.toContain('evil.test');
  expect(mail.html).not.toContain('evil.test');
  expect(mail.text).toContain(`${PUBLIC_URL}/restablecer-contrasena?token=`);
  return tokenIn(mail.text, '/restablecer-contrasena');
}

describe('password recovery', () => {
  it('answers byte for byte the same for an existing and an unknown e-mail', async () => {
    await account('existe@prueba.test');
    const known = await requestReset('existe@prueba.test');
    const unknown = await requestReset('nadie@prueba.test');
    const strip = (h: Record<string, unknown>) => {
      const { date: _date, ...rest } = h;
      return rest;
    };
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.rawPayload.equals(known.rawPayload)).toBe(true);
    expect(strip(unknown.headers)).toEqual(strip(known.headers));
    expect(known.body).toBe('{"data":null}');
    // Only the existing account got mail.
    await waitForMail(t, root, 'existe@prueba.test', /contraseña/);
    expect((await outboxOf(t, root)).some((m) => m.to === 'nadie@prueba.test')).toBe(false);
  });

  it('mails a Spanish link on PUBLIC_URL that sets a new password once and ends every session', async () => {
    const email = 'olvido@prueba.test';
    const { cookie, token } = await account(email);
    const link = await resetLink(email);
    const mail = (await outboxOf(t, root)).find((m) => m.text.includes(encodeURIComponent(link)))!;
    expect(mail.subject).toMatch(/^Restablece tu contraseña de /);
    expect(mail.html).toContain('<html lang="es-CO">');

    // The rules of the Identity issue: a common password is refused, and the link stays usable.
    const weak = await confirm(link, 'password123');
    expect(weak.statusCode).toBe(400);
    expect(json(weak).code).toBe('auth/weak-password');

    const ok = await confirm(link);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.headers['cache-control']).toBe('no-store');
    // Used once: refused.
    const again = await confirm(link, 'otra-clave-larga');
    expect(again.statusCode).toBe(400);
    expect(json(again).code).toBe('auth/invalid-action-code');

    // The old password no longer signs in, the new one does; the other session's refresh and token fail.
    expect((await calls.signIn(email)).statusCode).toBe(401);
    expect((await calls.signIn(email, NEW_PASSWORD)).statusCode).toBe(200);
    const refreshed = await t.call({ method: 'POST', url: '/api/identity/refresh', headers: { cookie } });
    expect(refreshed.statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: '/api/me', token })).statusCode).toBe(401);
  });

  it('refuses a link after 30 minutes (test clock) and a forged one', async () => {
    const email = 'tarde@prueba.test';
    await account(email);
    const link = await resetLink(email);
    t.clock.advance(30 * 60_000 + 1000);
    const late = await confirm(link);
    expect(late.statusCode).toBe(400);
    expect(json(late)).toMatchObject({ code: 'auth/expired-action-code', message: 'This link has expired' });
    const forged = await confirm(`${link.split('.')[0]}.AAAA`);
    expect(json(forged).code).toBe('auth/invalid-action-code');
    expect((await confirm('x'.repeat(201))).statusCode).toBe(400);
  });

  it('a newer reset voids the older links', async () => {
    const email = 'dos-enlaces@prueba.test';
    await account(email);
    const first = await resetLink(email);
    const second = await resetLink(email);
    expect(first).not.toBe(second);
    expect((await confirm(second)).statusCode).toBe(200);
    expect(json(await confirm(first, 'otra-clave-larga')).code).toBe('auth/invalid-action-code');
  });

  it('lists the outbox for a system_admin only', async () => {
    const admin = await t.user('company_admin', await t.company());
    expect((await t.call({ method: 'GET', url: '/api/outbox', token: admin.token })).statusCode).toBe(403);
    expect((await t.call({ method: 'GET', url: '/api/outbox' })).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: '/api/outbox?per_page=1000', token: root })).statusCode).toBe(400);
  });
});

describe('recovery limits', () => {
  it('limits requests per address (429 with Retry-After), whatever the e-mail', async () => {
    const limited = await setupTestApp({ env: { RATE_LIMIT_RECOVERY_ADDRESS: '2' } });
    try {
      const ask = (email: string) =>
        limited.call({ method: 'POST', url: '/api/identity/password-reset', payload: { email } });
      expect((await ask('a@prueba.test')).statusCode).toBe(200);
      expect((await ask('b@prueba.test')).statusCode).toBe(200);
      const third = await ask('c@prueba.test');
      expect(third.statusCode).toBe(429);
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});
