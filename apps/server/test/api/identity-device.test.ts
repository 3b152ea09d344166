/**
 * Device cookies (OWASP "Slow Down Online Guessing Attacks with Device Cookies"): an attacker's wrong
 * passwords delay unknown devices, never the owner's own browser; and the attributes of the session
 * cookies (Secure whenever the public address is https).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityCalls, json, setupTestApp, type TestApp } from '../helpers/app';

const PASSWORD = 'pan-de-bono-tibio';
let t: TestApp;

beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(async () => {
  await t?.close();
});

type Res = { headers: Record<string, unknown> };
const setCookies = (res: Res) => {
  const raw = res.headers['set-cookie'];
  return Array.isArray(raw) ? raw.map(String) : raw ? [String(raw)] : [];
};
/** The whole Set-Cookie line of one cookie. */
const setCookieLine = (res: Res, name: string) => setCookies(res).find((c) => c.startsWith(`${name}=`));
/** `name=value` of one cookie, for a Cookie header. */
const cookieOf = (res: Res, name: string) => setCookieLine(res, name)?.split(';')[0];
const device = (res: Res) => {
  const c = cookieOf(res, 'hornada_device');
  if (!c) throw new Error(`no device cookie in ${JSON.stringify(setCookies(res))}`);
  return c;
};

describe('device cookies', () => {
  it('lets the owner in from a known device during an attack that locks out unknown devices', async () => {
    const { signIn, registerAdmin } = identityCalls(t, PASSWORD);
    await registerAdmin('duena@ejemplo.co');
    await registerAdmin('otra@ejemplo.co');
    // Two of the owner's browsers and another account's, all before the attack.
    const laptop = device(await signIn('duena@ejemplo.co'));
    const phone = device(await signIn('Duena@Ejemplo.co'));
    const other = device(await signIn('otra@ejemplo.co'));

    const attack: number[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await signIn('duena@ejemplo.co', `adivina-${i}`, { 'x-forwarded-for': `198.51.100.${i}` });
      attack.push(res.statusCode);
    }
    expect(attack.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(attack.slice(10)).toEqual(Array(20).fill(429));
    // Unknown devices stay delayed, even with the right password.
    expect((await signIn('duena@ejemplo.co')).statusCode).toBe(429);

    // The owner's browser: in, during the attack, with a renewed device cookie.
    const owner = await signIn('duena@ejemplo.co', PASSWORD, { cookie: laptop });
    expect(owner.statusCode).toBe(200);
    const { idToken } = json<{ data: { idToken: string } }>(owner).data;
    expect((await t.call({ method: 'GET', url: '/api/me', token: idToken })).statusCode).toBe(200);
    const renewed = device(owner);
    expect(renewed).not.toBe(laptop);
    expect((await signIn('duena@ejemplo.co', PASSWORD, { cookie: renewed })).statusCode).toBe(200);

    // No pass for another account's device cookie, nor for a forged or altered one.
    expect((await signIn('duena@ejemplo.co', PASSWORD, { cookie: other })).statusCode).toBe(429);
    const [name, value] = laptop.split('=') as [string, string];
    const [v, nonce, mac] = value.split('.') as [string, string, string];
    const [, otherNonce] = other.split('=')[1]!.split('.') as [string, string, string];
    const ownEmail = Buffer.from('duena@ejemplo.co').toString('base64url');
    const forgeries = [
      `${name}=${v}.${nonce}.${mac.slice(0, -2)}AA`,
      `${name}=${v}.${nonce}x.${mac}`,
      `${name}=${v}.${otherNonce}.${mac}`,
      `${name}=${v}.AAAAAAAAAAAAAAAAAAAAAA.${mac}`,
      // The old readable form is no pass either, whatever it names.
      `${name}=v1.${ownEmail}.${nonce}.${mac}`,
      `${name}=garbage`,
    ];
    for (const cookie of forgeries) {
      expect((await signIn('duena@ejemplo.co', PASSWORD, { cookie })).statusCode, cookie).toBe(429);
    }
    // The other account's own device still works for it.
    expect((await signIn('otra@ejemplo.co', PASSWORD, { cookie: other })).statusCode).toBe(200);

    // A known device guessing is limited on its own: 10 failures, then it waits, right password too…
    const guesses: number[] = [];
    for (let i = 0; i < 12; i++) {
      guesses.push((await signIn('duena@ejemplo.co', `otra-vez-${i}`, { cookie: laptop })).statusCode);
    }
    expect(guesses).toEqual([...Array(10).fill(401), 429, 429]);
    const limited = await signIn('duena@ejemplo.co', PASSWORD, { cookie: laptop });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // …while the owner's other device is not delayed by it.
    expect((await signIn('duena@ejemplo.co', PASSWORD, { cookie: phone })).statusCode).toBe(200);
  });

  it('carries nothing that reads as the e-mail: an opaque nonce and a MAC', async () => {
    const { signIn, registerAdmin } = identityCalls(t, PASSWORD);
    await registerAdmin('reservada@ejemplo.co');
    const value = device(await signIn('reservada@ejemplo.co')).split('=')[1]!;
    const decoded = [value, ...value.split('.')].map((p) => Buffer.from(p, 'base64url').toString('latin1'));
    for (const text of [value, ...decoded]) {
      expect(text.toLowerCase()).not.toContain('reservada');
      expect(text.toLowerCase()).not.toContain('ejemplo.co');
    }
    // Two sign-ins of one account share nothing a reader could match either.
    const again = device(await signIn('reservada@ejemplo.co')).split('=')[1]!;
    const shared = value.split('.').filter((p) => p.length > 2 && again.split('.').includes(p));
    expect(shared).toEqual([]);
  });

  it('keeps the per-address limit for known devices', async () => {
    const few = await setupTestApp({ env: { RATE_LIMIT_SIGNIN_ADDRESS: '3' } });
    try {
      const { signIn, registerAdmin } = identityCalls(few, PASSWORD);
      await registerAdmin('limite@ejemplo.co');
      const known = device(await signIn('limite@ejemplo.co'));
      expect((await signIn('nadie@ejemplo.co', 'x-x-x-x-x')).statusCode).toBe(401);
      expect((await signIn('nadie@ejemplo.co', 'x-x-x-x-x')).statusCode).toBe(401);
      expect((await signIn('limite@ejemplo.co', PASSWORD, { cookie: known })).statusCode).toBe(429);
    } finally {
      await few.close();
    }
  });
});

describe('session cookie attributes', () => {
  const attrs = (line: string | undefined) => (line ?? '').split(';').map((a) => a.trim().toLowerCase());

  it('sets a long-lived httpOnly device cookie beside the refresh cookie', async () => {
    const { signIn, registerAdmin } = identityCalls(t, PASSWORD);
    await registerAdmin('galleta@ejemplo.co');
    const res = await signIn('galleta@ejemplo.co');
    expect(attrs(setCookieLine(res, 'hornada_device'))).toEqual(
      expect.arrayContaining(['httponly', 'samesite=lax', 'path=/api/identity', 'secure', `max-age=${365 * 86400}`]),
    );
    // Signing out ends the session, not the device's memory.
    const out = await t.call({
      method: 'POST',
      url: '/api/identity/sign-out',
      headers: { cookie: cookieOf(res, 'hornada_refresh')! },
    });
    expect(setCookieLine(out, 'hornada_device')).toBeUndefined();
  });

  it('marks both cookies Secure whenever PUBLIC_URL is https, whatever NODE_ENV says', async () => {
    const cases = [
      { env: { NODE_ENV: 'development', PUBLIC_URL: 'https://panaderia.example' }, secure: true },
      { env: { NODE_ENV: 'development', PUBLIC_URL: 'http://localhost:3000' }, secure: false },
      { env: { NODE_ENV: 'test', PUBLIC_URL: 'http://localhost:3000' }, secure: true },
    ];
    for (const c of cases) {
      const app = await setupTestApp({ env: c.env });
      try {
        const { signIn, registerAdmin } = identityCalls(app, PASSWORD);
        await registerAdmin('segura@ejemplo.co');
        const res = await signIn('segura@ejemplo.co');
        expect(res.statusCode).toBe(200);
        for (const name of ['hornada_refresh', 'hornada_device']) {
          expect(attrs(setCookieLine(res, name)).includes('secure'), `${name} ${JSON.stringify(c.env)}`).toBe(c.secure);
        }
      } finally {
        await app.close();
      }
    }
  });
});
