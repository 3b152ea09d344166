/**
 * Shopper accounts: POST /api/identity/shoppers makes a company_customer of the storefront's
 * bakery, its name title-cased, its e-mail not yet verified, and mails the verification link; an address
 * in use, a weak password and a bad body are refused in the usual shapes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '@hornada/domain';
import { json, type TestApp, type TestUser } from '../helpers/app';
import { PASSWORD } from '../helpers/identity';
import { tokenIn, waitForMail } from '../helpers/mail';
import { ordersCalls, setupOrdersApp, type OrdersApp } from '../helpers/orders';

let o: OrdersApp;
let t: TestApp;
let root: TestUser;
let market: string;
const { cart, checkout, checkoutBody } = ordersCalls(() => o);

beforeAll(async () => {
  o = await setupOrdersApp();
  t = o.t;
  root = await t.user('system_admin', null);
  // The first bakery is the storefront's when MARKET_COMPANY_ID is not set (app.ts).
  market = o.companyId;
});
afterAll(() => o?.t.close());

const signUp = (payload: Record<string, unknown>) => t.call({ method: 'POST', url: '/api/identity/shoppers', payload });

describe('a shopper makes their own account', () => {
  it("is a customer of the shop's bakery, mailed a link that verifies the e-mail; then its guest orders join it", async () => {
    // A guest order placed earlier with that e-mail (written otherwise).
    const c = await cart([{ productId: o.pan, quantity: 4 }]);
    const placed = await checkout(
      c,
      checkoutBody({ contact: { name: 'Paula', phone: '300 555 0111', email: 'PAULA@cliente.test' } }),
    );
    expect(placed.statusCode, placed.body).toBe(201);
    const guestOrder = json<{ data: Order }>(placed).data;
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
    const token = json<{ data: { idToken: string } }>(signIn).data.idToken;
    const mine = await t.call({ method: 'GET', url: `/api/companies/${market}/orders`, token });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(json<{ data: Order[] }>(mine).data.map((x) => x.id)).toEqual([guestOrder.id]);
  });

  it('refuses an address in use, a weak password and a body with other fields', async () => {
    expect((await signUp({ email: 'paula@cliente.test', password: PASSWORD, name: 'Otra' })).statusCode).toBe(409);
    expect((await signUp({ email: 'nueva@cliente.test', password: '123', name: 'Nueva' })).statusCode).toBe(400);
    const other = await signUp({ email: 'x@cliente.test', password: PASSWORD, name: 'X', role: 'company_admin' });
    expect(other.statusCode).toBe(400);
  });
});

describe('«crear mi cuenta» at checkout', () => {
  it('mails a guest a link to choose a password; once chosen, the order is in their account', async () => {
    const c = await cart([{ productId: o.pan, quantity: 4 }]);
    const res = await checkout(
      c,
      checkoutBody({
        contact: { name: 'luis fernando díaz', phone: '300 555 0199', email: 'luis@cliente.test' },
        createAccount: true,
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const order = json<{ data: Order }>(res).data;
    const mail = await waitForMail(t, root.token, 'luis@cliente.test', /te invita a crear tu contraseña/);
    const set = await t.call({
      method: 'POST',
      url: '/api/identity/password-reset/confirm',
      payload: { token: tokenIn(mail.text, '/restablecer-contrasena'), password: PASSWORD },
    });
    expect(set.statusCode, set.body).toBe(200);
    const signIn = await t.call({
      method: 'POST',
      url: '/api/identity/sign-in',
      payload: { email: 'luis@cliente.test', password: PASSWORD },
    });
    expect(signIn.statusCode, signIn.body).toBe(200);
    const { idToken, user } = json<{ data: { idToken: string; user: { name: string } } }>(signIn).data;
    expect(user.name).toBe('Luis Fernando Díaz');
    const mine = await t.call({ method: 'GET', url: `/api/companies/${market}/orders`, token: idToken });
    expect(json<{ data: Order[] }>(mine).data.map((x) => x.id)).toEqual([order.id]);

    // An address that already has an account gets no second one, and the answer does not say so.
    const again = await checkout(
      await cart([{ productId: o.pan, quantity: 4 }]),
      checkoutBody({
        contact: { name: 'Otro', phone: '300 555 0198', email: 'luis@cliente.test' },
        createAccount: true,
      }),
    );
    expect(again.statusCode, again.body).toBe(201);
  });
});
