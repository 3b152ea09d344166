/**
 * Who speaks in account mail: an owner signing up to create a bakery hears from Hornada,
 * never from the market's bakery; an invitation speaks as the bakery that invited, and its link's page is told
 * so (link-info); a shopper at a bakery's shop hears from that bakery, on its host.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityCalls, json, setupTestApp, type TestApp, type TestUser } from '../helpers/app';
import { PASSWORD } from '../helpers/identity';
import { outboxOf, tokenIn, waitForMail } from '../helpers/mail';

const MARKET = 'tienda.test';
const CARLOS = 'horno-de-carlos.tienda.test';
const MARKET_NAME = 'Panadería del Mercado';

let t: TestApp;
let root: TestUser;
let carlos: { companyId: string; token: string };

beforeAll(async () => {
  t = await setupTestApp({
    env: { PUBLIC_URL: `http://${MARKET}`, RATE_LIMIT_SIGNIN_ADDRESS: '100000', RATE_LIMIT_REGISTER_ADDRESS: '100000' },
  });
  root = await t.user('system_admin', null);
  // The first company is the market (no MARKET_COMPANY_ID, no demo): the voice the old mails borrowed.
  const market = await t.company(MARKET_NAME);
  const marketAdmin = await t.user('company_admin', market);
  const named = await t.call({
    method: 'PATCH',
    url: `/api/companies/${market}/settings`,
    token: marketAdmin.token,
    payload: { marketName: MARKET_NAME },
  });
  expect(named.statusCode, named.body).toBe(200);
  carlos = await identityCalls(t, PASSWORD).bakery('carlos@horno.co', { name: 'Horno de Carlos' });
});
afterAll(() => t?.close());

const linkInfo = (token: string) => t.call({ method: 'POST', url: '/api/identity/link-info', payload: { token } });

/** The text's last line: the mail's signature. */
const signature = (text: string) => text.trimEnd().split('\n').at(-1);

describe('the voice of account mail', () => {
  it("speaks as Hornada in the verification of an owner's sign-up, signed by it, on the platform's host", async () => {
    const reg = await identityCalls(t, PASSWORD).registerAdmin('duena.nueva@horno.co');
    expect(reg.statusCode, reg.body).toBe(201);
    const mail = await waitForMail(t, root.token, 'duena.nueva@horno.co', /./);
    expect(mail.subject).toBe('Confirma tu correo en Hornada');
    expect(signature(mail.text)).toBe('Hornada');
    expect(mail.html).toContain('<h1 style="font-size:20px">Hornada</h1>');
    expect(mail.text + mail.html).not.toContain(MARKET_NAME);
    expect(mail.text).toContain(`http://${MARKET}/verificar-correo?token=`);
    // Its page speaks as Hornada too.
    expect(json(await linkInfo(tokenIn(mail.text, '/verificar-correo')))).toEqual({
      data: { madeBy: null, invitation: null, platform: true },
    });
  });

  it("speaks as Hornada to a bakery's owner who forgot her password", async () => {
    const asked = await t.call({
      method: 'POST',
      url: '/api/identity/password-reset',
      payload: { email: 'carlos@horno.co' },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const mail = await waitForMail(t, root.token, 'carlos@horno.co', /contraseña/);
    expect(mail.subject).toBe('Restablece tu contraseña de Hornada');
    expect(mail.text + mail.html).not.toContain(MARKET_NAME);
    expect(json(await linkInfo(tokenIn(mail.text, '/restablecer-contrasena')))).toMatchObject({
      data: { platform: true },
    });
  });

  it('speaks as the bakery that invited, as an invitation, and tells the link’s page that bakery', async () => {
    const res = await t.call({
      method: 'POST',
      url: `/api/companies/${carlos.companyId}/users`,
      token: carlos.token,
      payload: { email: 'panadera@horno.co', name: 'Panadera', role: 'company_staff', invite: true },
    });
    expect(res.statusCode, res.body).toBe(201);
    const mail = await waitForMail(t, root.token, 'panadera@horno.co', /./);
    expect(mail.subject).toBe('Horno de Carlos te invita a crear tu contraseña');
    expect(mail.text).toContain('Crear mi contraseña: ');
    expect(signature(mail.text)).toBe('Horno de Carlos');
    expect(mail.text + mail.html).not.toMatch(new RegExp(`${MARKET_NAME}|Restablece`));

    const token = tokenIn(mail.text, '/restablecer-contrasena');
    const info = await linkInfo(token);
    expect(info.statusCode, info.body).toBe(200);
    expect(json(info)).toEqual({ data: { madeBy: null, invitation: { bakery: 'Horno de Carlos' }, platform: false } });
    // A recovery link of the same account, still unaccepted, is no invitation: its page asks whether to stay.
    const asked = await t.call({
      method: 'POST',
      url: '/api/identity/password-reset',
      payload: { email: 'panadera@horno.co' },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const reset = await waitForMail(t, root.token, 'panadera@horno.co', /^Restablece/);
    expect(reset.subject).toBe('Restablece tu contraseña de Horno de Carlos');
    const resetInfo = await linkInfo(tokenIn(reset.text, '/restablecer-contrasena'));
    expect(json(resetInfo)).toEqual({
      data: { madeBy: { bakery: 'Horno de Carlos', role: 'company_staff' }, invitation: null, platform: false },
    });
  });

  it("speaks as the bakery in the verification of a shopper who signed up at its shop, on the shop's host", async () => {
    const res = await t.call({
      method: 'POST',
      url: '/api/identity/shoppers',
      headers: { host: CARLOS },
      payload: { email: 'compradora@cliente.co', password: PASSWORD, name: 'Compradora' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const mail = await waitForMail(t, root.token, 'compradora@cliente.co', /./);
    expect(mail.subject).toBe('Confirma tu correo en Horno de Carlos');
    expect(signature(mail.text)).toBe('Horno de Carlos');
    expect(mail.text).not.toContain('Hornada');
    expect(mail.text).toContain(`http://${CARLOS}/verificar-correo?token=`);
    expect(json(await linkInfo(tokenIn(mail.text, '/verificar-correo')))).toEqual({
      data: { madeBy: null, invitation: null, platform: false },
    });
  });
});

describe("the bakery's logo in account mail", () => {
  it("heads a bakery's mail to its shopper, on its shop's host; Hornada's mail to the owner has none", async () => {
    const logo = { path: `${carlos.companyId}/logo-carlos.webp`, alt: 'Un horno' };
    const saved = await t.call({
      method: 'PATCH',
      url: `/api/companies/${carlos.companyId}/settings`,
      token: carlos.token,
      payload: { logo },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const res = await t.call({
      method: 'POST',
      url: '/api/identity/shoppers',
      headers: { host: CARLOS },
      payload: { email: 'con-logo@cliente.co', password: PASSWORD, name: 'Con Logo' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const mail = await waitForMail(t, root.token, 'con-logo@cliente.co', /./);
    expect(mail.html).toContain(`<img src="http://${CARLOS}/files/${logo.path}" alt="Horno de Carlos"`);
    expect(mail.html).toContain('<h1 style="font-size:20px">Horno de Carlos</h1>');
    expect(mail.text).not.toContain('/files/');

    // The owner hears from Hornada: its name, never her bakery's logo.
    const earlier = new Set((await outboxOf(t, root.token)).map((m) => m.id));
    const asked = await t.call({
      method: 'POST',
      url: '/api/identity/password-reset',
      payload: { email: 'carlos@horno.co' },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const reset = await waitForMail(t, root.token, 'carlos@horno.co', /contraseña/, earlier);
    expect(reset.subject).toBe('Restablece tu contraseña de Hornada');
    expect(reset.html).not.toContain('<img');
  });

  it('has no picture for a bakery without a logo', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/api/identity/shoppers',
      headers: { host: MARKET },
      payload: { email: 'sin-logo@cliente.co', password: PASSWORD, name: 'Sin Logo' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const mail = await waitForMail(t, root.token, 'sin-logo@cliente.co', /./);
    expect(mail.subject).toBe(`Confirma tu correo en ${MARKET_NAME}`);
    expect(mail.html).not.toContain('<img');
  });
});
