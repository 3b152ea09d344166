/**
 * A signed-in shopper's phone and address remembered (defect "never remembered for the next order"):
 * a checkout with `remember` keeps the order's phone and delivery address in the customer's own account (the
 * address used first, never twice, at most ten), read back from GET /api/me for the next checkout; without
 * `remember`, for a pickup's address, or for a guest, nothing is kept, and nobody else's account changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@hornada/domain';
import { newId } from '../../src/lib/ids';
import { json, type TestUser } from '../helpers/app';
import { ADDRESS, ordersCalls, setupOrdersApp, type OrdersApp } from '../helpers/orders';

let o: OrdersApp;
const { cart, checkout, checkoutBody } = ordersCalls(() => o);

const HOME = { ...ADDRESS, line: 'Calle 72 # 10-34', neighborhood: 'Chapinero', notes: 'Timbre 302' };
const OFFICE = { ...ADDRESS, line: 'Carrera 7 # 32-16', neighborhood: 'La Merced' };

async function me(user: TestUser): Promise<User> {
  const res = await o.t.call({ method: 'GET', url: '/api/me', token: user.token });
  expect(res.statusCode, res.body).toBe(200);
  return json<{ data: User }>(res).data;
}

/** A checkout of 4 pan by `user` (null: a guest). */
async function order(user: TestUser | null, extra: Record<string, unknown>) {
  const c = await cart([{ productId: o.pan, quantity: 4 }], undefined, user?.token);
  const res = await checkout(c, checkoutBody(extra), newId(), user?.token);
  expect(res.statusCode, res.body).toBe(201);
}

const lines = (u: User) => u.addresses.map((a) => a.line);

beforeAll(async () => {
  o = await setupOrdersApp();
});
afterAll(async () => {
  await o?.t.close();
});

describe('checkout with remember', () => {
  it('keeps nothing without it, nor from a guest', async () => {
    const before = await me(o.customer);
    await order(o.customer, { contact: { name: 'Ana Pérez', phone: '310 000 0000' }, address: HOME });
    await order(null, { contact: { name: 'Invitada', phone: '310 111 1111' }, address: OFFICE, remember: true });
    const after = await me(o.customer);
    expect([after.phone, after.addresses]).toEqual([before.phone, before.addresses]);
  });

  it("keeps the order's phone and address in the customer's own account, the one used first", async () => {
    const contact = { name: 'Ana Pérez', phone: '311 555 0129' };
    await order(o.customer, { contact, address: HOME, remember: true });
    let mine = await me(o.customer);
    expect(mine.phone).toBe('311 555 0129');
    expect(mine.addresses).toEqual([{ ...HOME, label: null, lat: null, lng: null }]);

    await order(o.customer, { contact, address: OFFICE, remember: true });
    expect(lines(await me(o.customer))).toEqual([OFFICE.line, HOME.line]);
    // The same address again (spelled in other case) goes first, kept once.
    await order(o.customer, { contact, address: { ...HOME, line: HOME.line.toUpperCase() }, remember: true });
    mine = await me(o.customer);
    expect(lines(mine)).toEqual([HOME.line.toUpperCase(), OFFICE.line]);
    // A pickup keeps the phone and leaves the addresses as they are.
    await order(o.customer, {
      contact: { ...contact, phone: '312 555 0000' },
      fulfillment: 'pickup',
      address: null,
      remember: true,
    });
    mine = await me(o.customer);
    expect(mine.phone).toBe('312 555 0000');
    expect(lines(mine)).toEqual([HOME.line.toUpperCase(), OFFICE.line]);
    // Nobody else's account took any of it.
    for (const other of [o.staff, o.admin, o.driver]) {
      const theirs = await me(other);
      expect(theirs.addresses).toEqual([]);
      expect(theirs.phone).not.toBe('312 555 0000');
    }
  });

  it('keeps at most ten addresses, the oldest dropped', async () => {
    for (let n = 1; n <= 11; n++) {
      await order(o.customer, {
        contact: { name: 'Ana Pérez', phone: '311 555 0129' },
        address: { ...ADDRESS, line: `Calle ${n} # 1-01` },
        remember: true,
      });
    }
    const mine = await me(o.customer);
    expect(mine.addresses).toHaveLength(10);
    expect(lines(mine)[0]).toBe('Calle 11 # 1-01');
    expect(lines(mine)).not.toContain('Calle 1 # 1-01');
  });
});
