import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { decodeJwt, generateKeyPair, importPKCS8, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALG, AUDIENCE } from '../../src/lib/keys';
import { parseConfig } from '../../src/config';
import { secureCookies } from '../../src/modules/identity/identity.routes';
import { identityCalls, json, refreshCookieOf as cookieOf, setupTestApp, type TestApp } from '../helpers/app';
import { changeEvents, openStream, type SseStream } from '../helpers/sse';

let t: TestApp;
const PASSWORD = 'pan-de-bono-tibio';

// Late-bound: `t` exists once beforeAll has run.
const signIn = (email: string, password = PASSWORD, headers: Record<string, string> = {}) =>
  identityCalls(t, PASSWORD).signIn(email, password, headers);
const registerAdmin = (email: string, password = PASSWORD, name = 'Dueña de Panadería') =>
  identityCalls(t, PASSWORD).registerAdmin(email, password, name);
const bakery = (email: string, extra: Record<string, unknown> = {}) => identityCalls(t, PASSWORD).bakery(email, extra);
const refresh = (cookie?: string, headers: Record<string, string> = {}) =>
  t.call({ method: 'POST', url: '/api/identity/refresh', headers: { ...headers, ...(cookie ? { cookie } : {}) } });

/** Resolves when the stream ends; rejects after `ms`. */
function ended(stream: SseStream, ms = 2000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`stream still open after ${ms} ms`)), ms);
    void stream.closed.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

beforeAll(async () => {
  // Limits per address have their own file (identity-limits); here every call comes from 127.0.0.1.
  t = await setupTestApp({
    listen: true,
    env: { RATE_LIMIT_SIGNIN_ADDRESS: '100000', RATE_LIMIT_REGISTER_ADDRESS: '100000' },
  });
});
afterAll(async () => {
  await t?.close();
});

describe('registration (spec §5, word for word)', () => {
  const register = (payload: Record<string, unknown>, token?: string) =>
    t.call({ method: 'POST', url: '/api/auth/register', payload, token });

  it('answers every message of §5', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ email: 'a@b.co', password: PASSWORD, name: 'A' }, 400, 'Invalid role specified'],
      [{ email: 'a@b.co', password: PASSWORD, name: 'A', role: 'baker' }, 400, 'Invalid role specified'],
      [
        { email: 'a@b.co', password: PASSWORD, name: 'A', role: 'system_admin' },
        501,
        'System admin registration is not implemented',
      ],
      [{ email: 'a@b.co', name: 'A', role: 'company_admin' }, 400, 'Email, password, and name are required'],
      [
        { email: 'a@b.co', password: PASSWORD, name: '', role: 'company_admin' },
        400,
        'Email, password, and name are required',
      ],
      [
        { email: 'a@b.co', password: PASSWORD, name: 'A', role: 'company_staff' },
        400,
        'All fields are required for bakery user registration',
      ],
      [
        { email: 'a@b.co', password: PASSWORD, name: 'A', role: 'delivery_assistant', companyId: 'x' },
        400,
        'Invalid role for bakery user',
      ],
    ];
    for (const [payload, status, message] of cases) {
      const res = await register(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(json(res)).toMatchObject({ message, error: message });
    }
  });

  it('registers a company admin with a null companyId, and staff or customers only with an admin bearer', async () => {
    const res = await registerAdmin('Duena@Ejemplo.co');
    expect(res.statusCode).toBe(201);
    expect(json(res)).toEqual({
      data: {
        user: {
          uid: expect.any(String),
          email: 'duena@ejemplo.co',
          name: 'Dueña de Panadería',
          role: 'company_admin',
          companyId: null,
        },
      },
    });
    expect((await registerAdmin('duena@ejemplo.co')).statusCode).toBe(409);

    const { companyId, token } = await bakery('jefa@ejemplo.co');
    const staffPayload = {
      email: 'staff@ejemplo.co',
      password: PASSWORD,
      name: 'Staff',
      role: 'company_staff',
      companyId,
    };
    expect((await register(staffPayload)).statusCode).toBe(401);
    const staff = await register(staffPayload, token);
    expect(staff.statusCode, staff.body).toBe(201);
    expect(json<{ data: { user: Record<string, unknown> } }>(staff).data.user).toMatchObject({
      role: 'company_staff',
      companyId,
    });

    const staffToken = json<{ data: { idToken: string } }>(await signIn('staff@ejemplo.co')).data.idToken;
    const customer = {
      email: 'cliente@ejemplo.co',
      password: PASSWORD,
      name: 'Cliente',
      role: 'company_customer',
      companyId,
    };
    expect((await register(customer, staffToken)).statusCode).toBe(201);
    expect((await register({ ...staffPayload, email: 'otro@ejemplo.co' }, staffToken)).statusCode).toBe(403);
    const customerToken = json<{ data: { idToken: string } }>(await signIn('cliente@ejemplo.co')).data.idToken;
    expect((await register({ ...customer, email: 'c2@ejemplo.co' }, customerToken)).statusCode).toBe(403);
    // An admin of another bakery cannot register into this one.
    const other = await bakery('otra@ejemplo.co');
    expect((await register({ ...customer, email: 'c3@ejemplo.co' }, other.token)).statusCode).toBe(403);
  });

  it('applies the password rules', async () => {
    const res7 = await registerAdmin('p7@ejemplo.co', 'abcdefg');
    expect(res7.statusCode).toBe(400);
    expect((await registerAdmin('common@ejemplo.co', 'password123')).statusCode).toBe(400);
    expect(json(await registerAdmin('common@ejemplo.co', 'Password123'))).toMatchObject({ code: 'auth/weak-password' });
    const long = 'ñandú🥐パン хлеб 面包 '.repeat(8);
    const exact = [...long].slice(0, 128).join('');
    expect([...exact].length).toBe(128);
    expect((await registerAdmin('long@ejemplo.co', exact)).statusCode).toBe(201);
    expect((await signIn('long@ejemplo.co', exact)).statusCode).toBe(200);
    expect((await signIn('long@ejemplo.co', exact.slice(0, -1))).statusCode).toBe(401);
    expect((await registerAdmin('long2@ejemplo.co', `${exact}x`)).statusCode).toBe(400);
  });
});

describe('sign-in (spec §8)', () => {
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
      // Elsewhere an invalid bearer stays a 401 (spec §8: how the client drops a stale token), even
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

describe('roles and access bite at once', () => {
  it('disabling fails the next call and refresh; demotion fails the next write and empties the stream', async () => {
    const boss = await bakery('boss@ejemplo.co');
    const api = `/api/companies/${boss.companyId}`;
    const create = (payload: Record<string, unknown>) =>
      t.call({ method: 'POST', url: `${api}/users`, token: boss.token, payload });
    const made = await create({
      email: 'segunda@ejemplo.co',
      password: PASSWORD,
      name: 'Segunda',
      role: 'company_admin',
    });
    expect(made.statusCode, made.body).toBe(201);
    const secondId = json<{ data: { id: string } }>(made).data.id;
    const second = await signIn('segunda@ejemplo.co');
    const secondToken = json<{ data: { idToken: string } }>(second).data.idToken;
    const secondCookie = cookieOf(second)!;

    // The demoted one also watches settings, which a customer may read: a settings event after
    // the ingredient proves the ingredient's row was already judged for this very stream.
    const stream = await openStream(`${t.baseUrl}${api}/changes?resources=ingredients,settings`, {
      authorization: `Bearer ${secondToken}`,
    });
    // Positive control: a subscriber who stays admin.
    const bossStream = await openStream(`${t.baseUrl}${api}/changes?resources=ingredients`, {
      authorization: `Bearer ${boss.token}`,
    });
    try {
      expect(stream.status).toBe(200);
      expect(bossStream.status).toBe(200);
      const names = (events: typeof stream.events) =>
        changeEvents(events)
          .filter((e) => e.json!.resource === 'ingredients')
          .flatMap((e) => e.json!.changes.map((c) => String(c.doc.name)));
      const ing = (name: string) =>
        t.call({ method: 'POST', url: `${api}/ingredients`, token: boss.token, payload: { name, unit: 'kg' } });
      await ing('Antes');
      await stream.waitFor((e) => names(e).includes('Antes'));
      await bossStream.waitFor((e) => names(e).includes('Antes'));

      const demote = await t.call({
        method: 'PATCH',
        url: `${api}/users/${secondId}`,
        token: boss.token,
        payload: { role: 'company_customer' },
      });
      expect(demote.statusCode, demote.body).toBe(200);
      expect(
        (await t.call({ method: 'POST', url: `${api}/brands`, token: secondToken, payload: { name: 'No' } }))
          .statusCode,
      ).toBe(403);
      await ing('Después');
      await bossStream.waitFor((e) => names(e).includes('Después'));
      const fee = await t.call({
        method: 'PATCH',
        url: `${api}/settings`,
        token: boss.token,
        payload: { deliveryFee: 4321 },
      });
      expect(fee.statusCode, fee.body).toBe(200);
      await stream.waitFor((e) => changeEvents(e).some((ev) => ev.json!.resource === 'settings'));
      const settingsEvent = changeEvents(stream.events).find((ev) => ev.json!.resource === 'settings')!;
      // Now a customer: the public part of the settings only.
      expect(settingsEvent.json!.changes[0]!.doc).not.toHaveProperty('targetMargin');
      expect(names(stream.events)).toEqual(['Antes']);

      const disable = await t.call({
        method: 'PATCH',
        url: `${api}/users/${secondId}`,
        token: boss.token,
        payload: { disabled: true },
      });
      expect(disable.statusCode).toBe(200);
      const next = await t.call({ method: 'GET', url: '/api/me', token: secondToken });
      expect(next.statusCode).toBe(401);
      expect(json(next)).toMatchObject({ code: 'auth/user-disabled', message: 'This account has been disabled.' });
      expect((await refresh(secondCookie)).statusCode).toBe(401);
      const again = await signIn('segunda@ejemplo.co');
      expect(again.statusCode).toBe(403);
      expect(json(again)).toMatchObject({ code: 'auth/user-disabled', message: 'This account has been disabled.' });

      // The disabled user's open stream ends at the next event it would have been judged for.
      await ing('Tras desactivar');
      await bossStream.waitFor((e) => names(e).includes('Tras desactivar'));
      await ended(stream);
      expect(names(stream.events)).toEqual(['Antes']);
    } finally {
      stream.close();
      bossStream.close();
    }
  });

  it('manages users: assistants, staff sees customers only, nobody demotes or disables themselves', async () => {
    const boss = await bakery('dueno@ejemplo.co');
    const api = `/api/companies/${boss.companyId}/users`;
    for (const [email, role] of [
      ['reparto@ejemplo.co', 'delivery_assistant'],
      ['horno@ejemplo.co', 'production_assistant'],
      ['caja@ejemplo.co', 'company_staff'],
      ['compra@ejemplo.co', 'company_customer'],
    ]) {
      const res = await t.call({
        method: 'POST',
        url: api,
        token: boss.token,
        payload: { email, password: PASSWORD, name: email, role },
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(json<{ data: Record<string, unknown> }>(res).data).not.toHaveProperty('passwordHash');
    }
    const bad = await t.call({
      method: 'POST',
      url: api,
      token: boss.token,
      payload: { email: 'x@ejemplo.co', password: PASSWORD, name: 'X', role: 'system_admin' },
    });
    expect(bad.statusCode).toBe(400);
    const all = json<{ data: { role: string }[]; total: number }>(
      await t.call({ method: 'GET', url: api, token: boss.token }),
    );
    expect(all.total).toBe(5);
    const staffToken = json<{ data: { idToken: string } }>(await signIn('caja@ejemplo.co')).data.idToken;
    const seen = json<{ data: { role: string }[] }>(await t.call({ method: 'GET', url: api, token: staffToken }));
    expect(seen.data.map((u) => u.role)).toEqual(['company_customer']);
    expect(
      (
        await t.call({
          method: 'POST',
          url: api,
          token: staffToken,
          payload: { email: 'y@ejemplo.co', password: PASSWORD, name: 'Y', role: 'company_customer' },
        })
      ).statusCode,
    ).toBe(201);
    // The same rule as /api/auth/register (one permission table): staff register customers, nobody else.
    expect(
      (
        await t.call({
          method: 'POST',
          url: api,
          token: staffToken,
          payload: { email: 'z@ejemplo.co', password: PASSWORD, name: 'Z', role: 'company_staff' },
        })
      ).statusCode,
    ).toBe(403);
    const reparto = json<{ data: { idToken: string } }>(await signIn('reparto@ejemplo.co'));
    expect(reparto.data.idToken).toBeTruthy();

    const meRes = json<{ data: { uid: string } }>(await t.call({ method: 'GET', url: '/api/me', token: boss.token }));
    const self = `${api}/${meRes.data.uid}`;
    expect(
      (await t.call({ method: 'PATCH', url: self, token: boss.token, payload: { role: 'company_staff' } })).statusCode,
    ).toBe(403);
    expect(
      (await t.call({ method: 'PATCH', url: self, token: boss.token, payload: { disabled: true } })).statusCode,
    ).toBe(403);
    expect(
      (await t.call({ method: 'PATCH', url: self, token: boss.token, payload: { phone: '+57 300 555 0101' } }))
        .statusCode,
    ).toBe(200);

    const patched = await t.call({
      method: 'PATCH',
      url: '/api/me',
      token: boss.token,
      payload: { name: 'Don Dueño', addresses: [{ line: 'Calle 10 # 5-20' }] },
    });
    expect(json(patched)).toMatchObject({ data: { name: 'Don Dueño', addresses: [{ line: 'Calle 10 # 5-20' }] } });
    const wrong = await t.call({
      method: 'POST',
      url: '/api/me/password',
      token: boss.token,
      payload: { currentPassword: 'nope-nope', newPassword: 'otra-clave-larga' },
    });
    expect(wrong.statusCode).toBe(400);
    const changed = await t.call({
      method: 'POST',
      url: '/api/me/password',
      token: boss.token,
      payload: { currentPassword: PASSWORD, newPassword: 'otra-clave-larga' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await signIn('dueno@ejemplo.co')).statusCode).toBe(401);
    expect((await signIn('dueno@ejemplo.co', 'otra-clave-larga')).statusCode).toBe(200);
  });
});

describe('deleting a user', () => {
  it('ends every session of the deleted user at once', async () => {
    const boss = await bakery('borra@ejemplo.co');
    const api = `/api/companies/${boss.companyId}/users`;
    const made = await t.call({
      method: 'POST',
      url: api,
      token: boss.token,
      payload: { email: 'adios@ejemplo.co', password: PASSWORD, name: 'Adiós', role: 'company_staff' },
    });
    const id = json<{ data: { id: string } }>(made).data.id;
    const session = await signIn('adios@ejemplo.co');
    const token = json<{ data: { idToken: string } }>(session).data.idToken;
    expect((await t.call({ method: 'DELETE', url: `${api}/${id}`, token: boss.token })).statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: '/api/me', token })).statusCode).toBe(401);
    expect(
      (await t.call({ method: 'POST', url: '/api/identity/refresh', headers: { cookie: cookieOf(session)! } }))
        .statusCode,
    ).toBe(401);
    expect((await signIn('adios@ejemplo.co')).statusCode).toBe(401);
    const meId = json<{ data: { uid: string } }>(await t.call({ method: 'GET', url: '/api/me', token: boss.token }))
      .data.uid;
    expect((await t.call({ method: 'DELETE', url: `${api}/${meId}`, token: boss.token })).statusCode).toBe(403);
  });
});

describe('users (design §4)', () => {
  it('changes roles to the assistants, re-enables, and hides non-customers from staff', async () => {
    const boss = await bakery('roles@ejemplo.co');
    const api = `/api/companies/${boss.companyId}/users`;
    const make = async (email: string, role: string) => {
      const res = await t.call({
        method: 'POST',
        url: api,
        token: boss.token,
        payload: { email, password: PASSWORD, name: email, role },
      });
      expect(res.statusCode, res.body).toBe(201);
      return json<{ data: { id: string } }>(res).data.id;
    };
    const worker = await make('rotando@ejemplo.co', 'company_staff');
    const buyer = await make('compradora@ejemplo.co', 'company_customer');
    const workerToken = json<{ data: { idToken: string } }>(await signIn('rotando@ejemplo.co')).data.idToken;
    const patch = (id: string, payload: Record<string, unknown>) =>
      t.call({ method: 'PATCH', url: `${api}/${id}`, token: boss.token, payload });

    for (const role of ['delivery_assistant', 'production_assistant']) {
      const res = await patch(worker, { role });
      expect(res.statusCode, res.body).toBe(200);
      expect(json(res)).toMatchObject({ data: { role } });
      // The same token: the role is read from the database on each request.
      const login = await t.call({
        method: 'POST',
        url: '/api/auth/login',
        token: workerToken,
        payload: { email: 'rotando@ejemplo.co' },
      });
      expect(json(login)).toMatchObject({ data: { role, companyId: boss.companyId } });
    }

    expect((await patch(worker, { disabled: true })).statusCode).toBe(200);
    expect((await signIn('rotando@ejemplo.co')).statusCode).toBe(403);
    const enabled = await patch(worker, { disabled: false });
    expect(enabled.statusCode).toBe(200);
    expect(json(enabled)).toMatchObject({ data: { disabled: false } });
    expect((await signIn('rotando@ejemplo.co')).statusCode).toBe(200);

    // Staff read customers only: any other user is a 404, not a 403.
    expect((await patch(worker, { role: 'company_staff' })).statusCode).toBe(200);
    const staffToken = json<{ data: { idToken: string } }>(await signIn('rotando@ejemplo.co')).data.idToken;
    expect((await t.call({ method: 'GET', url: `${api}/${buyer}`, token: staffToken })).statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: `${api}/${boss.uid}`, token: staffToken })).statusCode).toBe(404);
  });

  it('records lastLoginAt at the backend login', async () => {
    await registerAdmin('ultimo@ejemplo.co');
    const token = json<{ data: { idToken: string } }>(await signIn('ultimo@ejemplo.co')).data.idToken;
    const me = async () =>
      json<{ data: { lastLoginAt: string | null } }>(await t.call({ method: 'GET', url: '/api/me', token }));
    expect((await me()).data.lastLoginAt).toBeNull();
    t.clock.advance(60_000);
    try {
      const at = t.clock.now().toISOString();
      const login = await t.call({
        method: 'POST',
        url: '/api/auth/login',
        token,
        payload: { email: 'ultimo@ejemplo.co' },
      });
      expect(login.statusCode).toBe(200);
      expect((await me()).data.lastLoginAt).toBe(at);
    } finally {
      t.clock.advance(-60_000);
    }
  });

  it('refuses a common password at a password change', async () => {
    await registerAdmin('comun@ejemplo.co');
    const token = json<{ data: { idToken: string } }>(await signIn('comun@ejemplo.co')).data.idToken;
    const res = await t.call({
      method: 'POST',
      url: '/api/me/password',
      token,
      payload: { currentPassword: PASSWORD, newPassword: 'password123' },
    });
    expect(res.statusCode).toBe(400);
    expect(json(res)).toMatchObject({ code: 'auth/weak-password' });
    expect((await signIn('comun@ejemplo.co')).statusCode).toBe(200);
  });

  it('answers two registrations of one e-mail at once with one 201 and one 409, never a 500', async () => {
    const boss = await bakery('doble-jefa@ejemplo.co');
    const createUser = (email: string) =>
      t.call({
        method: 'POST',
        url: `/api/companies/${boss.companyId}/users`,
        token: boss.token,
        payload: { email, password: PASSWORD, name: 'Doble', role: 'company_staff' },
      });
    // Both paths that create accounts: registration (spec §7) and an admin's POST …/users (design §4).
    const pairs = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const email = `doble${i}@ejemplo.co`;
        return i % 2 === 0
          ? Promise.all([registerAdmin(email), registerAdmin(email.toUpperCase())])
          : Promise.all([createUser(email), createUser(email.toUpperCase())]);
      }),
    );
    for (const pair of pairs) {
      expect(pair.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      const conflict = pair.find((r) => r.statusCode === 409)!;
      expect(json(conflict)).toMatchObject({
        code: 'auth/email-in-use',
        message: 'An account with this email already exists',
      });
    }
  });
});

describe('createBakery', () => {
  it('makes the caller its admin, stores the contact, and the next token carries the company', async () => {
    await registerAdmin('nueva@ejemplo.co');
    const first = await signIn('nueva@ejemplo.co');
    const firstToken = json<{ data: { idToken: string } }>(first).data.idToken;
    expect(decodeJwt(firstToken).companyId).toBeNull();
    const created = await t.call({
      method: 'POST',
      url: '/api/companies',
      token: firstToken,
      payload: {
        name: 'Panadería Nueva',
        phone: '+57 300 111 2233',
        whatsapp: '+57 300 444 5566',
        address: 'Cra 7 # 12-34',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const companyId = json<{ data: { company: { id: string } } }>(created).data.company.id;

    // The next token, from the refresh cookie of the session that created it, names the company.
    const next = await refresh(cookieOf(first));
    expect(next.statusCode).toBe(200);
    const token = json<{ data: { idToken: string } }>(next).data.idToken;
    expect(decodeJwt(token)).toMatchObject({ companyId, role: 'company_admin' });
    const login = await t.call({
      method: 'POST',
      url: '/api/auth/login',
      token,
      payload: { email: 'nueva@ejemplo.co' },
    });
    expect(json(login)).toEqual({ data: { name: 'Dueña de Panadería', role: 'company_admin', companyId } });

    const stored = await t.call({ method: 'GET', url: `/api/companies/${companyId}/settings`, token });
    expect(json(stored)).toMatchObject({
      data: {
        marketName: 'Panadería Nueva',
        phone: '+57 300 111 2233',
        whatsapp: '+57 300 444 5566',
        address: 'Cra 7 # 12-34',
      },
    });
  });

  it('lets nobody else create one: an admin with a bakery, staff, customers, assistants, system admins, guests', async () => {
    const { companyId, token } = await bakery('ya-tiene@ejemplo.co');
    const create = (bearer?: string) =>
      t.call({ method: 'POST', url: '/api/companies', token: bearer, payload: { name: 'Otra' } });
    expect((await create(token)).statusCode).toBe(403);
    for (const role of ['company_staff', 'company_customer', 'delivery_assistant', 'production_assistant'] as const) {
      const u = await t.user(role, companyId);
      expect((await create(u.token)).statusCode, role).toBe(403);
    }
    // Design §4: creating needs a company_admin whose companyId is null; a system admin is not one.
    const root = await t.user('system_admin', null);
    expect((await create(root.token)).statusCode).toBe(403);
    const loose = await t.user('company_customer', null);
    expect((await create(loose.token)).statusCode).toBe(403);
    expect((await create()).statusCode).toBe(401);
  });
});
