/**
 * An account someone else made for an address: it stays the creating bakery's until the
 * address's owner proves it (a reset, the verification link); from then on it is the owner's own, out of
 * that bakery, and the creator's password no longer opens it, unless the owner accepts (an invitation's link,
 * or `accept: true` with the proof).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, type TestApp } from '../helpers/app';
import { lateIdentityCalls, PASSWORD, setupIdentityApp } from '../helpers/identity';
import { closeListeningApp } from '../helpers/live';
import { outboxOf, tokenIn, waitForMail } from '../helpers/mail';

let t: TestApp;
let root: string;
const { signIn, bakery } = lateIdentityCalls(() => t);
const OWNER_PASSWORD = 'mogolla-chicharrona';
const seen = new Set<string>();

beforeAll(async () => {
  t = await setupIdentityApp();
  root = (await t.user('system_admin', null)).token;
});
afterAll(() => closeListeningApp(t));

const tokenOf = (res: { body: string }) => json<{ data: { idToken: string } }>(res).data.idToken;

async function createFor(boss: { companyId: string; token: string }, email: string, role = 'company_customer') {
  const res = await t.call({
    method: 'POST',
    url: `/api/companies/${boss.companyId}/users`,
    token: boss.token,
    payload: { email, password: PASSWORD, name: 'Persona Ajena', role },
  });
  expect(res.statusCode, res.body).toBe(201);
  return json<{ data: { id: string } }>(res).data.id;
}

/** The owner asks for a reset at /recuperar-contrasena and opens the mailed link. */
async function ownerResets(email: string, extra: Record<string, unknown> = {}) {
  const asked = await t.call({ method: 'POST', url: '/api/identity/password-reset', payload: { email } });
  expect(asked.statusCode).toBe(200);
  const mail = await waitForMail(t, root, email, /contraseña/, seen);
  const token = tokenIn(mail.text, '/restablecer-contrasena');
  return t.call({
    method: 'POST',
    url: '/api/identity/password-reset/confirm',
    payload: { token, password: OWNER_PASSWORD, ...extra },
  });
}

/** Whoever holds the creator's password asks for a verification link; the owner opens it. */
async function ownerVerifies(email: string, extra: Record<string, unknown> = {}) {
  const asCreator = tokenOf(await signIn(email));
  const sent = await t.call({ method: 'POST', url: '/api/identity/verify-email/resend', token: asCreator });
  expect(sent.statusCode, sent.body).toBe(200);
  const mail = await waitForMail(t, root, email, /Confirma/, seen);
  return t.call({
    method: 'POST',
    url: '/api/identity/verify-email',
    payload: { token: tokenIn(mail.text, '/verificar-correo'), ...extra },
  });
}

const readAs = (boss: { companyId: string; token: string }, id: string) =>
  t.call({ method: 'GET', url: `/api/companies/${boss.companyId}/users/${id}`, token: boss.token });

describe('an account a bakery made for someone else', () => {
  it("is the owner's alone after a password reset: out of the bakery, which no longer reads it", async () => {
    const squatter = await bakery('acaparadora@ejemplo.co');
    const id = await createFor(squatter, 'victima@ejemplo.co', 'company_staff');
    // Until the owner proves the address, it is the creator's to use.
    expect((await signIn('victima@ejemplo.co')).statusCode).toBe(200);

    const reset = await ownerResets('victima@ejemplo.co');
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await signIn('victima@ejemplo.co')).statusCode).toBe(401);
    const owner = await signIn('victima@ejemplo.co', OWNER_PASSWORD);
    expect(owner.statusCode, owner.body).toBe(200);
    const me = await t.call({ method: 'GET', url: '/api/me', token: tokenOf(owner) });
    expect(json(me)).toMatchObject({ data: { role: 'company_customer', companyId: null, emailVerified: true } });

    // What the owner saves from now on is theirs: the bakery reads nothing of the account.
    const saved = await t.call({
      method: 'PATCH',
      url: '/api/me',
      token: tokenOf(owner),
      payload: { phone: '300 555 0101', addresses: [{ line: 'Carrera 7 # 12-34' }] },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await readAs(squatter, id)).statusCode).toBe(404);
    const list = await t.call({
      method: 'GET',
      url: `/api/companies/${squatter.companyId}/users`,
      token: squatter.token,
    });
    expect(list.body).not.toContain('victima@ejemplo.co');
    expect(list.body).not.toContain('300 555 0101');
    // Nor may it change the account any more.
    const patch = await t.call({
      method: 'PATCH',
      url: `/api/companies/${squatter.companyId}/users/${id}`,
      token: squatter.token,
      payload: { role: 'company_staff' },
    });
    expect(patch.statusCode).toBe(404);
  });

  it("is the owner's after the verification link too, and the creator's password stops opening it", async () => {
    const squatter = await bakery('acaparadora-dos@ejemplo.co');
    const id = await createFor(squatter, 'victima-dos@ejemplo.co');
    const verified = await ownerVerifies('victima-dos@ejemplo.co');
    expect(verified.statusCode, verified.body).toBe(200);
    expect((await signIn('victima-dos@ejemplo.co')).statusCode).toBe(401);
    expect((await readAs(squatter, id)).statusCode).toBe(404);
    // The owner gets in by the reset path.
    expect((await ownerResets('victima-dos@ejemplo.co')).statusCode).toBe(200);
    const me = await t.call({
      method: 'GET',
      url: '/api/me',
      token: tokenOf(await signIn('victima-dos@ejemplo.co', OWNER_PASSWORD)),
    });
    expect(json(me)).toMatchObject({ data: { companyId: null, role: 'company_customer' } });
  });

  it('a bakery disabling the account it made does not keep its owner out', async () => {
    const squatter = await bakery('acaparadora-tres@ejemplo.co');
    const id = await createFor(squatter, 'victima-tres@ejemplo.co');
    const off = await t.call({
      method: 'PATCH',
      url: `/api/companies/${squatter.companyId}/users/${id}`,
      token: squatter.token,
      payload: { disabled: true },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect((await ownerResets('victima-tres@ejemplo.co')).statusCode).toBe(200);
    const owner = await signIn('victima-tres@ejemplo.co', OWNER_PASSWORD);
    expect(owner.statusCode, owner.body).toBe(200);
    expect(json(await t.call({ method: 'GET', url: '/api/me', token: tokenOf(owner) }))).toMatchObject({
      data: { companyId: null, disabled: false },
    });
  });

  it('a bakery deleting the account it made frees the address for its owner', async () => {
    const squatter = await bakery('acaparadora-cinco@ejemplo.co');
    const id = await createFor(squatter, 'victima-cinco@ejemplo.co');
    const gone = await t.call({
      method: 'DELETE',
      url: `/api/companies/${squatter.companyId}/users/${id}`,
      token: squatter.token,
    });
    expect(gone.statusCode, gone.body).toBe(200);
    const own = await t.call({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: 'victima-cinco@ejemplo.co', password: OWNER_PASSWORD, name: 'Dueña', role: 'company_admin' },
    });
    expect(own.statusCode, own.body).toBe(201);
    expect((await signIn('victima-cinco@ejemplo.co', OWNER_PASSWORD)).statusCode).toBe(200);
  });

  it('stays in the bakery when its owner accepts: the proof with accept, or an invitation', async () => {
    const boss = await bakery('jefa-legitima@ejemplo.co');
    const id = await createFor(boss, 'cajera@ejemplo.co', 'company_staff');
    const verified = await ownerVerifies('cajera@ejemplo.co', { accept: true });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(json(await readAs(boss, id))).toMatchObject({
      data: { companyId: boss.companyId, role: 'company_staff', emailVerified: true },
    });
    // Proven and accepted: a later reset changes only the password.
    expect((await ownerResets('cajera@ejemplo.co')).statusCode).toBe(200);
    expect(json(await readAs(boss, id))).toMatchObject({ data: { role: 'company_staff' } });

    const invited = await t.call({
      method: 'POST',
      url: `/api/companies/${boss.companyId}/users`,
      token: boss.token,
      payload: { email: 'panadero@ejemplo.co', name: 'Panadero', role: 'production_assistant', invite: true },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const mail = await waitForMail(t, root, 'panadero@ejemplo.co', /invita/, seen);
    const accepted = await t.call({
      method: 'POST',
      url: '/api/identity/password-reset/confirm',
      payload: { token: tokenIn(mail.text, '/restablecer-contrasena'), password: OWNER_PASSWORD },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const invitedId = json<{ data: { id: string } }>(invited).data.id;
    expect(json(await readAs(boss, invitedId))).toMatchObject({ data: { role: 'production_assistant' } });
  });

  it("tells the link's page which bakery made the account, so it asks before the proof", async () => {
    const boss = await bakery('panaderia-que-pregunta@ejemplo.co');
    await createFor(boss, 'pregunta@ejemplo.co', 'company_staff');
    const info = (token: string) => t.call({ method: 'POST', url: '/api/identity/link-info', payload: { token } });

    const asked = await t.call({
      method: 'POST',
      url: '/api/identity/password-reset',
      payload: { email: 'pregunta@ejemplo.co' },
    });
    expect(asked.statusCode).toBe(200);
    const reset = tokenIn(
      (await waitForMail(t, root, 'pregunta@ejemplo.co', /contraseña/, seen)).text,
      '/restablecer-contrasena',
    );
    const res = await info(reset);
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toEqual({
      data: {
        madeBy: { bakery: 'Panadería panaderia-que-pregunta@ejemplo.co', role: 'company_staff' },
        invitation: null,
        platform: false,
      },
    });
    // Asking spends nothing: the link still sets the password, and `accept: false` takes the account out.
    const confirmed = await t.call({
      method: 'POST',
      url: '/api/identity/password-reset/confirm',
      payload: { token: reset, password: OWNER_PASSWORD, accept: false },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const me = await t.call({
      method: 'GET',
      url: '/api/me',
      token: tokenOf(await signIn('pregunta@ejemplo.co', OWNER_PASSWORD)),
    });
    expect(json(me)).toMatchObject({ data: { companyId: null } });

    // Nothing to ask for one's own account, nor for a link that is not one.
    await ownerResets('panaderia-que-pregunta@ejemplo.co');
    const own = tokenIn(
      (await outboxOf(t, root)).find(
        (m) => m.to === 'panaderia-que-pregunta@ejemplo.co' && /contraseña/.test(m.subject),
      )!.text,
      '/restablecer-contrasena',
    );
    expect(json(await info(own))).toEqual({ data: { madeBy: null, invitation: null, platform: true } });
    expect(json(await info('nada.de-nada'))).toEqual({ data: { madeBy: null, invitation: null, platform: false } });
    expect((await info('')).statusCode).toBe(400);
  });

  it('keeps the answer of /password-reset the same whoever made the account', async () => {
    const squatter = await bakery('acaparadora-cuatro@ejemplo.co');
    await createFor(squatter, 'victima-cuatro@ejemplo.co');
    const made = await t.call({
      method: 'POST',
      url: '/api/identity/password-reset',
      payload: { email: 'victima-cuatro@ejemplo.co' },
    });
    const own = await t.call({
      method: 'POST',
      url: '/api/identity/password-reset',
      payload: { email: 'acaparadora-cuatro@ejemplo.co' },
    });
    expect(made.statusCode).toBe(own.statusCode);
    expect(made.body).toBe(own.body);
  });
});
