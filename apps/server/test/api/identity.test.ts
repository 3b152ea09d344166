import { generateKeyPair, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIENCE } from '../../src/modules/identity/keys';
import { setupTestApp, type TestApp } from '../helpers/app';
import { changeEvents, openStream } from '../helpers/sse';

let t: TestApp;
const PASSWORD = 'pan-de-bono-tibio';

const json = <T = Record<string, unknown>>(res: { body: string }) => JSON.parse(res.body) as T;

function cookieOf(res: { headers: Record<string, unknown> }): string | undefined {
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? raw : raw ? [String(raw)] : [];
  const c = list.find((x: string) => x.startsWith('hornada_refresh='));
  return c?.split(';')[0];
}

async function signIn(email: string, password = PASSWORD, headers: Record<string, string> = {}) {
  return t.call({ method: 'POST', url: '/api/identity/sign-in', payload: { email, password }, headers });
}

async function registerAdmin(email: string, password = PASSWORD, name = 'Dueña de Panadería') {
  return t.call({
    method: 'POST',
    url: '/api/auth/register',
    payload: { email, password, name, role: 'company_admin' },
  });
}

/** Registers a company admin, signs in and creates a bakery; returns its token (re-issued) and ids. */
async function bakery(email: string) {
  expect((await registerAdmin(email)).statusCode).toBe(201);
  const first = json<{ data: { idToken: string } }>(await signIn(email)).data.idToken;
  const created = await t.call({
    method: 'POST',
    url: '/api/companies',
    token: first,
    payload: { name: `Panadería ${email}` },
  });
  expect(created.statusCode, created.body).toBe(201);
  const companyId = json<{ data: { company: { id: string } } }>(created).data.company.id;
  const token = json<{ data: { idToken: string } }>(await signIn(email)).data.idToken;
  return { companyId, token };
}

beforeAll(async () => {
  t = await setupTestApp({ listen: true });
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
    const [h, p, s] = token.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const swap = (c: Record<string, unknown>) => `${h}.${Buffer.from(JSON.stringify(c)).toString('base64url')}.${s}`;
    expect((await me(swap({ ...claims, aud: 'other' }))).statusCode).toBe(401);
    expect((await me(swap({ ...claims, iss: 'https://evil.example' }))).statusCode).toBe(401);
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

    const stream = await openStream(`${t.baseUrl}${api}/changes?resources=ingredients`, {
      authorization: `Bearer ${secondToken}`,
    });
    expect(stream.status).toBe(200);
    const ing = (name: string) =>
      t.call({ method: 'POST', url: `${api}/ingredients`, token: boss.token, payload: { name, unit: 'kg' } });
    await ing('Antes');
    await stream.waitFor((e) => changeEvents(e).length === 1);

    const demote = await t.call({
      method: 'PATCH',
      url: `${api}/users/${secondId}`,
      token: boss.token,
      payload: { role: 'company_customer' },
    });
    expect(demote.statusCode, demote.body).toBe(200);
    expect(
      (await t.call({ method: 'POST', url: `${api}/brands`, token: secondToken, payload: { name: 'No' } })).statusCode,
    ).toBe(403);
    await ing('Después');
    await new Promise((r) => setTimeout(r, 500));
    expect(JSON.stringify(stream.events)).not.toContain('Después');

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
    expect(
      (await t.call({ method: 'POST', url: '/api/identity/refresh', headers: { cookie: secondCookie } })).statusCode,
    ).toBe(401);
    const again = await signIn('segunda@ejemplo.co');
    expect(again.statusCode).toBe(403);
    expect(json(again)).toMatchObject({ code: 'auth/user-disabled', message: 'This account has been disabled.' });
    stream.close();
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

describe('brute force', () => {
  it('slows an account after 10 failures, even across forged X-Forwarded-For, and lets the owner in after the window', async () => {
    await registerAdmin('victima@ejemplo.co');
    const statuses: number[] = [];
    let retryAfter = '';
    for (let i = 0; i < 40; i++) {
      const res = await signIn('victima@ejemplo.co', `wrong-${i}`, { 'x-forwarded-for': `203.0.113.${i}` });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) retryAfter = String(res.headers['retry-after']);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    // Limited: even the right password waits.
    expect((await signIn('victima@ejemplo.co')).statusCode).toBe(429);
    t.clock.advance(16 * 60_000);
    try {
      expect((await signIn('victima@ejemplo.co')).statusCode).toBe(200);
    } finally {
      t.clock.advance(-16 * 60_000);
    }
  });

  it('limits an address across accounts', async () => {
    const few = await setupTestApp({ env: { RATE_LIMIT_SIGNIN_ADDRESS: '5' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        const res = await few.call({
          method: 'POST',
          url: '/api/identity/sign-in',
          payload: { email: `n${i}@ejemplo.co`, password: 'x-x-x-x-x' },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    } finally {
      await few.close();
    }
  });
});

describe('tenants', () => {
  it("gives a second bakery's admin 404 on every private route of the first, and the public catalogue", async () => {
    const first = await bakery('primera@ejemplo.co');
    const api = `/api/companies/${first.companyId}`;
    const product = json<{ data: { id: string } }>(
      await t.call({
        method: 'POST',
        url: `${api}/products`,
        token: first.token,
        payload: { name: 'Pan', price: 1000 },
      }),
    ).data.id;
    const ingredient = json<{ data: { id: string } }>(
      await t.call({
        method: 'POST',
        url: `${api}/ingredients`,
        token: first.token,
        payload: { name: 'Sal', unit: 'g' },
      }),
    ).data.id;
    const intruder = await bakery('intrusa@ejemplo.co');
    const calls: [string, string, Record<string, unknown>?][] = [
      ['GET', `${api}/ingredients`],
      ['GET', `${api}/ingredients/${ingredient}`],
      ['POST', `${api}/ingredients`, { name: 'X', unit: 'g' }],
      ['PATCH', `${api}/ingredients/${ingredient}`, { stock: 1 }],
      ['DELETE', `${api}/ingredients/${ingredient}`],
      ['GET', `${api}/recipes`],
      ['GET', `${api}/b2bClients`],
      ['GET', `${api}/users`],
      ['POST', `${api}/users`, { email: 'z@ejemplo.co', password: PASSWORD, name: 'Z', role: 'company_staff' }],
      ['POST', `${api}/products`, { name: 'X', price: 1 }],
      ['PATCH', `${api}/products/${product}`, { price: 1 }],
      ['DELETE', `${api}/products/${product}`],
      ['PATCH', `${api}/settings`, { deliveryFee: 1 }],
    ];
    for (const [method, url, payload] of calls) {
      const res = await t.call({ method: method as 'GET', url, token: intruder.token, payload });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const pub = await t.call({ method: 'GET', url: `${api}/products`, token: intruder.token });
    expect(pub.statusCode).toBe(200);
    expect(json<{ total: number }>(pub).total).toBe(1);
  });

  it('lets only an admin without a bakery create one', async () => {
    const { token } = await bakery('ya-tiene@ejemplo.co');
    expect((await t.call({ method: 'POST', url: '/api/companies', token, payload: { name: 'Otra' } })).statusCode).toBe(
      403,
    );
    expect((await t.call({ method: 'POST', url: '/api/companies', payload: { name: 'Otra' } })).statusCode).toBe(401);
  });
});
