/**
 * The sales report net of refunds (defect "the sales report ignores refunds on screen"): a refunded
 * order is no sale, so its money and its count leave revenue, the orders, the average ticket and every
 * breakdown, and come back as their own figure (`refunded`, `refundedOrders`), on screen and in the CSV alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, SalesReport } from '@hornada/domain';
import { json } from '../helpers/app';
import { ordersCalls, setupOrdersApp, WEDNESDAY, type OrdersApp } from '../helpers/orders';

let o: OrdersApp;
const { staffOrder, patch } = ordersCalls(() => o);
const DAY = `from=${WEDNESDAY}&to=${WEDNESDAY}`;
const placed: Record<string, Order> = {};

const report = (query: string) =>
  o.t.call({ method: 'GET', url: `/api/companies/${o.companyId}/reports/sales?${query}`, token: o.admin.token });

beforeAll(async () => {
  o = await setupOrdersApp();
  placed.paid = await staffOrder(); // 2 pan 5,000 + delivery 5,000
  placed.refunded = await staffOrder({ items: [{ productId: o.torta, quantity: 1 }] }); // 42,000 + 5,000
  placed.unpaid = await staffOrder(); // 10,000, not paid yet
  for (const id of [placed.paid.id, placed.refunded.id]) {
    const res = await patch(id, o.staff, { paymentStatus: 'paid' });
    expect(res.statusCode, res.body).toBe(200);
  }
  const refund = await patch(placed.refunded.id, o.admin, {
    paymentStatus: 'refunded',
    refundReason: 'Torta dañada en la entrega',
  });
  expect(refund.statusCode, refund.body).toBe(200);
});
afterAll(async () => {
  await o?.t.close();
});

describe('GET …/reports/sales with a refunded order', () => {
  it('counts sales net of the refund, and the refund as its own figure', async () => {
    expect([placed.paid!.total, placed.refunded!.total, placed.unpaid!.total]).toEqual([10_000, 47_000, 10_000]);
    const res = await report(DAY);
    expect(res.statusCode, res.body).toBe(200);
    const r = json<{ data: SalesReport }>(res).data;
    expect(r.totals).toEqual({
      revenue: 20_000,
      paid: 10_000,
      unpaid: 10_000,
      refunded: 47_000,
      refundedOrders: 1,
      orders: 2,
      averageTicket: 10_000,
    });
    expect(r.byDay).toEqual([{ date: WEDNESDAY, revenue: 20_000, orders: 2 }]);
    // The refunded torta was not sold: no product, collection or channel counts it.
    expect(r.byProduct).toEqual([
      { productId: o.pan, name: 'Pan campesino', quantity: 4, revenue: 10_000, paid: 5_000, unpaid: 5_000 },
    ]);
    expect(r.byCollection.map((c) => [c.quantity, c.revenue])).toEqual([[4, 10_000]]);
    expect(r.byChannel.find((c) => c.channel === 'staff')).toEqual({
      channel: 'staff',
      orders: 2,
      revenue: 20_000,
      paid: 10_000,
      unpaid: 10_000,
    });
  });

  it('writes the same figures in the CSV: the sales net, the refund on its own row with its count', async () => {
    const res = await report(`${DAY}&format=csv`);
    expect(res.statusCode, res.body).toBe(200);
    const lines = res.rawPayload.toString('utf8').slice(1).split('\r\n');
    expect(lines[1]).toBe(`Resumen,${WEDNESDAY} a ${WEDNESDAY},2,,20000,10000,10000`);
    expect(lines).toContain('Reembolsado,,1,,47000,,');
    expect(lines).toContain(`Día,${WEDNESDAY},2,,20000,,`);
    expect(lines.some((l) => l.startsWith('Producto,Torta'))).toBe(false);
  });
});

describe('GET …/reports/sales with a partial refund', () => {
  it("counts the order's sale net of it, the refund in the refunds figure; its lines stay as sold", async () => {
    const res = await patch(placed.paid!.id, o.admin, { refund: { amount: 3_000, reason: 'Faltó un pan' } });
    expect(res.statusCode, res.body).toBe(200);
    const r = json<{ data: SalesReport }>(await report(DAY)).data;
    expect(r.totals).toEqual({
      revenue: 17_000,
      paid: 7_000,
      unpaid: 10_000,
      refunded: 50_000,
      refundedOrders: 1,
      orders: 2,
      averageTicket: 8_500,
    });
    expect(r.byDay).toEqual([{ date: WEDNESDAY, revenue: 17_000, orders: 2 }]);
    expect(r.byChannel.find((c) => c.channel === 'staff')).toMatchObject({ revenue: 17_000, paid: 7_000 });
    expect(r.byProduct.map((p) => p.revenue)).toEqual([10_000]);
  });
});

describe('the CSV separator', () => {
  const csv = async (query: string, headers: Record<string, string> = {}) => {
    const res = await o.t.call({
      method: 'GET',
      url: `/api/companies/${o.companyId}/reports/sales?${DAY}&format=csv${query}`,
      token: o.admin.token,
      headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.rawPayload.toString('utf8').slice(1).split('\r\n');
  };

  it('is `;` for a reader in Spanish (Excel in Spanish opens it in columns), `,` for anyone else', async () => {
    const es = await csv('', { 'accept-language': 'es-CO,es;q=0.9,en;q=0.8' });
    expect(es[0]).toBe('Sección;Concepto;Pedidos;Unidades;Ventas;Pagado;Por cobrar');
    expect(es).toContain(`Día;${WEDNESDAY};2;;17000;;`);
    expect((await csv('', { 'accept-language': 'en-US,en;q=0.9' }))[0]).toBe(
      'Sección,Concepto,Pedidos,Unidades,Ventas,Pagado,Por cobrar',
    );
  });

  it('follows `separator` whatever the language, and quotes a text holding the separator', async () => {
    expect((await csv('&separator=semicolon', { 'accept-language': 'en' }))[0]).toContain('Sección;Concepto');
    expect((await csv('&separator=comma', { 'accept-language': 'es-CO' }))[0]).toContain('Sección,Concepto');
    const bad = await o.t.call({
      method: 'GET',
      url: `/api/companies/${o.companyId}/reports/sales?${DAY}&format=csv&separator=tab`,
      token: o.admin.token,
    });
    expect(bad.statusCode).toBe(400);
    const { csvText } = await import('../../src/modules/reports/sales-csv');
    expect([csvText('Pan; queso', ';'), csvText('Pan; queso', ','), csvText('Pan, queso', ';')]).toEqual([
      '"Pan; queso"',
      'Pan; queso',
      'Pan, queso',
    ]);
  });
});
