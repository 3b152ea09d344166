/**
 * Sign-in (docs/product.md §8), id tokens (forged, foreign, expired, misused), refresh-token rotation and reuse,
 * the refresh cookie's attributes, and the sessions a password change ends.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { generateKeyPair, importPKCS8, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALG, AUDIENCE } from '../../src/lib/keys';
import { parseConfig } from '../../src/config';
import { secureCookies } from '../../src/modules/identity/identity.routes';
import { json, refreshCookieOf as cookieOf, setupTestApp, type TestApp } from '../helpers/app';
import { lateIdentityCalls, PASSWORD, setupIdentityApp } from '../helpers/identity';
import { closeListeningApp } from '../helpers/live';

let t: TestApp;
const { signIn, registerAdmin, refresh } = lateIdentityCalls(() => t);

beforeAll(async () => {
  t = await setupIdentityApp();
});
afterAll(() => closeListeningApp(t));

describe('sign-in (docs/product.md §8)', () => {
  it('signs in with a token, a user and an httpOnly refresh cookie', async () => {
    await registerAdmin('firma@ejemplo.co');
    const res = await signIn('FIRMA@ejemplo.co');
    expect(res.statusCode).toBe(200);
    const body = json<{ data: { idToken: string; expiresIn: number; user: Record<string, unknown> } }>(res);
    expect(body.data).toMatchObject({
      expiresIn: 3600,
      user: { email: 'firma@ejemplo.co', name: 'Dueña de Panadería', emailVerified: false },
    });
    const raw = String(res.headers['set-cookie']);
    expect(raw).toContain('HttpOnly');
    expect(raw).toContain('SameSite=Lax');
    expect(raw).toContain('Path=/api/identity');
    const login = await t.call({
      method: 'POST',
      url: '/api/auth/login',
      token: body.data.idToken,
      payload: { email: 'firma@ejemplo.co' },
    });
    expect(json(login)).toEqual({ data: { name: 'Dueña de Panadería', role: 'company_admin', companyId: null } });
    const mismatch = await t.call({
      method: 'POST',
      url: '/api/auth/login',
      token: body.data.idToken,
      payload: { email: 'otro@ejemplo.co' },
    });
    expect(mismatch.statusCode).toBe(401);
    const jwks = json<{ keys: { kty: string; d?: string }[] }>(
      await t.call({ method: 'GET', url: '/api/identity/jwks.json' }),
    );
    expect(jwks.keys[0]!.kty).toBe('EC');
    expect(jwks.keys[0]!.d).toBeUndefined();
  });

  it('gives an unknown e-mail and a wrong password byte-identical answers', async () => {
    await registerAdmin('real@ejemplo.co');
    const a = await signIn('nadie@ejemplo.co', 'cualquier-cosa');
    const b = await signIn('real@ejemplo.co', 'cualquier-cosa');
    expect(a.statusCode).toBe(401);
    expect(a.body).toBe(b.body);
    expect(json(a)).toEqual({
      message: 'Invalid email or password.',
      error: 'Invalid email or password.',
      code: 'auth/invalid-credential',
    });
    const strip = (h: Record<string, unknown>) => Object.fromEntries(Object.entries(h).filter(([k]) => k !== 'date'));
    expect(strip(a.headers)).toEqual(strip(b.headers));
  });

  it('refuses a disabled account and a switched-off sign-in with the spec texts', async () => {
    const off = await setupTestApp({ env: { EMAIL_PASSWORD_SIGNIN: 'off' } });
    try {
      const res = await off.call({
        method: 'POST',
        url: '/api/identity/sign-in',
        payload: { email: 'x@y.co', password: PASSWORD },
      });
      expect(res.statusCode).toBe(403);
      expect(json(res)).toMatchObject({
        code: 'auth/operation-not-allowed',
        message: 'Email/Password sign-in is not enabled. Please contact support.',
      });
    } finally {
      await off.close();
    }
  });
});

describe('tokens', () => {
  let token: string;
  let uid: string;
  beforeAll(async () => {
    await registerAdmin('tokens@ejemplo.co');
    const body = json<{ data: { idToken: string; user: { uid: string } } }>(await signIn('tokens@ejemplo.co'));
    token = body.data.idToken;
    uid = body.data.user.uid;
  });
  const me = (bearer: string) => t.call({ method: 'GET', url: '/api/me', token: bearer });

  it('accepts its own token and refuses forged, foreign, expired and misused ones', async () => {
    expect((await me(token)).statusCode).toBe(200);
    const none = new UnsecuredJWT({ sub: uid })
      .setIssuer(t.keys.issuer)
      .setAudience(AUDIENCE)
      .setExpirationTime('1h')
      .encode();
    expect((await me(none)).statusCode).toBe(401);
    const { privateKey } = await generateKeyPair('ES256');
    const foreign = await new SignJWT({ sub: uid })
      .setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
      .setIssuer(t.keys.issuer)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    expect((await me(foreign)).statusCode).toBe(401);
    // Tokens signed with the server's own key (the helper's key store keeps it in DATA_DIR) that
    // differ from a valid one only in the claim under test.
    const pem = await readFile(path.join(t.dataDir, 'keys', 'jwt-private.pem'), 'utf8');
    const serverKey = await importPKCS8(pem, ALG);
    const kid = t.keys.jwks().keys[0]!.kid!;
    const mint = (claims: { iss: string; aud: string }) =>
      new SignJWT({ sub: uid })
        .setProtectedHeader({ alg: ALG, kid, typ: 'JWT' })
        .setIssuer(claims.iss)
        .setAudience(claims.aud)
        .setIssuedAt(t.clock.now())
        .setExpirationTime(new Date(t.clock.now().getTime() + 3600_000))
        .sign(serverKey);
    // Control: the same minting with the right claims is accepted, so a 401 below is the claim's doing.
    expect((await me(await mint({ iss: t.keys.issuer, aud: AUDIENCE }))).statusCode).toBe(200);
    expect((await me(await mint({ iss: t.keys.issuer, aud: 'other-audience' }))).statusCode).toBe(401);
    expect((await me(await mint({ iss: 'https://evil.example', aud: AUDIENCE }))).statusCode).toBe(401);
    t.clock.advance(3601_000);
    try {
      expect((await me(token)).statusCode).toBe(401);
    } finally {
      t.clock.advance(-3601_000);
    }
    const cookie = cookieOf(await signIn('tokens@ejemplo.co'))!;
    expect((await me(cookie.split('=')[1]!)).statusCode).toBe(401);
  });

  it('rotates refresh tokens, revokes the family on reuse, and signs out', async () => {
    const c1 = cookieOf(await signIn('tokens@ejemplo.co'))!;
    const r1 = await t.call({ method: 'POST', url: '/api/identity/refresh', headers: { cookie: c1 } });
    expect(r1.statusCode).toBe(200);
    const c2 = cookieOf(r1)!;
    expect(c2).not.toBe(c1);
    expect(json<{ data: { idToken: string } }>(r1).data.idToken).toBeTruthy();
    // Reusing the spent c1 revokes the family: c2 stops working too.
    expect((await t.call({ method: 'POST', url: '/api/identity/refresh', headers: { cookie: c1 } })).statusCode).toBe(
      401,
    );
    expect((await t.call({ method: 'POST', url: '/api/identity/refresh', headers: { cookie: c2 } })).statusCode).toBe(
      401,
    );

    const c3 = cookieOf(await signIn('tokens@ejemplo.co'))!;
    expect((await t.call({ method: 'POST', url: '/api/identity/sign-out', headers: { cookie: c3 } })).statusCode).toBe(
      200,
    );
    expect((await t.call({ method: 'POST', url: '/api/identity/refresh', headers: { cookie: c3 } })).statusCode).toBe(
      401,
    );
    expect(json(await t.call({ method: 'POST', url: '/api/identity/refresh' }))).toEqual({ data: null });
  });
  it('ignores the bearer on the identity endpoints: an expired token does not break its own refresh', async () => {
    const session = await signIn('tokens@ejemplo.co');
    const old = json<{ data: { idToken: string } }>(session).data.idToken;
    const cookie = cookieOf(session)!;
    t.clock.advance(2 * 3600_000);
    try {
      const expired = { authorization: `Bearer ${old}` };
      expect((await t.call({ method: 'GET', url: '/api/me', headers: expired })).statusCode).toBe(401);
      const res = await refresh(cookie, expired);
      expect(res.statusCode, res.body).toBe(200);
      const fresh = json<{ data: { idToken: string } }>(res).data.idToken;
      expect((await t.call({ method: 'GET', url: '/api/me', token: fresh })).statusCode).toBe(200);
      const garbage = { authorization: 'Bearer not-a-token' };
      expect((await refresh(undefined, garbage)).statusCode).toBe(200);
      expect((await t.call({ method: 'GET', url: '/api/identity/jwks.json', headers: garbage })).statusCode).toBe(200);
      const again = await t.call({
        method: 'POST',
        url: '/api/identity/sign-in',
        headers: expired,
        payload: { email: 'tokens@ejemplo.co', password: PASSWORD },
      });
      expect(again.statusCode).toBe(200);
      const out = await t.call({
        method: 'POST',
        url: '/api/identity/sign-out',
        headers: { ...expired, cookie: cookieOf(res)! },
      });
      expect(out.statusCode).toBe(200);
      expect((await refresh(cookieOf(res))).statusCode).toBe(401);
      // Elsewhere an invalid bearer stays a 401 (docs/product.md §8: how the client drops a stale token), even
      // on a read a guest may make.
      const company = await t.company();
      const pub = await t.call({ method: 'GET', url: `/api/companies/${company}/products`, headers: expired });
      expect(pub.statusCode).toBe(401);
    } finally {
      t.clock.advance(-2 * 3600_000);
    }
  });

  it('sets the refresh cookie httpOnly, SameSite=Lax, path-limited and Secure outside development; no-store', async () => {
    // Vitest runs with NODE_ENV=test: outside development.
    expect(process.env.NODE_ENV).toBe('test');
    const res = await signIn('tokens@ejemplo.co');
    expect(res.headers['cache-control']).toBe('no-store');
    const raw = String(res.headers['set-cookie']);
    const attrs = raw.split(';').map((a) => a.trim().toLowerCase());
    expect(attrs).toEqual(
      expect.arrayContaining(['httponly', 'samesite=lax', 'path=/api/identity', 'secure', `max-age=${30 * 86400}`]),
    );
    const rotated = await refresh(cookieOf(res));
    expect(rotated.headers['cache-control']).toBe('no-store');
    expect(String(rotated.headers['set-cookie'])).toMatch(/; Secure/);
    expect((await refresh()).headers['cache-control']).toBe('no-store');
    // The rule itself: plain http for `npm start` and the e2e server (NODE_ENV unset), Secure otherwise.
    expect(secureCookies(parseConfig({}).nodeEnv)).toBe(false);
    expect(secureCookies(parseConfig({ NODE_ENV: '' }).nodeEnv)).toBe(false);
    expect(secureCookies('development')).toBe(false);
    expect(secureCookies('test')).toBe(true);
    expect(secureCookies('production')).toBe(true);
  });

  it('ends every other session at a password change, in the same transaction as the new hash', async () => {
    await registerAdmin('clave@ejemplo.co');
    const a = await signIn('clave@ejemplo.co');
    const b = await signIn('clave@ejemplo.co');
    const changed = await t.call({
      method: 'POST',
      url: '/api/me/password',
      token: json<{ data: { idToken: string } }>(a).data.idToken,
      payload: { currentPassword: PASSWORD, newPassword: 'miga-de-pan-nueva' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.headers['cache-control']).toBe('no-store');
    for (const old of [cookieOf(a)!, cookieOf(b)!]) {
      const res = await refresh(old);
      expect(res.statusCode).toBe(401);
      expect(json(res)).toMatchObject({ code: 'auth/invalid-token' });
    }
    expect((await refresh(cookieOf(changed))).statusCode).toBe(200);
  });

  it('leaves no session alive that raced a password change: rotations and sign-ins under way', async () => {
    await registerAdmin('carrera@ejemplo.co');
    let current = PASSWORD;
    for (const [i, next] of ['arepa-de-choclo-1', 'arepa-de-choclo-2', 'arepa-de-choclo-3'].entries()) {
      const sessions = await Promise.all([0, 1, 2, 3].map(() => signIn('carrera@ejemplo.co', current)));
      const token = json<{ data: { idToken: string } }>(sessions[0]!).data.idToken;
      const [changed, ...raced] = await Promise.all([
        t.call({
          method: 'POST',
          url: '/api/me/password',
          token,
          payload: { currentPassword: current, newPassword: next },
        }),
        ...sessions.map((s) => refresh(cookieOf(s))),
        signIn('carrera@ejemplo.co', current),
        signIn('carrera@ejemplo.co', current),
      ]);
      expect(changed!.statusCode, `round ${i}: ${changed!.body}`).toBe(200);
      // Whatever got a cookie while the change was under way, that cookie is dead now.
      for (const r of raced) {
        const cookie = r.statusCode === 200 ? cookieOf(r) : undefined;
        if (cookie) expect((await refresh(cookie)).statusCode, `round ${i}`).toBe(401);
      }
      current = next;
    }
  });
});
