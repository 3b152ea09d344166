/**
 * Fields written outside their move: a field a role may write is accepted only with
 * the move it belongs to, and every accepted change lands in the order's history. The walk is generated
 * from the role × field table (the permission table's writable fields and packages/domain's
 * ORDER_FIELD_MOMENTS): every role that may update orders, every field it may write, in every status
 * and with every move the role may make.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allowedStatusMoves,
  MOMENT_FIELDS,
  mayChangeFieldAt,
  ORDER_STATUSES,
  POLICY,
  type CompanyRole,
  type Order,
  type OrderStatus,
} from '@hornada/domain';
import { json, type TestUser } from '../helpers/app';
import { ordersCalls, setupOrdersApp, type OrdersApp } from '../helpers/orders';

let o: OrdersApp;
const { staffOrder, patch, postOrder, get } = ordersCalls(() => o);
const orderOf = (res: { body: string }) => json<{ data: Order }>(res).data;

beforeAll(async () => {
  o = await setupOrdersApp();
});
afterAll(async () => {
  await o?.t.close();
});

/** The roles the permission table lets update orders, each with a user who reaches the test's orders. */
const updaters = () =>
  Object.keys(POLICY.orders.update).map((role) => {
    const users: Record<string, TestUser> = {
      company_admin: o.admin,
      company_staff: o.staff,
      production_assistant: o.production,
      delivery_assistant: o.driver,
      company_customer: o.customer,
    };
    return { role: role as CompanyRole, user: users[role]! };
  });

/** The fields a role may write besides status: its `writable` line, or every field with a moment. */
function fieldsOf(role: CompanyRole): string[] {
  const writable = (POLICY.orders.writable as Partial<Record<CompanyRole, readonly string[]>>)[role];
  return (writable ?? MOMENT_FIELDS).filter((f) => f !== 'status');
}

let serial = 0;
/** A value for `field` that differs from any the order has. */
function valueFor(field: string): unknown {
  const n = ++serial;
  switch (field) {
    case 'cancelReason':
      return `Motivo ${n}`;
    case 'cashCollected':
      return 1000 + n;
    case 'producedQuantities':
      return { [o.pan]: n };
    case 'routePosition':
      return n;
    case 'deliveryAssistantId':
      return o.otherDriver.uid;
    case 'notes':
      return `Nota ${n}`;
    case 'notReceived':
      return { reason: 'other', details: `Motivo ${n}` };
    default:
      throw new Error(`no test value for ${field}`);
  }
}

const PATH: Record<OrderStatus, OrderStatus[]> = {
  pending: [],
  confirmed: ['confirmed'],
  in_production: ['confirmed', 'in_production'],
  ready: ['confirmed', 'in_production', 'ready'],
  out_for_delivery: ['confirmed', 'in_production', 'ready', 'out_for_delivery'],
  delivered: ['confirmed', 'in_production', 'ready', 'out_for_delivery', 'delivered'],
  cancelled: ['cancelled'],
};

/** A delivery order of the customer, assigned to the driver, walked to `status` by the admin. */
async function orderAt(status: OrderStatus) {
  const order = await staffOrder({ customerId: o.customer.uid, deliveryAssistantId: o.driver.uid });
  for (const s of PATH[status]) {
    const res = await patch(order.id, o.admin, { status: s, cancelReason: s === 'cancelled' ? 'Prueba' : undefined });
    expect(res.statusCode, res.body).toBe(200);
  }
  return order;
}

/** Checks one write against the table; returns what went wrong, if anything. */
async function check(
  label: string,
  user: TestUser,
  orderId: string,
  field: string,
  body: Record<string, unknown>,
  may: boolean,
): Promise<string | null> {
  const res = await patch(orderId, user, body);
  if (!may) {
    const err = json<{ code?: string; message?: string; details?: { path: string }[] }>(res);
    if (res.statusCode !== 422 || err.code !== 'orders/field-outside-move')
      return `${label}: ${res.statusCode} ${res.body}`;
    if (!err.message?.includes(field) || err.details?.[0]?.path !== field) return `${label}: unclear ${res.body}`;
    return null;
  }
  if (res.statusCode !== 200) return `${label}: ${res.statusCode} ${res.body}`;
  const after = orderOf(res);
  const to = body[field];
  if (JSON.stringify(after[field as keyof Order]) !== JSON.stringify(to)) return `${label}: not stored ${res.body}`;
  const logged = after.history.some(
    (h) => h.field === field && JSON.stringify(h.to) === JSON.stringify(to) && h.by.uid === user.uid,
  );
  return logged ? null : `${label}: no history entry ${JSON.stringify(after.history.slice(-3))}`;
}

/** Many orders walked through the API: a walk, not a timing (the machine may be loaded). */
describe('fields written outside their move (docs/design.md §5 role × field table)', () => {
  it('refuses each field in a status it does not belong to (422) and logs each accepted change', async () => {
    const failures: string[] = [];
    let refused = 0;
    for (const { role, user } of updaters()) {
      for (const status of ORDER_STATUSES) {
        // Refused writes change nothing and accepted ones only the field: one order serves every field.
        const order = await orderAt(status);
        for (const field of fieldsOf(role)) {
          const may = mayChangeFieldAt(role, field, status, null);
          if (!may) refused++;
          const problem = await check(
            `${role} ${field} while ${status}`,
            user,
            order.id,
            field,
            {
              [field]: valueFor(field),
            },
            may,
          );
          if (problem) failures.push(problem);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(refused).toBeGreaterThan(20);
  }, 180_000);

  it('accepts each field only with the moves it belongs to, whoever makes them', async () => {
    const failures: string[] = [];
    for (const { role, user } of updaters()) {
      for (const from of ORDER_STATUSES) {
        for (const to of allowedStatusMoves(role, from, 'delivery')) {
          // A refused write leaves the order where it was: the next field reuses it.
          let spare: { id: string } | null = null;
          for (const field of fieldsOf(role)) {
            const order: { id: string } = spare ?? (await orderAt(from));
            const body: Record<string, unknown> = { status: to, [field]: valueFor(field) };
            if (to === 'cancelled' && field !== 'cancelReason') body.cancelReason = 'Motivo de la cancelación';
            // "No recibió" needs its reason: the other fields ride the move with it.
            if (from === 'out_for_delivery' && to === 'ready' && field !== 'notReceived')
              body.notReceived = valueFor('notReceived');
            const may = mayChangeFieldAt(role, field, from, to);
            const problem = await check(`${role} ${field} with ${from}>${to}`, user, order.id, field, body, may);
            if (problem) failures.push(problem);
            spare = may ? null : order;
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 180_000);

  it('keeps the table to the design: a reason only with a cancellation, never cash on a cancelled order', () => {
    for (const { role } of updaters()) {
      for (const from of ORDER_STATUSES) {
        const moves = [...allowedStatusMoves(role, from, 'delivery'), ...allowedStatusMoves(role, from, 'pickup')];
        for (const to of [null, ...moves]) {
          if (fieldsOf(role).includes('cancelReason')) {
            expect(mayChangeFieldAt(role, 'cancelReason', from, to), `${role} ${from}>${to}`).toBe(to === 'cancelled');
          }
          if (fieldsOf(role).includes('cashCollected') && (from === 'cancelled' || to === 'cancelled')) {
            expect(mayChangeFieldAt(role, 'cashCollected', from, to), `${role} ${from}>${to}`).toBe(false);
          }
        }
      }
    }
  });

  it('refuses on a new order the fields of moves it has not made', async () => {
    for (const field of MOMENT_FIELDS) {
      const may = mayChangeFieldAt('company_staff', field, 'pending', null);
      const res = await postOrder(o.staff.token, {
        contact: { name: 'Ana', phone: '300 000 0000' },
        items: [{ productId: o.pan, quantity: 2 }],
        fulfillment: 'delivery',
        address: { line: 'Calle 1', neighborhood: 'Centro', city: 'Bogotá' },
        dueDate: '2026-11-25',
        window: 'am',
        paymentMethod: 'cash',
        [field]: valueFor(field),
      });
      expect(res.statusCode, `${field}: ${res.body}`).toBe(may ? 201 : 422);
    }
  });
});

describe('the holes the review found', () => {
  it("refuses a customer's cancelReason on its own delivered, paid order, which keeps its history", async () => {
    const order = await orderAt('delivered');
    expect((await patch(order.id, o.staff, { paymentStatus: 'paid' })).statusCode).toBe(200);
    const before = orderOf(await get(order.id, o.admin));
    const res = await patch(order.id, o.customer, { cancelReason: 'Nunca llegó' });
    expect(res.statusCode, res.body).toBe(422);
    expect(json(res)).toMatchObject({ code: 'orders/field-outside-move', details: [{ path: 'cancelReason' }] });
    const after = orderOf(await get(order.id, o.admin));
    expect([after.cancelReason, after.history.length]).toEqual([before.cancelReason, before.history.length]);
  });

  it("refuses a driver's cashCollected on a cancelled order, which stays unpaid", async () => {
    const order = await orderAt('cancelled');
    const res = await patch(order.id, o.driver, { cashCollected: order.total });
    expect(res.statusCode, res.body).toBe(422);
    expect(json(res)).toMatchObject({ code: 'orders/field-outside-move', details: [{ path: 'cashCollected' }] });
    const after = orderOf(await get(order.id, o.admin));
    expect([after.paymentStatus, after.cashCollected]).toEqual(['unpaid', null]);
  });

  it('logs the back office edits that had no history entry (notes, contact, route)', async () => {
    const order = await orderAt('confirmed');
    const res = await patch(order.id, o.staff, {
      notes: 'Timbrar dos veces',
      contact: { name: 'Ana María Pérez', phone: '300 123 4567', email: null },
      routePosition: 3,
    });
    expect(res.statusCode, res.body).toBe(200);
    const fields = orderOf(res)
      .history.slice(-3)
      .map((h) => [h.field, h.by.uid]);
    expect(fields).toEqual([
      ['contact', o.staff.uid],
      ['routePosition', o.staff.uid],
      ['notes', o.staff.uid],
    ]);
  });
});
