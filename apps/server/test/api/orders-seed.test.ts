/**
 * The demo orders (docs/design.md §7): about 200 over the past 30 days and the next 3, in every status and
 * payment state, web, staff and B2B, numbered without gaps, priced and walked along the machine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { allowedStatusMoves, dayInZone, ORDER_STATUSES, PAYMENT_STATUSES, type Order } from '@hornada/domain';
import { ingredients } from '../../src/db/schema';
import { INGREDIENTS } from '../../src/seed/catalogue';
import { DEMO_COMPANY_ID } from '../../src/seed/ids';
import { json, setupTestApp, TestClock, type TestApp } from '../helpers/app';
import { outboxOf } from '../helpers/mail';
import { seedDemoInto } from '../helpers/seed';

let t: TestApp;
let all: Order[];

beforeAll(async () => {
  // A Monday (Sundays are no delivery day): today has orders in every step.
  t = await setupTestApp({ clock: new TestClock(new Date('2026-11-23T15:00:00.000Z')) });
  await seedDemoInto(t);
  const root = await t.user('system_admin', null);
  const res = await t.call({
    method: 'GET',
    url: `/api/companies/${DEMO_COMPANY_ID}/orders?per_page=1000&sort=number`,
    token: root.token,
  });
  expect(res.statusCode, res.body).toBe(200);
  all = json<{ data: Order[] }>(res).data;
});
afterAll(async () => {
  await t?.close();
});

describe('demo orders', () => {
  it('are about 200, numbered 1001 on without a gap, over the past 30 days and the next 3', () => {
    expect(all.length).toBeGreaterThanOrEqual(150);
    expect(all.length).toBeLessThanOrEqual(260);
    expect(all.map((o) => o.number)).toEqual(all.map((_, i) => 1001 + i));
    const today = dayInZone(t.clock.now(), 'America/Bogota');
    const days = all.map((o) => dayInZone(new Date(o.dueDate), 'America/Bogota')).sort();
    const span = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 86_400_000;
    expect(span(days[0]!, today)).toBeGreaterThanOrEqual(28);
    expect(span(today, days.at(-1)!)).toBe(3);
    expect(days.filter((d) => d === today).length).toBeGreaterThanOrEqual(10);
  });

  it('deliver to addresses with coordinates around Bogotá, so the route means something', () => {
    const deliveries = all.filter((o) => o.fulfillment === 'delivery');
    expect(deliveries.length).toBeGreaterThan(50);
    for (const o of deliveries) {
      const a = o.address!;
      expect(a.lat, `#${o.number}`).toBeGreaterThan(4.45);
      expect(a.lat).toBeLessThan(4.85);
      expect(a.lng, `#${o.number}`).toBeGreaterThan(-74.25);
      expect(a.lng).toBeLessThan(-73.95);
    }
  });

  it('cover every status, payment state, channel and method', () => {
    expect(new Set(all.map((o) => o.status))).toEqual(new Set(ORDER_STATUSES));
    expect(new Set(all.map((o) => o.paymentStatus))).toEqual(new Set(PAYMENT_STATUSES));
    expect(new Set(all.map((o) => o.channel))).toEqual(new Set(['web', 'staff', 'b2b']));
    expect(new Set(all.map((o) => o.paymentMethod))).toEqual(new Set(['cash', 'transfer', 'online', 'credit']));
  });

  it('are priced line by line and walked along the machine, with history', () => {
    for (const o of all) {
      expect(o.subtotal, `#${o.number}`).toBe(o.items.reduce((s, l) => s + l.unitPrice * l.quantity, 0));
      expect(o.total).toBe(o.subtotal - o.discount + o.deliveryFee);
      const moves = o.history.filter((h) => h.field === 'status');
      expect(moves[0]).toMatchObject({ from: null, to: 'pending' });
      for (const m of moves.slice(1)) {
        expect(allowedStatusMoves('company_admin', m.from as never, o.fulfillment), `#${o.number}`).toContain(m.to);
      }
      expect(moves.at(-1)!.to).toBe(o.status);
      if (o.status === 'delivered') expect(o.completedAt).not.toBeNull();
      if (o.channel === 'b2b') expect(o.paymentMethod).toBe('credit');
    }
  });

  it('are moved by the people who would have moved them, at their instants, without mail or stock moved', async () => {
    const paidOnline = all.find((o) => o.history.some((h) => h.note === 'paid-online'))!;
    const confirmed = paidOnline.history.find((h) => h.field === 'status' && h.to === 'confirmed')!;
    expect(confirmed.by).toMatchObject({ role: 'gateway' });
    expect(paidOnline.createdAt < confirmed.at).toBe(true);
    const delivered = all.find((o) => o.status === 'delivered' && o.fulfillment === 'delivery')!;
    expect(delivered.history.find((h) => h.to === 'delivered')!.by).toMatchObject({ role: 'delivery_assistant' });
    expect(delivered.completedAt).toBe(delivered.history.find((h) => h.to === 'delivered')!.at);
    // The replay is the seed's import: the customer's orders mail nobody, the baker's counts take no flour.
    await t.app.modules.settled();
    const root = await t.user('system_admin', null);
    expect(await outboxOf(t, root.token)).toEqual([]);
    const stock = await t.db.select().from(ingredients).where(eq(ingredients.companyId, DEMO_COMPANY_ID));
    for (const i of INGREDIENTS) expect(stock.find((s) => s.name === i.name)?.stock, i.name).toBe(i.stock);
  });

  it('give the demo customer and driver orders of their own', async () => {
    const customer = all.filter((o) => o.customerId !== null);
    const driven = all.filter((o) => o.deliveryAssistantId !== null);
    expect(customer.length).toBeGreaterThan(3);
    expect(driven.length).toBeGreaterThan(10);
  });
});
