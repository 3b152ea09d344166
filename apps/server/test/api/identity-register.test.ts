/**
 * Registration (docs/product.md §5, word for word; who may register whom; the password rules), two registrations
 * of one e-mail at once by both paths that create accounts, and creating a bakery (docs/design.md §4).
 */
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, refreshCookieOf as cookieOf, type TestApp } from '../helpers/app';
import { lateIdentityCalls, PASSWORD, setupIdentityApp } from '../helpers/identity';
import { closeListeningApp } from '../helpers/live';

let t: TestApp;
const { signIn, registerAdmin, bakery, refresh, verifyEmail } = lateIdentityCalls(() => t);

beforeAll(async () => {
  t = await setupIdentityApp();
});
afterAll(() => closeListeningApp(t));

describe('registration (docs/product.md §5, word for word)', () => {
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

    // Registering users needs a verified e-mail: the new staff member verifies theirs first,
    // accepting the bakery that made the account (else the proof would take it out).
    await verifyEmail('staff@ejemplo.co', true, true);
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

describe('users (docs/design.md §4)', () => {
  it('answers two registrations of one e-mail at once with one 201 and one 409, never a 500', async () => {
    const boss = await bakery('doble-jefa@ejemplo.co');
    const createUser = (email: string) =>
      t.call({
        method: 'POST',
        url: `/api/companies/${boss.companyId}/users`,
        token: boss.token,
        payload: { email, password: PASSWORD, name: 'Doble', role: 'company_staff' },
      });
    // Both paths that create accounts: registration (docs/product.md §7) and an admin's POST …/users (docs/design.md §4).
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
    // Acting as a bakery needs a verified e-mail (identity-verified-email.test.ts).
    await verifyEmail('nueva@ejemplo.co');
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
