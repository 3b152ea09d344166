/**
 * The order book (docs/design.md §5): every allowed status move by each role and a sample of
 * refused ones (422 naming the allowed), the payment axis, history (who and when), staff and B2B
 * pricing, and who reads what: a customer its own orders, a driver its assigned ones, another
 * company nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusMoves, type Order, type OrderStatus } from '@hornada/domain';
import { json, type TestUser } from '../helpers/app';
import { MONDAY_10AM, ordersCalls, setupOrdersApp, type OrdersApp } from '../helpers/orders';

let o: OrdersApp;
const { api, webOrder, staffOrder, postOrder, patch, get, b2bClient } = ordersCalls(() => o);
const orderOf = (res: { body: string }) => json<{ data: Order }>(res).data;

beforeAll(async () => {
  o = await setupOrdersApp();
});
afterAll(async () => {
  await o?.t.close();
});

/** Walks an order from pending to `status` as the admin (cancelReason given when cancelling). */
async function orderAt(status: OrderStatus, fulfillment: 'delivery' | 'pickup' = 'delivery') {
  const order = await staffOrder(
    fulfillment === 'pickup'
      ? { fulfillment, address: null, deliveryAssistantId: o.driver.uid }
      : { deliveryAssistantId: o.driver.uid },
  );
  const path: Record<OrderStatus, OrderStatus[]> = {
    pending: [],
    confirmed: ['confirmed'],
    in_production: ['confirmed', 'in_production'],
    ready: ['confirmed', 'in_production', 'ready'],
    out_for_delivery: ['confirmed', 'in_production', 'ready', 'out_for_delivery'],
    delivered:
      fulfillment === 'pickup'
        ? ['confirmed', 'in_production', 'ready', 'delivered']
        : ['confirmed', 'in_production', 'ready', 'out_for_delivery', 'delivered'],
    cancelled: ['cancelled'],
  };
  for (const s of path[status]) {
    const res = await patch(order.id, o.admin, { status: s, cancelReason: s === 'cancelled' ? 'Prueba' : undefined });
    expect(res.statusCode, res.body).toBe(200);
  }
  return order;
}

describe('status moves by role (docs/design.md §5)', () => {
  const roles = () =>
    ({
      company_admin: o.admin,
      company_staff: o.staff,
      production_assistant: o.production,
      delivery_assistant: o.driver,
    }) as Record<string, TestUser>;
  const allowed: Record<string, string[]> = {
    company_admin: ['*'],
    company_staff: ['*'],
    production_assistant: ['confirmed>in_production', 'in_production>ready'],
    delivery_assistant: ['ready>out_for_delivery', 'out_for_delivery>delivered', 'out_for_delivery>ready'],
  };
  /** The driver's "No recibió" is the one move the back office does not make. */
  const DRIVER_ONLY = ['out_for_delivery>ready'];

  for (const fulfillment of ['delivery', 'pickup'] as const) {
    it(`makes every allowed move and refuses the others with a 422 naming the allowed (${fulfillment})`, async () => {
      const moves = statusMoves(fulfillment);
      const failures: string[] = [];
      for (const [role, user] of Object.entries(roles())) {
        for (const m of moves) {
          const order = await orderAt(m.from, fulfillment);
          // Only the back office writes a reason; the assistants' refused cancellations send none.
          const reason = m.to === 'cancelled' && allowed[role]!.includes('*') ? 'Sin harina' : undefined;
          const move = `${m.from}>${m.to}`;
          // Only the driver writes why a stop failed; the others' refused moves send none.
          const notReceived =
            DRIVER_ONLY.includes(move) && role === 'delivery_assistant' ? { reason: 'refused' } : undefined;
          const res = await patch(order.id, user, { status: m.to, cancelReason: reason, notReceived });
          const may = (allowed[role]!.includes('*') && !DRIVER_ONLY.includes(move)) || allowed[role]!.includes(move);
          const want = may ? 200 : 422;
          if (res.statusCode !== want) failures.push(`${role} ${m.from}>${m.to}: ${res.statusCode} ${res.body}`);
          if (may) {
            const after = orderOf(res);
            const last = after.history.at(-1)!;
            if (
              after.status !== m.to ||
              last.field !== 'status' ||
              last.from !== m.from ||
              last.to !== m.to ||
              last.by.uid !== user.uid
            )
              failures.push(`${role} ${m.from}>${m.to}: history ${JSON.stringify(last)}`);
          } else if (!json<{ message: string }>(res).message.includes('allowed:')) {
            failures.push(`${role} ${m.from}>${m.to}: message ${res.body}`);
          }
        }
      }
      expect(failures).toEqual([]);
    });
  }

  it('lets a customer cancel its own pending order only, with a reason', async () => {
    const order = await staffOrder({ customerId: o.customer.uid });
    const noReason = await patch(order.id, o.customer, { status: 'cancelled' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.body).toContain('cancelReason');
    const confirm = await patch(order.id, o.customer, { status: 'confirmed' });
    expect(confirm.statusCode).toBe(422);
    expect(json(confirm)).toMatchObject({
      code: 'orders/invalid-transition',
      message: `Order #${order.number} cannot go from pending to confirmed; allowed: cancelled`,
    });
    expect((await patch(order.id, o.otherCustomer, { status: 'cancelled', cancelReason: 'x' })).statusCode).toBe(404);
    const cancelled = await patch(order.id, o.customer, { status: 'cancelled', cancelReason: 'Ya no lo necesito' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(orderOf(cancelled)).toMatchObject({ status: 'cancelled', cancelReason: 'Ya no lo necesito' });
    const confirmed = await staffOrder({ customerId: o.customer.uid });
    await patch(confirmed.id, o.staff, { status: 'confirmed' });
    const late = await patch(confirmed.id, o.customer, { status: 'cancelled', cancelReason: 'Tarde' });
    expect(late.statusCode).toBe(422);
    expect(json<{ message: string }>(late).message).toContain('allowed: none');
    // Anything else is not the customer's to write.
    expect((await patch(confirmed.id, o.customer, { notes: 'Sin azúcar' })).statusCode).toBe(403);
  });

  it('refuses moves the machine does not have, whoever asks', async () => {
    const delivered = await orderAt('delivered');
    const res = await patch(delivered.id, o.admin, { status: 'pending' });
    expect(res.statusCode).toBe(422);
    expect(json<{ message: string }>(res).message).toContain('allowed: none');
    const pickupReady = await orderAt('ready', 'pickup');
    const out = await patch(pickupReady.id, o.admin, { status: 'out_for_delivery' });
    expect(out.statusCode).toBe(422);
    expect(json<{ message: string }>(out).message).toContain('allowed: delivered');
  });

  it('stamps completedAt on delivery', async () => {
    const order = await orderAt('out_for_delivery');
    const res = await patch(order.id, o.driver, { status: 'delivered' });
    expect(orderOf(res).completedAt).toBe(MONDAY_10AM);
  });
});

describe('payment axis', () => {
  it('lets staff mark cash and transfer paid, the admin refund, nobody else', async () => {
    const order = await staffOrder({ paymentMethod: 'transfer', deliveryAssistantId: o.driver.uid });
    const byDriver = await patch(order.id, o.driver, { paymentStatus: 'paid' });
    expect(byDriver.statusCode).toBe(403);
    const refundUnpaid = await patch(order.id, o.admin, { paymentStatus: 'refunded' });
    expect(refundUnpaid.statusCode).toBe(422);
    expect(json(refundUnpaid)).toMatchObject({ code: 'orders/invalid-payment' });
    expect(json<{ message: string }>(refundUnpaid).message).toContain('allowed: paid');
    const paid = await patch(order.id, o.staff, { paymentStatus: 'paid' });
    expect(paid.statusCode).toBe(200);
    expect(orderOf(paid).history.at(-1)).toMatchObject({
      field: 'paymentStatus',
      from: 'unpaid',
      to: 'paid',
      by: { uid: o.staff.uid },
    });
    expect((await patch(order.id, o.staff, { paymentStatus: 'refunded' })).statusCode).toBe(422);
    expect(
      (await patch(order.id, o.admin, { paymentStatus: 'refunded', refundReason: 'Pedido devuelto' })).statusCode,
    ).toBe(200);
  });

  it('pays a cash order when its driver collects the total', async () => {
    const order = await orderAt('out_for_delivery');
    const res = await patch(order.id, o.driver, { status: 'delivered', cashCollected: order.total });
    expect(res.statusCode, res.body).toBe(200);
    const after = orderOf(res);
    expect(after.paymentStatus).toBe('paid');
    expect(after.history.slice(-3).map((h) => [h.field, h.to])).toEqual([
      ['status', 'delivered'],
      ['paymentStatus', 'paid'],
      ['cashCollected', order.total],
    ]);
  });

  it('keeps credit for B2B clients', async () => {
    const res = await postOrder(o.staff.token, {
      contact: { name: 'X', phone: '1' },
      items: [{ productId: o.pan, quantity: 1 }],
      fulfillment: 'pickup',
      dueDate: '2026-11-25',
      window: 'am',
      paymentMethod: 'credit',
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('paymentMethod');
  });
});

describe('history', () => {
  it('records changes of items, amount, day, window and driver with who and when', async () => {
    const order = await staffOrder();
    o.t.clock.advance(60_000);
    try {
      const res = await patch(order.id, o.staff, {
        items: [
          { productId: o.pan, quantity: 2 },
          { productId: o.galleta, quantity: 3 },
        ],
        dueDate: '2026-11-26',
        window: 'pm',
        deliveryAssistantId: o.driver.uid,
      });
      expect(res.statusCode, res.body).toBe(200);
      const after = orderOf(res);
      expect(after.items.map((l) => [l.name, l.unitPrice, l.lineTotal])).toEqual([
        ['Pan campesino', 2500, 5000],
        ['Galleta de avena', 1005, 3015],
      ]);
      expect([after.subtotal, after.deliveryFee, after.total]).toEqual([8015, 5000, 13_015]);
      expect(after.dueDate).toBe('2026-11-26T05:00:00.000Z');
      expect(after.preparationDate).toBe('2026-11-25T05:00:00.000Z');
      const at = new Date(Date.parse(MONDAY_10AM) + 60_000).toISOString();
      const fields = after.history.filter((h) => h.at === at).map((h) => [h.field, h.from, h.to, h.by.uid]);
      expect(fields).toEqual([
        ['deliveryAssistantId', null, o.driver.uid, o.staff.uid],
        ['dueDate', '2026-11-25', '2026-11-26', o.staff.uid],
        ['window', 'am', 'pm', o.staff.uid],
        [
          'items',
          [{ productId: o.pan, quantity: 2 }],
          [
            { productId: o.pan, quantity: 2 },
            { productId: o.galleta, quantity: 3 },
          ],
          o.staff.uid,
        ],
        ['total', 10_000, 13_015, o.staff.uid],
      ]);
    } finally {
      o.t.clock.set(MONDAY_10AM);
    }
  });

  it('keeps the price copied at ordering when the catalogue changes', async () => {
    const order = await staffOrder();
    const price = await o.t.call({
      method: 'PATCH',
      url: `/api/companies/${o.companyId}/products/${o.pan}`,
      token: o.admin.token,
      payload: { price: 9999 },
    });
    expect(price.statusCode).toBe(200);
    try {
      const res = await patch(order.id, o.staff, { items: [{ productId: o.pan, quantity: 5 }] });
      expect(orderOf(res).items[0]).toMatchObject({ unitPrice: 2500, lineTotal: 12_500 });
    } finally {
      await o.t.call({
        method: 'PATCH',
        url: `/api/companies/${o.companyId}/products/${o.pan}`,
        token: o.admin.token,
        payload: { price: 2500 },
      });
    }
  });

  it('locks lines and day once production starts, and never writes number, prices or history', async () => {
    const order = await orderAt('in_production');
    const res = await patch(order.id, o.staff, { items: [{ productId: o.pan, quantity: 9 }] });
    expect(res.statusCode).toBe(422);
    expect(json(res)).toMatchObject({ code: 'orders/locked' });
    const before = orderOf(await get(order.id, o.admin));
    // Read-only fields sent back are ignored (docs/design.md §3): they never change.
    for (const field of ['number', 'total', 'history']) {
      const r = await patch(order.id, o.admin, { [field]: field === 'history' ? [] : 1 });
      expect(r.statusCode, r.body).toBe(200);
    }
    const again = orderOf(await get(order.id, o.admin));
    expect([again.number, again.total, again.history]).toEqual([before.number, before.total, before.history]);
  });
});

describe('staff and B2B pricing', () => {
  it("prices a B2B order by the client's own price, else b2bPrice, else the discount (half up)", async () => {
    const client = await b2bClient({
      businessName: 'Hotel Central',
      discountPercent: 10,
      prices: [{ productId: o.pan, price: 2000 }],
    });
    const order = await staffOrder({
      b2bClientId: client,
      paymentMethod: 'credit',
      items: [
        { productId: o.pan, quantity: 10 },
        { productId: o.torta, quantity: 1 },
        { productId: o.galleta, quantity: 2 },
      ],
    });
    expect(order.channel).toBe('b2b');
    expect(order.items.map((l) => l.unitPrice)).toEqual([2000, 35_000, 905]); // 1,005 less 10 % = 904.5 → 905
    expect(order.subtotal).toBe(20_000 + 35_000 + 1810);
    expect(order.deliveryFee).toBe(0); // from 50,000 delivery is free
  });

  it('charges the list price to a plain staff order and lets staff take orders under the minimum', async () => {
    const order = await staffOrder({ items: [{ productId: o.torta, quantity: 1 }] });
    expect([order.channel, order.items[0]!.unitPrice]).toEqual(['staff', 42_000]);
    const small = await staffOrder({ items: [{ productId: o.galleta, quantity: 1 }] });
    expect(small.total).toBe(1005 + 5000);
  });

  it('refuses unavailable and foreign products, and unknown fields', async () => {
    const base = {
      contact: { name: 'X', phone: '1' },
      fulfillment: 'pickup',
      dueDate: '2026-11-25',
      window: 'am',
      paymentMethod: 'cash',
    };
    const inactive = await postOrder(o.staff.token, { ...base, items: [{ productId: o.inactive, quantity: 1 }] });
    expect(inactive.statusCode).toBe(422);
    expect(json(inactive)).toMatchObject({ code: 'orders/product-unavailable' });
    const foreign = await postOrder(o.staff.token, { ...base, items: [{ productId: o.foreign, quantity: 1 }] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.body).toContain('items.0.productId');
    const priced = await postOrder(o.staff.token, {
      ...base,
      items: [{ productId: o.pan, quantity: 1, unitPrice: 1 }],
    });
    expect(priced.statusCode).toBe(400);
    expect(priced.body).toContain('unitPrice');
  });
});

describe('who reads what', () => {
  it('shows a customer only its own orders, a driver only its assigned ones', async () => {
    const own = await staffOrder({ customerId: o.customer.uid });
    const theirs = await staffOrder({ customerId: o.otherCustomer.uid });
    const assigned = await staffOrder({ deliveryAssistantId: o.driver.uid });
    const list = async (user: TestUser) =>
      json<{ data: Order[] }>(
        await o.t.call({ method: 'GET', url: `${api()}?per_page=1000`, token: user.token }),
      ).data.map((x) => x.id);
    const customerSees = await list(o.customer);
    expect(customerSees).toContain(own.id);
    expect(customerSees).not.toContain(theirs.id);
    expect((await get(theirs.id, o.customer)).statusCode).toBe(404);
    const driverSees = await list(o.driver);
    expect(driverSees).toContain(assigned.id);
    expect(driverSees).not.toContain(own.id);
    expect((await get(own.id, o.driver)).statusCode).toBe(404);
    expect(await list(o.otherDriver)).not.toContain(assigned.id);
    expect((await list(o.production)).length).toBeGreaterThan(2);
  });

  it("answers 404 for another company's order, and lets it see none of them", async () => {
    const order = await webOrder(4);
    expect((await get(order.id, o.otherAdmin)).statusCode).toBe(404);
    expect((await patch(order.id, o.otherAdmin, { status: 'confirmed' })).statusCode).toBe(404);
    const cross = await o.t.call({
      method: 'GET',
      url: `/api/companies/${o.otherCompanyId}/orders/${order.id}`,
      token: o.otherAdmin.token,
    });
    expect(cross.statusCode).toBe(404);
    const mine = await o.t.call({ method: 'GET', url: `${api()}`, token: o.otherAdmin.token });
    expect(mine.statusCode).toBe(404);
  });

  it('finds orders by number, name or phone, and filters by status and due day', async () => {
    const order = await webOrder(4, { contact: { name: 'Zoraida Ñáñez', phone: '311 999 0000' } });
    const search = async (q: string) =>
      json<{ data: Order[] }>(
        await o.t.call({ method: 'GET', url: `${api()}?search=${encodeURIComponent(q)}`, token: o.staff.token }),
      ).data.map((x) => x.id);
    expect(await search('zoraida nanez')).toContain(order.id);
    expect(await search('311 999')).toContain(order.id);
    expect(await search(String(order.number))).toContain(order.id);
    const day = await o.t.call({
      method: 'GET',
      url: `${api()}?date_field=dueDate&start_date=2026-11-25&end_date=2026-11-25&status=pending&per_page=1000`,
      token: o.staff.token,
    });
    expect(day.statusCode, day.body).toBe(200);
    const found = json<{ data: Order[] }>(day).data;
    expect(found.map((x) => x.id)).toContain(order.id);
    expect(found.every((x) => x.dueDate === '2026-11-25T05:00:00.000Z' && x.status === 'pending')).toBe(true);
    expect(found[0]).not.toHaveProperty('contactName');
  });
});
