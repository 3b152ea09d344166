/**
 * Acting as a bakery needs a verified e-mail: an account whose e-mail was never
 * verified creates no bakery, no users (by either path that creates them) and uploads no file, with a
 * 403 `auth/email-not-verified`; once verified through the mailed link, it does. The verification mail
 * to an unproven address carries nothing the registrant wrote.
 */
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema';
import { identityCalls, json, setupTestApp, type TestApp } from '../helpers/app';
import { tokenIn, waitForMail } from '../helpers/mail';

const PASSWORD = 'pan-de-bono-tibio';
let t: TestApp;
let root: string;
let calls: ReturnType<typeof identityCalls>;
const seen = new Set<string>();

beforeAll(async () => {
  t = await setupTestApp({ env: { RATE_LIMIT_SIGNIN_ADDRESS: '100000', RATE_LIMIT_REGISTER_ADDRESS: '100000' } });
  root = (await t.user('system_admin', null)).token;
  calls = identityCalls(t, PASSWORD);
});
afterAll(async () => {
  await t?.close();
});

async function verifyThroughMail(email: string) {
  const mail = await waitForMail(t, root, email, /Confirma/, seen);
  const res = await t.call({
    method: 'POST',
    url: '/api/identity/verify-email',
    payload: { token: tokenIn(mail.text, '/verificar-correo') },
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function pngUpload(companyId: string, token: string) {
  const image = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 1, g: 2, b: 3 } } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'foto.png');
  const req = new Request('http://local/', { method: 'POST', body: form });
  return t.call({
    method: 'POST',
    url: `/api/companies/${companyId}/files`,
    token,
    payload: Buffer.from(await req.arrayBuffer()),
    headers: { 'content-type': req.headers.get('content-type')! },
  });
}

const refused = (res: { statusCode: number; body: string }) => {
  expect(res.statusCode, res.body).toBe(403);
  expect(json(res).code).toBe('auth/email-not-verified');
};

describe('a verified e-mail to act as a bakery', () => {
  it('creates a bakery only after the e-mail is verified', async () => {
    const email = 'sin-verificar@ejemplo.co';
    expect((await calls.registerAdmin(email)).statusCode).toBe(201);
    const create = async () =>
      t.call({
        method: 'POST',
        url: '/api/companies',
        token: await calls.tokenOf(email),
        payload: { name: 'Panadería Dudosa' },
      });
    refused(await create());
    await verifyThroughMail(email);
    expect((await create()).statusCode).toBe(201);
  });

  it('creates users and uploads files only with a verified e-mail', async () => {
    const companyId = await t.company('Panadería con dueño sin verificar');
    const admin = await t.user('company_admin', companyId);
    await t.db.update(users).set({ emailVerified: false }).where(eq(users.id, admin.uid));
    const customer = { email: 'victima@ejemplo.co', password: PASSWORD, name: 'Cliente', role: 'company_customer' };
    refused(
      await t.call({ method: 'POST', url: `/api/companies/${companyId}/users`, token: admin.token, payload: customer }),
    );
    refused(
      await t.call({
        method: 'POST',
        url: '/api/auth/register',
        token: admin.token,
        payload: { ...customer, companyId },
      }),
    );
    refused(await pngUpload(companyId, admin.token));
    const [none] = await t.db.select().from(users).where(eq(users.email, customer.email));
    expect(none).toBeUndefined();

    await t.db.update(users).set({ emailVerified: true }).where(eq(users.id, admin.uid));
    const made = await t.call({
      method: 'POST',
      url: `/api/companies/${companyId}/users`,
      token: admin.token,
      payload: customer,
    });
    expect(made.statusCode, made.body).toBe(201);
    expect((await pngUpload(companyId, admin.token)).statusCode).toBe(201);
  });

  it("greets generically: the registrant's name is not in the verification mail", async () => {
    const email = 'phishing@ejemplo.co';
    const name = 'Su cuenta fue bloqueada, llame al 300 000 0000';
    expect((await calls.registerAdmin(email, PASSWORD, name)).statusCode).toBe(201);
    const mail = await waitForMail(t, root, email, /Confirma/, seen);
    expect(mail.text.startsWith('Hola:')).toBe(true);
    for (const body of [mail.subject, mail.text, mail.html]) {
      expect(body).not.toContain('bloqueada');
      expect(body).not.toContain('300 000 0000');
    }
  });
});
