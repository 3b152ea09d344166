/**
 * People of a bakery: invitations by e-mail, who may create and change whom, the tenant
 * boundary, nobody locking a bakery out of its own people, and the system admin's company list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, type TestApp } from '../helpers/app';
import { lateIdentityCalls, PASSWORD, setupIdentityApp } from '../helpers/identity';
import { closeListeningApp } from '../helpers/live';
import { tokenIn, waitForMail } from '../helpers/mail';

let t: TestApp;
let root: string;
const { signIn, bakery } = lateIdentityCalls(() => t);

beforeAll(async () => {
  t = await setupIdentityApp();
  root = (await t.user('system_admin', null)).token;
});
afterAll(() => closeListeningApp(t));

const usersOf = (companyId: string) => `/api/companies/${companyId}/users`;
const create = (companyId: string, token: string, payload: Record<string, unknown>) =>
  t.call({ method: 'POST', url: usersOf(companyId), token, payload });
const patch = (companyId: string, token: string, id: string, payload: Record<string, unknown>) =>
  t.call({ method: 'PATCH', url: `${usersOf(companyId)}/${id}`, token, payload });
const idOf = (res: { body: string }) => json<{ data: { id: string } }>(res).data.id;

describe('invitations', () => {
  it('creates a person without a password and mails a link to choose one, which signs them in', async () => {
    const boss = await bakery('invita@ejemplo.co');
    const res = await create(boss.companyId, boss.token, {
      email: 'Invitada@Ejemplo.co',
      name: 'Invitada',
      role: 'delivery_assistant',
      invite: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const doc = json<{ data: Record<string, unknown> }>(res).data;
    expect(doc).toMatchObject({ email: 'invitada@ejemplo.co', role: 'delivery_assistant', emailVerified: false });
    expect(doc).not.toHaveProperty('invite');
    expect(doc).not.toHaveProperty('passwordHash');
    // No password yet: nothing signs in until the link is used.
    expect((await signIn('invitada@ejemplo.co')).statusCode).toBe(401);

    const mail = await waitForMail(t, root, 'invitada@ejemplo.co', /invita a crear tu contraseña/);
    expect(mail.text).toContain('7 días');
    const token = tokenIn(mail.text, '/restablecer-contrasena');
    // Still valid after the half hour a recovery link gets.
    t.clock.advance(2 * 3600_000);
    try {
      const confirm = await t.call({
        method: 'POST',
        url: '/api/identity/password-reset/confirm',
        payload: { token, password: 'horno-de-lena-1' },
      });
      expect(confirm.statusCode, confirm.body).toBe(200);
    } finally {
      t.clock.advance(-2 * 3600_000);
    }
    const signed = await signIn('invitada@ejemplo.co', 'horno-de-lena-1');
    expect(signed.statusCode, signed.body).toBe(200);
    const me = await t.call({
      method: 'GET',
      url: '/api/me',
      token: json<{ data: { idToken: string } }>(signed).data.idToken,
    });
    expect(json(me)).toMatchObject({ data: { role: 'delivery_assistant', emailVerified: true } });
  });

  it('wants exactly one of a password and an invitation', async () => {
    const boss = await bakery('una-de-dos@ejemplo.co');
    const base = { email: 'dos@ejemplo.co', name: 'Dos', role: 'company_customer' };
    const both = await create(boss.companyId, boss.token, { ...base, password: PASSWORD, invite: true });
    expect(both.statusCode).toBe(400);
    const neither = await create(boss.companyId, boss.token, base);
    expect(neither.statusCode).toBe(400);
    const notInvited = await create(boss.companyId, boss.token, { ...base, invite: false });
    expect(notInvited.statusCode).toBe(400);
  });

  it('mails nothing when the creation is refused', async () => {
    const boss = await bakery('sin-correo@ejemplo.co');
    await t.user('company_customer', boss.companyId);
    const first = await create(boss.companyId, boss.token, {
      email: 'repetida@ejemplo.co',
      name: 'Repetida',
      role: 'company_customer',
      password: PASSWORD,
    });
    expect(first.statusCode).toBe(201);
    const again = await create(boss.companyId, boss.token, {
      email: 'repetida@ejemplo.co',
      name: 'Repetida',
      role: 'company_customer',
      invite: true,
    });
    expect(again.statusCode).toBe(409);
    await expect(waitForMail(t, root, 'repetida@ejemplo.co', /invita/)).rejects.toThrow(/no mail/);
  }, 15_000);
});

describe('who may create and change whom', () => {
  it('staff register customers only, never see or change anyone else, and change no role', async () => {
    const boss = await bakery('jefa@ejemplo.co');
    const staff = await t.user('company_staff', boss.companyId);
    const buyer = idOf(
      await create(boss.companyId, boss.token, {
        email: 'cliente-a@ejemplo.co',
        name: 'Cliente A',
        role: 'company_customer',
        password: PASSWORD,
      }),
    );
    const invited = await create(boss.companyId, staff.token, {
      email: 'cliente-b@ejemplo.co',
      name: 'Cliente B',
      role: 'company_customer',
      invite: true,
    });
    expect(invited.statusCode, invited.body).toBe(201);
    for (const role of ['company_admin', 'company_staff', 'delivery_assistant', 'production_assistant']) {
      const res = await create(boss.companyId, staff.token, {
        email: `${role}@ejemplo.co`,
        name: 'No',
        role,
        password: PASSWORD,
      });
      expect(res.statusCode, role).toBe(403);
    }
    // The staff screen's list (every role but customers) shows them nothing but customers.
    const list = await t.call({
      method: 'GET',
      url: `${usersOf(boss.companyId)}?role=company_admin,company_staff,delivery_assistant`,
      token: staff.token,
    });
    expect(list.statusCode).toBe(200);
    expect(json<{ total: number }>(list).total).toBe(0);
    expect((await patch(boss.companyId, staff.token, buyer, { role: 'company_staff' })).statusCode).toBe(403);
    expect((await patch(boss.companyId, staff.token, buyer, { disabled: true })).statusCode).toBe(403);
    expect((await patch(boss.companyId, staff.token, boss.uid, { role: 'company_customer' })).statusCode).toBe(403);
    // Reading anyone but a customer: not found.
    const admin = await t.call({ method: 'GET', url: `${usersOf(boss.companyId)}/${boss.uid}`, token: staff.token });
    expect(admin.statusCode).toBe(404);
  });

  it("an admin never reaches another company's people", async () => {
    const mine = await bakery('mia@ejemplo.co');
    const theirs = await bakery('suya@ejemplo.co');
    const worker = idOf(
      await create(theirs.companyId, theirs.token, {
        email: 'ajena@ejemplo.co',
        name: 'Ajena',
        role: 'company_staff',
        password: PASSWORD,
      }),
    );
    // Through the other company's path: the company is not confirmed to exist.
    expect((await t.call({ method: 'GET', url: usersOf(theirs.companyId), token: mine.token })).statusCode).toBe(404);
    expect((await patch(theirs.companyId, mine.token, worker, { disabled: true })).statusCode).toBe(404);
    expect(
      (
        await create(theirs.companyId, mine.token, {
          email: 'colada@ejemplo.co',
          name: 'Colada',
          role: 'company_admin',
          password: PASSWORD,
        })
      ).statusCode,
    ).toBe(404);
    // Through its own path with the other's id: not found, never confirmed to exist.
    expect((await patch(mine.companyId, mine.token, worker, { disabled: true })).statusCode).toBe(404);
    expect(
      (await t.call({ method: 'GET', url: `${usersOf(mine.companyId)}/${worker}`, token: mine.token })).statusCode,
    ).toBe(404);
    expect((await signIn('ajena@ejemplo.co')).statusCode).toBe(200);
  });
});

describe('nobody locks a bakery out of its people', () => {
  it('refuses changing oneself, and taking away the last active admin', async () => {
    const boss = await bakery('ultima@ejemplo.co');
    const self = await patch(boss.companyId, boss.token, boss.uid, { disabled: true });
    expect(self.statusCode).toBe(403);
    expect(json(self)).toMatchObject({ code: 'users/self-change' });
    // Nor deleting oneself (the delete's own hook, never a write's).
    const selfDelete = await t.call({
      method: 'DELETE',
      url: `${usersOf(boss.companyId)}/${boss.uid}`,
      token: boss.token,
    });
    expect(selfDelete.statusCode).toBe(403);
    expect(json(selfDelete)).toMatchObject({ code: 'users/self-change' });
    // A system admin acting on the bakery may not leave it without an admin either.
    for (const payload of [{ disabled: true }, { role: 'company_staff' }]) {
      const res = await patch(boss.companyId, root, boss.uid, payload);
      expect(res.statusCode).toBe(422);
      expect(json(res)).toMatchObject({ code: 'users/last-admin' });
    }
    const del = await t.call({ method: 'DELETE', url: `${usersOf(boss.companyId)}/${boss.uid}`, token: root });
    expect(del.statusCode).toBe(422);
    // A disabled second admin does not count; an enabled one does.
    const second = idOf(
      await create(boss.companyId, boss.token, {
        email: 'segunda-jefa@ejemplo.co',
        name: 'Segunda',
        role: 'company_admin',
        password: PASSWORD,
        disabled: true,
      }),
    );
    expect((await patch(boss.companyId, root, boss.uid, { disabled: true })).statusCode).toBe(422);
    expect((await patch(boss.companyId, boss.token, second, { disabled: false })).statusCode).toBe(200);
    expect((await patch(boss.companyId, root, boss.uid, { role: 'company_staff' })).statusCode).toBe(200);
    expect((await patch(boss.companyId, root, boss.uid, { role: 'company_admin' })).statusCode).toBe(200);
  });

  it('of two admins demoting each other at once, one is refused', async () => {
    const boss = await bakery('duelo@ejemplo.co');
    const other = await t.user('company_admin', boss.companyId);
    const results = await Promise.all([
      patch(boss.companyId, boss.token, other.uid, { role: 'company_staff' }),
      patch(boss.companyId, other.token, boss.uid, { role: 'company_staff' }),
    ]);
    const codes = results.map((r) => r.statusCode).sort();
    // The second sees the first's demotion: either refused as the last admin, or no longer an admin (403).
    expect(codes[0]).toBe(200);
    expect([403, 422]).toContain(codes[1]);
    const list = json<{ data: { role: string; disabled: boolean }[] }>(
      await t.call({ method: 'GET', url: `${usersOf(boss.companyId)}?role=company_admin`, token: root }),
    );
    expect(list.data.filter((u) => !u.disabled)).toHaveLength(1);
  });
});

describe('last sign-in and the active list', () => {
  it('lists by lastLoginAt within a range (users/active)', async () => {
    const boss = await bakery('activos@ejemplo.co');
    await create(boss.companyId, boss.token, {
      email: 'nunca@ejemplo.co',
      name: 'Nunca',
      role: 'company_customer',
      password: PASSWORD,
    });
    const today = t.clock.now().toISOString().slice(0, 10);
    const from = new Date(t.clock.now().getTime() - 30 * 86_400_000).toISOString().slice(0, 10);
    // The admin signed in (bakery() runs the backend login); the customer never did.
    await t.call({
      method: 'POST',
      url: '/api/auth/login',
      token: boss.token,
      payload: { email: 'activos@ejemplo.co' },
    });
    const res = await t.call({
      method: 'GET',
      url: `${usersOf(boss.companyId)}?date_field=lastLoginAt&start_date=${from}&end_date=${today}`,
      token: boss.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(json<{ data: { email: string }[] }>(res).data.map((u) => u.email)).toEqual(['activos@ejemplo.co']);
  });
});

describe('the company switcher (GET /api/companies)', () => {
  it('lists and searches the bakeries for a system admin only', async () => {
    const a = await bakery('switch-a@ejemplo.co', { name: 'Panadería Él Trigal' });
    await bakery('switch-b@ejemplo.co', { name: 'Pastelería Dulce' });
    const found = await t.call({ method: 'GET', url: '/api/companies?search=el%20trigal', token: root });
    expect(found.statusCode, found.body).toBe(200);
    expect(json(found)).toMatchObject({ data: [{ id: a.companyId, name: 'Panadería Él Trigal' }], total: 1 });
    const all = json<{ data: unknown[]; total: number }>(
      await t.call({ method: 'GET', url: '/api/companies?per_page=1', token: root }),
    );
    expect(all.data).toHaveLength(1);
    expect(all.total).toBeGreaterThan(1);
    expect((await t.call({ method: 'GET', url: '/api/companies?search=%25', token: root })).statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: '/api/companies', token: a.token })).statusCode).toBe(403);
    expect((await t.call({ method: 'GET', url: '/api/companies' })).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: '/api/companies?per_page=1000', token: root })).statusCode).toBe(400);
  });
});

describe('an invitation pending, and sent again', () => {
  const resend = (companyId: string, token: string, id: string) =>
    t.call({ method: 'POST', url: `${usersOf(companyId)}/${id}/invitation`, token });
  const confirm = (token: string) =>
    t.call({
      method: 'POST',
      url: '/api/identity/password-reset/confirm',
      payload: { token, password: 'horno-de-lena-2' },
    });
  const read = async (companyId: string, token: string, id: string) =>
    json<{ data: { invitedAt: string | null } }>(
      await t.call({ method: 'GET', url: `${usersOf(companyId)}/${id}`, token }),
    ).data;

  it('shows the invitation pending until the password is chosen; a resend rotates the link', async () => {
    const boss = await bakery('reenvia@ejemplo.co');
    const seen = new Set<string>();
    const res = await create(boss.companyId, boss.token, {
      email: 'pendiente@ejemplo.co',
      name: 'Pendiente',
      role: 'company_staff',
      invite: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = idOf(res);
    const sentAt = json<{ data: { invitedAt: string | null } }>(res).data.invitedAt;
    expect(sentAt).toBe(t.clock.now().toISOString());
    const first = tokenIn(
      (await waitForMail(t, root, 'pendiente@ejemplo.co', /invita/, seen)).text,
      '/restablecer-contrasena',
    );

    t.clock.advance(60_000);
    try {
      const again = await resend(boss.companyId, boss.token, id);
      expect(again.statusCode, again.body).toBe(200);
      expect(json(again)).toEqual({ data: { invitedAt: t.clock.now().toISOString() } });
      expect((await read(boss.companyId, boss.token, id)).invitedAt).toBe(t.clock.now().toISOString());
    } finally {
      t.clock.advance(-60_000);
    }
    const second = tokenIn(
      (await waitForMail(t, root, 'pendiente@ejemplo.co', /invita/, seen)).text,
      '/restablecer-contrasena',
    );
    expect(second).not.toBe(first);
    // The old link no longer works; the new one does, and the invitation is no longer pending.
    expect((await confirm(first)).statusCode).toBe(400);
    const ok = await confirm(second);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await read(boss.companyId, boss.token, id)).invitedAt).toBeNull();
    const late = await resend(boss.companyId, boss.token, id);
    expect(late.statusCode).toBe(409);
    expect(json(late)).toMatchObject({ code: 'users/not-invited' });
  }, 20_000);

  it('only for whoever may invite the person; another bakery’s person is a 404', async () => {
    const boss = await bakery('permisos-invita@ejemplo.co');
    const other = await bakery('otra-invita@ejemplo.co');
    const staff = await t.user('company_staff', boss.companyId);
    const driver = await t.user('delivery_assistant', boss.companyId);
    const invite = (email: string, role: string) =>
      create(boss.companyId, boss.token, { email, name: 'Invitado', role, invite: true }).then(idOf);
    const customer = await invite('cliente-pendiente@ejemplo.co', 'company_customer');
    const teammate = await invite('equipo-pendiente@ejemplo.co', 'production_assistant');
    // Staff invite customers, so they may send a customer's invitation again; not a teammate's (not theirs to see).
    expect((await resend(boss.companyId, staff.token, customer)).statusCode).toBe(200);
    expect((await resend(boss.companyId, staff.token, teammate)).statusCode).toBe(404);
    expect((await resend(boss.companyId, driver.token, customer)).statusCode).toBe(403);
    expect(
      (await t.call({ method: 'POST', url: `${usersOf(boss.companyId)}/${customer}/invitation` })).statusCode,
    ).toBe(401);
    // Another bakery's admin: through their own company or through ours, never found.
    expect((await resend(other.companyId, other.token, customer)).statusCode).toBe(404);
    expect((await resend(boss.companyId, other.token, customer)).statusCode).toBe(404);
    // A person who was given a password was never invited.
    const withPassword = idOf(
      await create(boss.companyId, boss.token, {
        email: 'con-clave@ejemplo.co',
        name: 'Con Clave',
        role: 'company_customer',
        password: PASSWORD,
      }),
    );
    expect((await read(boss.companyId, boss.token, withPassword)).invitedAt).toBeNull();
    expect((await resend(boss.companyId, boss.token, withPassword)).statusCode).toBe(409);
  }, 20_000);

  it('is limited per person: a few an hour, then 429 with Retry-After', async () => {
    const boss = await bakery('limite-invita@ejemplo.co');
    const id = idOf(
      await create(boss.companyId, boss.token, {
        email: 'muchas-veces@ejemplo.co',
        name: 'Muchas Veces',
        role: 'company_customer',
        invite: true,
      }),
    );
    for (let i = 0; i < 3; i++) expect((await resend(boss.companyId, boss.token, id)).statusCode).toBe(200);
    const refused = await resend(boss.companyId, boss.token, id);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});
