/**
 * Shopper accounts (issue 29): POST /api/identity/shoppers makes a company_customer of the storefront's
 * bakery, its name title-cased, its e-mail not yet verified, and mails the verification link; an address
 * in use, a weak password and a bad body are refused in the usual shapes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, type TestApp, type TestUser } from '../helpers/app';
import { PASSWORD, setupIdentityApp } from '../helpers/identity';
import { closeListeningApp } from '../helpers/live';
import { tokenIn, waitForMail } from '../helpers/mail';

let t: TestApp;
let root: TestUser;
let market: string;

beforeAll(async () => {
  t = await setupIdentityApp();
  root = await t.user('system_admin', null);
  // The first bakery is the storefront's when MARKET_COMPANY_ID is not set (app.ts).
  market = await t.company('Panadería Uno');
});
afterAll(() => closeListeningApp(t));

const signUp = (payload: Record<string, unknown>) => t.call({ method: 'POST', url: '/api/identity/shoppers', payload });

describe('a shopper makes their own account', () => {
  it("is a customer of the shop's bakery, mailed a link that verifies the e-mail", async () => {
    expect(market).toBeTruthy();
    const res = await signUp({ email: 'Paula@Cliente.test', password: PASSWORD, name: 'paula andrea gómez' });
    expect(res.statusCode, res.body).toBe(201);
    const user = json<{ data: { user: { uid: string; role: string; companyId: string; name: string } } }>(res).data
      .user;
    expect(user).toMatchObject({ role: 'company_customer', companyId: market, name: 'Paula Andrea Gómez' });
    const mail = await waitForMail(t, root.token, 'paula@cliente.test', /^Confirma tu correo/);
    const verified = await t.call({
      method: 'POST',
      url: '/api/identity/verify-email',
      payload: { token: tokenIn(mail.text, '/verificar-correo') },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const signIn = await t.call({
      method: 'POST',
      url: '/api/identity/sign-in',
      payload: { email: 'paula@cliente.test', password: PASSWORD },
    });
    expect(signIn.statusCode, signIn.body).toBe(200);
    expect(json<{ data: { user: { emailVerified: boolean } } }>(signIn).data.user.emailVerified).toBe(true);
  });

  it('refuses an address in use, a weak password and a body with other fields', async () => {
    expect((await signUp({ email: 'paula@cliente.test', password: PASSWORD, name: 'Otra' })).statusCode).toBe(409);
    expect((await signUp({ email: 'nueva@cliente.test', password: '123', name: 'Nueva' })).statusCode).toBe(400);
    const other = await signUp({ email: 'x@cliente.test', password: PASSWORD, name: 'X', role: 'company_admin' });
    expect(other.statusCode).toBe(400);
  });
});
