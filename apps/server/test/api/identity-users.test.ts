/**
 * Users (docs/design.md §4): role changes and disabling bite at once (the next call, the next refresh, an
 * open stream), managing a bakery's users, deleting one, last login and password changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, refreshCookieOf as cookieOf, type TestApp } from '../helpers/app';
import { lateIdentityCalls, PASSWORD, setupIdentityApp } from '../helpers/identity';
import { closeListeningApp } from '../helpers/live';
import { changeEvents, openStream, type SseStream } from '../helpers/sse';

let t: TestApp;
const { signIn, registerAdmin, bakery, refresh, verifyEmail } = lateIdentityCalls(() => t);

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
  t = await setupIdentityApp();
});
afterAll(() => closeListeningApp(t));

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
    // Creating users needs a verified e-mail: the new staff member verifies theirs first,
    // accepting the bakery that made the account (else the proof would take it out).
    await verifyEmail('caja@ejemplo.co', true, true);
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

describe('users (docs/design.md §4)', () => {
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
});
