/**
 * Order mail: the customer's confirmation (lines, total, day and window, transfer instructions,
 * the link to follow the order) and the news of its status (confirmed, out for delivery, delivered,
 * cancelled with the bakery's reason), signed with the ORDER's bakery, in Spanish as HTML and text, with
 * nothing a stranger chose in it; the bakery's notice of a new web order when its settings ask for it.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '@hornada/domain';
import { products } from '../../src/db/schema';
import { json, type TestUser } from '../helpers/app';
import { outboxOf, waitForMail } from '../helpers/mail';
import { ordersCalls, setupOrdersApp, WEDNESDAY, type OrdersApp } from '../helpers/orders';

let o: OrdersApp;
let root: TestUser;
const { cart, checkout, checkoutBody, patch, staffOrder } = ordersCalls(() => o);
const seen = new Set<string>();

beforeAll(async () => {
  o = await setupOrdersApp();
  root = await o.t.user('system_admin', null);
  // A product name with markup: the bakery's word, escaped in the HTML.
  await o.t.db.update(products).set({ name: 'Pan <b>campesino</b> & queso' }).where(eq(products.id, o.pan));
});
afterAll(() => o?.t.close());

async function guestOrder(email: string, extra: Record<string, unknown> = {}) {
  const c = await cart([{ productId: o.pan, quantity: 4 }]);
  const res = await checkout(
    c,
    checkoutBody({
      contact: { name: '<script>alert(1)</script> Visítanos en spam.example', phone: '300 555 0101', email },
      notes: 'Llama a spam.example',
      ...extra,
    }),
  );
  expect(res.statusCode, res.body).toBe(201);
  return json<{ data: Order & { accessToken: string } }>(res).data;
}

const mailTo = (to: string, subject: RegExp) => waitForMail(o.t, root.token, to, subject, seen);

describe('the confirmation of an order placed', () => {
  it("says what was ordered, when, how to pay by transfer, and where to follow it, signed by the order's bakery", async () => {
    const order = await guestOrder('lucia@cliente.test', { paymentMethod: 'transfer' });
    const mail = await mailTo(
      'lucia@cliente.test',
      new RegExp(`^Recibimos tu pedido #${order.number} · Panadería Uno$`),
    );
    expect(mail.text).toContain('4 × Pan <b>campesino</b> & queso: $10,000');
    expect(mail.text).toContain('Total: $15,000');
    expect(mail.text).toContain('Lo entregamos el miércoles 25 de nov. · En la mañana (7:00–10:00).');
    expect(mail.text).toContain('Bancolombia ahorros 123-456789-00');
    expect(mail.text).toContain(`Escribe el número #${order.number} en la referencia del pago.`);
    expect(mail.text).toContain(`/respuesta-de-pago?pedido=${encodeURIComponent(order.accessToken)}`);
    expect(mail.text).toMatch(/Panadería Uno$/);
    // HTML and text; the bakery's markup escaped; nothing the stranger typed (name, notes) anywhere.
    expect(mail.html).toContain('Pan &lt;b&gt;campesino&lt;/b&gt; &amp; queso');
    expect(mail.html).not.toContain('<b>campesino');
    // A bakery without a logo: its name heads the mail, and no picture (never a broken one).
    expect(mail.html).not.toContain('<img');
    for (const body of [mail.text, mail.html, mail.subject]) {
      expect(body).not.toContain('spam.example');
      expect(body).not.toContain('script');
    }
  });

  it("goes to a signed-in customer's account when the contact gives no e-mail", async () => {
    const c = await cart([{ productId: o.pan, quantity: 4 }], undefined, o.customer.token);
    const res = await checkout(c, checkoutBody(), undefined, o.customer.token);
    expect(res.statusCode, res.body).toBe(201);
    const number = json<{ data: Order }>(res).data.number;
    await mailTo(o.customer.email, new RegExp(`^Recibimos tu pedido #${number} `));
  });

  it('is not sent for an order with no address to write to', async () => {
    const before = (await outboxOf(o.t, root.token)).length;
    await staffOrder({ contact: { name: 'Sin correo', phone: '300 000 0000' } });
    await new Promise((r) => setTimeout(r, 300));
    expect((await outboxOf(o.t, root.token)).length).toBe(before);
  });
});

describe('the news of its status', () => {
  it('confirmed, out for delivery ("va en camino"), delivered', async () => {
    const order = await guestOrder('mario@cliente.test');
    await mailTo('mario@cliente.test', /^Recibimos tu pedido/);
    let res = await patch(order.id, o.staff, { status: 'confirmed' });
    expect(res.statusCode, res.body).toBe(200);
    const confirmed = await mailTo('mario@cliente.test', new RegExp(`^Tu pedido #${order.number} está confirmado`));
    expect(confirmed.text).toContain('Lo entregamos el miércoles 25 de nov.');
    for (const status of ['in_production', 'ready']) {
      res = await patch(order.id, o.staff, { status });
      expect(res.statusCode, res.body).toBe(200);
    }
    res = await patch(order.id, o.staff, { deliveryAssistantId: o.driver.uid });
    expect(res.statusCode, res.body).toBe(200);
    res = await patch(order.id, o.driver, { status: 'out_for_delivery' });
    expect(res.statusCode, res.body).toBe(200);
    const onTheWay = await mailTo('mario@cliente.test', new RegExp(`^Tu pedido #${order.number} va en camino`));
    expect(onTheWay.html).toContain('va en camino');
    res = await patch(order.id, o.driver, { status: 'delivered' });
    expect(res.statusCode, res.body).toBe(200);
    await mailTo('mario@cliente.test', new RegExp(`^Tu pedido #${order.number} fue entregado`));
  });

  it("cancelled by the bakery, with its reason; the customer's own reason is not mailed back", async () => {
    const order = await guestOrder('ana@cliente.test');
    const res = await patch(order.id, o.staff, { status: 'cancelled', cancelReason: 'Se nos acabó el <horno>' });
    expect(res.statusCode, res.body).toBe(200);
    const mail = await mailTo('ana@cliente.test', new RegExp(`^Tu pedido #${order.number} fue cancelado`));
    expect(mail.text).toContain('Motivo: Se nos acabó el <horno>');
    expect(mail.html).toContain('Motivo: Se nos acabó el &lt;horno&gt;');

    const c = await cart([{ productId: o.pan, quantity: 4 }], undefined, o.customer.token);
    const placed = await checkout(c, checkoutBody({ dueDate: WEDNESDAY }), undefined, o.customer.token);
    const own = json<{ data: Order }>(placed).data;
    await mailTo(o.customer.email, new RegExp(`^Recibimos tu pedido #${own.number} `));
    const cancel = await patch(own.id, o.customer, { status: 'cancelled', cancelReason: 'visita spam.example' });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const told = await mailTo(o.customer.email, new RegExp(`^Tu pedido #${own.number} fue cancelado`));
    expect(told.text).not.toContain('spam.example');
  });
});

describe("the bakery's notice of a new web order", () => {
  it('is mailed to the address its settings give, and only then', async () => {
    const before = await outboxOf(o.t, root.token);
    await guestOrder('sin-aviso@cliente.test');
    await mailTo('sin-aviso@cliente.test', /^Recibimos tu pedido/);
    expect((await outboxOf(o.t, root.token)).filter((m) => /^Nuevo pedido/.test(m.subject)).length).toBe(
      before.filter((m) => /^Nuevo pedido/.test(m.subject)).length,
    );

    const set = await o.t.call({
      method: 'PATCH',
      url: `/api/companies/${o.companyId}/settings`,
      token: o.admin.token,
      payload: { newOrderEmail: 'pedidos@panaderia-uno.test' },
    });
    expect(set.statusCode, set.body).toBe(200);
    // Not public: a guest never reads where the bakery's mail goes.
    const open = await o.t.call({ method: 'GET', url: `/api/companies/${o.companyId}/settings` });
    expect(json<{ data: Record<string, unknown> }>(open).data).not.toHaveProperty('newOrderEmail');

    const order = await guestOrder('con-aviso@cliente.test');
    const notice = await mailTo(
      'pedidos@panaderia-uno.test',
      new RegExp(`^Nuevo pedido #${order.number} · Panadería Uno$`),
    );
    expect(notice.text).toContain('300 555 0101');
    expect(notice.html).toContain('&lt;script&gt;');
    expect(notice.html).not.toContain('<script>');
  });
});

describe('staff edit a placed order (a customer phones to add two pandebonos)', () => {
  it('re-priced by the server, in its history, the customer mailed; a paid order that grows says what it owes', async () => {
    const order = await guestOrder('edita@cliente.test');
    await mailTo('edita@cliente.test', /^Recibimos tu pedido/);
    let res = await patch(order.id, o.staff, { paymentStatus: 'paid' });
    expect(res.statusCode, res.body).toBe(200);
    // Prices sent by a client are never read: the line comes priced from the catalogue.
    res = await patch(order.id, o.staff, {
      items: [
        { productId: o.pan, quantity: 4 },
        { productId: o.galleta, quantity: 2, unitPrice: 1 },
      ],
    });
    expect(res.statusCode, res.body).toBe(400);
    res = await patch(order.id, o.staff, {
      items: [
        { productId: o.pan, quantity: 4 },
        { productId: o.galleta, quantity: 2 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const edited = json<{ data: Order }>(res).data;
    expect(edited.total).toBe(15_000 + 2_010);
    expect(edited.history.filter((h) => h.field === 'items' || h.field === 'total').map((h) => h.field)).toEqual([
      'items',
      'total',
    ]);
    const mail = await mailTo(
      'edita@cliente.test',
      new RegExp(`^Actualizamos tu pedido #${order.number} · Panadería Uno$`),
    );
    expect(mail.text).toContain('2 × Galleta de avena: $2,010');
    expect(mail.text).toContain('Total: $17,010');
    expect(mail.text).toContain('queda por pagar la diferencia: $2,010');
  });

  it('is refused once the order is in production', async () => {
    const order = await guestOrder('tarde@cliente.test');
    for (const status of ['confirmed', 'in_production']) {
      const res = await patch(order.id, o.staff, { status });
      expect(res.statusCode, res.body).toBe(200);
    }
    const res = await patch(order.id, o.staff, { items: [{ productId: o.pan, quantity: 9 }] });
    expect(res.statusCode, res.body).toBe(422);
    expect(json<{ code: string }>(res).code).toBe('orders/locked');
  });
});

describe("the bakery's logo", () => {
  it("heads its mail as an absolute URL on the bakery's shop, its name the alt text; the text part unchanged", async () => {
    const logo = { path: `${o.companyId}/logo uno.webp`, alt: 'Un horno' };
    const set = await o.t.call({
      method: 'PATCH',
      url: `/api/companies/${o.companyId}/settings`,
      token: o.admin.token,
      payload: { logo },
    });
    expect(set.statusCode, set.body).toBe(200);
    try {
      const order = await guestOrder('logo@cliente.test');
      const mail = await mailTo('logo@cliente.test', new RegExp(`^Recibimos tu pedido #${order.number} `));
      // The shop's origin, as the mail's own link to the order gives it.
      const origin = /Ver tu pedido: (https?:\/\/[^/\s]+)\//.exec(mail.text)?.[1];
      expect(origin).toBeTruthy();
      expect(mail.html).toContain(
        `<img src="${origin}/files/${o.companyId}/logo%20uno.webp" alt="Panadería Uno" height="56"`,
      );
      expect(mail.text).not.toContain('/files/');
      expect(mail.text).not.toContain('logo');

      // The bakery's notice of a new order is headed by it too.
      const notice = await o.t.call({
        method: 'PATCH',
        url: `/api/companies/${o.companyId}/settings`,
        token: o.admin.token,
        payload: { newOrderEmail: 'pedidos-logo@panaderia-uno.test' },
      });
      expect(notice.statusCode, notice.body).toBe(200);
      const next = await guestOrder('logo2@cliente.test');
      const told = await mailTo('pedidos-logo@panaderia-uno.test', new RegExp(`^Nuevo pedido #${next.number} `));
      expect(told.html).toContain(`<img src="${origin}/files/${o.companyId}/logo%20uno.webp" alt="Panadería Uno"`);
    } finally {
      await o.t.call({
        method: 'PATCH',
        url: `/api/companies/${o.companyId}/settings`,
        token: o.admin.token,
        payload: { logo: null },
      });
    }
  });
});
