/**
 * The order book's list as the orders screen reads it (docs/design.md §6): due-day ranges relative to
 * the company's today (`start_date=today`, `today+1`…, so a saved link stays current), numbers and phones
 * searched as people type them ('#1042', '3001234567' for '300 123 4567'), and the screen's filters together.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '@hornada/domain';
import { json } from '../helpers/app';
import { ordersCalls, setupOrdersApp, TUESDAY, WEDNESDAY, type OrdersApp } from '../helpers/orders';

let o: OrdersApp;
const { api, webOrder, staffOrder } = ordersCalls(() => o);

beforeAll(async () => {
  o = await setupOrdersApp();
});
afterAll(async () => {
  await o?.t.close();
});

async function list(query: string, token = o.staff.token) {
  const res = await o.t.call({ method: 'GET', url: `${api()}?per_page=1000&${query}`, token });
  return {
    status: res.statusCode,
    body: res.body,
    ids: res.statusCode === 200 ? json<{ data: Order[] }>(res).data.map((x) => x.id) : [],
  };
}

describe('orders list for the orders screen', () => {
  it('reads due-day bounds relative to today in the company time zone, following the app clock', async () => {
    // The clock: Monday 23 Nov 2026, 10:00 in Bogotá.
    const tuesday = await staffOrder({ dueDate: TUESDAY });
    const wednesday = await staffOrder({ dueDate: WEDNESDAY });
    const upcoming = await list('date_field=dueDate&start_date=today');
    expect(upcoming.status, upcoming.body).toBe(200);
    expect(upcoming.ids).toEqual(expect.arrayContaining([tuesday.id, wednesday.id]));
    const tomorrow = await list('date_field=dueDate&start_date=today%2B1&end_date=today%2B1');
    expect(tomorrow.ids).toContain(tuesday.id);
    expect(tomorrow.ids).not.toContain(wednesday.id);
    const past = await list('date_field=dueDate&end_date=today-1');
    expect(past.ids).not.toContain(tuesday.id);
    // A day later, the same link means the next day (a token of that day: the first has expired).
    o.t.clock.set(new Date('2026-11-24T15:00:00.000Z'));
    try {
      const later = await o.t.user('company_staff', o.companyId);
      const next = await list('date_field=dueDate&start_date=today%2B1&end_date=today%2B1', later.token);
      expect(next.ids).toEqual(expect.arrayContaining([wednesday.id]));
      expect(next.ids).not.toContain(tuesday.id);
    } finally {
      o.t.clock.set(new Date('2026-11-23T15:00:00.000Z'));
    }
    // Absolute days still work, mixed with relative ones.
    const mixed = await list(`date_field=dueDate&start_date=today&end_date=${TUESDAY}`);
    expect(mixed.ids).toContain(tuesday.id);
    expect(mixed.ids).not.toContain(wednesday.id);
  });

  it('refuses bounds that are neither a day nor relative, and a relative range backwards', async () => {
    for (const bad of [
      'start_date=tomorrow',
      'start_date=today%2Bx',
      'end_date=2026-13-01',
      'start_date=today%2B1&end_date=today',
    ]) {
      const res = await list(`date_field=dueDate&${bad}`);
      expect(res.status, bad).toBe(400);
    }
  });

  it('finds an order by its number with or without #, and by the phone typed without spaces', async () => {
    const order = await webOrder(4, { contact: { name: 'Zoila Buitrago', phone: '+57 315 222 8899' } });
    for (const q of [
      `#${order.number}`,
      String(order.number),
      '3152228899',
      '315 222 8899',
      '(315) 222-8899',
      'zoila',
    ]) {
      const res = await list(`search=${encodeURIComponent(q)}`);
      expect(res.status, res.body).toBe(200);
      expect(res.ids, q).toContain(order.id);
    }
    // Two digits are too few to match inside phones.
    expect((await list(`search=${encodeURIComponent('#9')}`)).ids).not.toContain(order.id);
  });

  it("reads '#' and digits as an order's number alone, not a phone that holds those digits", async () => {
    const wanted = await webOrder(4, { contact: { name: 'Numerada Uno', phone: '+57 300 111 2233' } });
    // Another order whose phone carries the wanted number's digits (seen on a weekday evening's demo).
    const phone = `+57 31${wanted.number}0 ${String(wanted.number).slice(-2)}`;
    const other = await webOrder(4, { contact: { name: 'Teléfono Parecido', phone } });
    const byNumber = await list(`search=${encodeURIComponent(`#${wanted.number}`)}`);
    expect(byNumber.status, byNumber.body).toBe(200);
    expect(byNumber.ids).toEqual([wanted.id]);
    // Without '#', digits still reach phones too.
    const digits = await list(`search=${wanted.number}`);
    expect(digits.ids).toEqual(expect.arrayContaining([wanted.id, other.id]));
  });

  it('combines the screen filters: channel, payment status and method, status and the day', async () => {
    const web = await webOrder(4, { paymentMethod: 'transfer', dueDate: WEDNESDAY });
    const staff = await staffOrder({ dueDate: WEDNESDAY });
    const both = await list(
      'date_field=dueDate&start_date=today&channel=web&paymentStatus=unpaid&paymentMethod=transfer&status=pending',
    );
    expect(both.status, both.body).toBe(200);
    expect(both.ids).toContain(web.id);
    expect(both.ids).not.toContain(staff.id);
    const staffOnly = await list('channel=staff,b2b&start_date=today&date_field=dueDate');
    expect(staffOnly.ids).toContain(staff.id);
    expect(staffOnly.ids).not.toContain(web.id);
  });

  it('keeps a public list with a relative day out of the public cache (its answer changes at midnight)', async () => {
    const url = `/api/companies/${o.companyId}/products?date_field=createdAt&start_date=today`;
    const first = await o.t.call({ method: 'GET', url });
    expect(first.statusCode, first.body).toBe(200);
    expect(json<{ data: { id: string }[] }>(first).data.map((p) => p.id)).toContain(o.pan);
    o.t.clock.set(new Date('2026-11-24T15:00:00.000Z'));
    try {
      const next = await o.t.call({ method: 'GET', url });
      expect(next.statusCode, next.body).toBe(200);
      expect(json<{ data: { id: string }[] }>(next).data.map((p) => p.id)).not.toContain(o.pan);
    } finally {
      o.t.clock.set(new Date('2026-11-23T15:00:00.000Z'));
    }
  });
});
