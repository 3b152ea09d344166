import { describe, expect, it } from 'vitest';
import {
  allowedPaymentMoves,
  allowedStatusMoves,
  canMovePayment,
  canMoveStatus,
  describeMoment,
  fieldMomentOf,
  mayChangeFieldAt,
  isUnpaid,
  NOT_RECEIVED_ES,
  notReceivedText,
  paymentStatusesOf,
  statusMoves,
} from './order-status';
import { POLICY } from './policy';
import { NotReceivedInput, ORDER_STATUSES } from './schemas/orders';

describe('order status machine (docs/design.md §5)', () => {
  it('has exactly the moves of docs/design.md §5, by fulfilment', () => {
    const delivery = statusMoves('delivery').map((m) => `${m.from}>${m.to}`);
    expect(delivery).toEqual([
      'pending>confirmed',
      'pending>cancelled',
      'confirmed>in_production',
      'confirmed>cancelled',
      'in_production>ready',
      'in_production>cancelled',
      'ready>out_for_delivery',
      'out_for_delivery>delivered',
      'out_for_delivery>ready',
    ]);
    const pickup = statusMoves('pickup').map((m) => `${m.from}>${m.to}`);
    expect(pickup).toContain('ready>delivered');
    expect(pickup).not.toContain('ready>out_for_delivery');
  });

  it('lets admin and staff make every move and nothing else', () => {
    for (const role of ['company_admin', 'company_staff', 'system_admin'] as const) {
      for (const from of ORDER_STATUSES) {
        // Every move but the driver's "No recibió", which is said at the door.
        const want = statusMoves('delivery')
          .filter((m) => m.from === from && !(m.from === 'out_for_delivery' && m.to === 'ready'))
          .map((m) => m.to);
        expect(allowedStatusMoves(role, from, 'delivery')).toEqual(want);
      }
    }
    expect(allowedStatusMoves('company_staff', 'delivered', 'delivery')).toEqual([]);
    expect(allowedStatusMoves('company_staff', 'cancelled', 'pickup')).toEqual([]);
  });

  it('gives each other role only its row of the table', () => {
    const movesOf = (role: Parameters<typeof allowedStatusMoves>[0]) =>
      ORDER_STATUSES.flatMap((from) =>
        (['delivery', 'pickup'] as const).flatMap((f) =>
          allowedStatusMoves(role, from, f).map((to) => `${from}>${to}`),
        ),
      );
    expect(new Set(movesOf('production_assistant'))).toEqual(
      new Set(['confirmed>in_production', 'in_production>ready']),
    );
    expect(new Set(movesOf('delivery_assistant'))).toEqual(
      new Set(['ready>out_for_delivery', 'out_for_delivery>delivered', 'out_for_delivery>ready']),
    );
    expect(new Set(movesOf('company_customer'))).toEqual(new Set(['pending>cancelled']));
    expect(canMoveStatus('company_customer', 'confirmed', 'cancelled', 'delivery')).toBe(false);
    expect(canMoveStatus('delivery_assistant', 'ready', 'delivered', 'pickup')).toBe(false);
  });
});

describe('"No recibió"', () => {
  it("is the driver's move alone, from out_for_delivery only, for deliveries", () => {
    expect(canMoveStatus('delivery_assistant', 'out_for_delivery', 'ready', 'delivery')).toBe(true);
    expect(canMoveStatus('delivery_assistant', 'out_for_delivery', 'ready', 'pickup')).toBe(false);
    for (const from of ORDER_STATUSES.filter((s) => s !== 'out_for_delivery')) {
      expect(canMoveStatus('delivery_assistant', from, 'ready', 'delivery')).toBe(false);
    }
    for (const role of [
      'company_admin',
      'company_staff',
      'system_admin',
      'production_assistant',
      'company_customer',
    ] as const) {
      expect(canMoveStatus(role, 'out_for_delivery', 'ready', 'delivery')).toBe(false);
    }
    // The office still makes its own moves from out_for_delivery.
    expect(allowedStatusMoves('company_staff', 'out_for_delivery', 'delivery')).toEqual(['delivered']);
    expect(allowedStatusMoves('delivery_assistant', 'out_for_delivery', 'delivery')).toEqual(['delivered', 'ready']);
  });

  it('binds the reason to that move: the driver writes it only with it, the office never', () => {
    expect(mayChangeFieldAt('delivery_assistant', 'notReceived', 'out_for_delivery', 'ready')).toBe(true);
    expect(mayChangeFieldAt('delivery_assistant', 'notReceived', 'out_for_delivery', null)).toBe(false);
    expect(mayChangeFieldAt('delivery_assistant', 'notReceived', 'ready', null)).toBe(false);
    expect(mayChangeFieldAt('delivery_assistant', 'notReceived', 'out_for_delivery', 'delivered')).toBe(false);
    expect(mayChangeFieldAt('company_staff', 'notReceived', 'ready', null)).toBe(false);
    expect(mayChangeFieldAt('company_admin', 'notReceived', 'out_for_delivery', 'delivered')).toBe(false);
  });

  it('is writable by the driver alone in the permission table', () => {
    expect(POLICY.orders.writable.delivery_assistant).toContain('notReceived');
    expect(POLICY.orders.writable.production_assistant).not.toContain('notReceived');
    expect(POLICY.orders.writable.company_customer).not.toContain('notReceived');
  });

  it('reads in Spanish', () => {
    expect(notReceivedText({ reason: 'nobody_home', details: null })).toBe('No había nadie');
    expect(notReceivedText({ reason: 'other', details: 'Portería cerrada' })).toBe('Otro: Portería cerrada');
    expect(Object.values(NOT_RECEIVED_ES)).toEqual(['No había nadie', 'Dirección errada', 'Rechazó el pedido', 'Otro']);
  });

  it('takes a listed reason, and for "other" what happened in at most 200 characters', () => {
    expect(NotReceivedInput.safeParse({ reason: 'refused' }).success).toBe(true);
    expect(NotReceivedInput.safeParse({ reason: 'other' }).success).toBe(false);
    expect(NotReceivedInput.safeParse({ reason: 'other', details: '   ' }).success).toBe(false);
    expect(NotReceivedInput.safeParse({ reason: 'other', details: 'x'.repeat(200) }).success).toBe(true);
    expect(NotReceivedInput.safeParse({ reason: 'other', details: 'x'.repeat(201) }).success).toBe(false);
    expect(NotReceivedInput.safeParse({ reason: 'lost' }).success).toBe(false);
    expect(NotReceivedInput.safeParse({ reason: 'refused', extra: 1 }).success).toBe(false);
  });
});

describe('payment axis (docs/design.md §5)', () => {
  it('moves cash and transfer unpaid → paid by staff, refunds by the admin only', () => {
    expect(canMovePayment('company_staff', 'cash', 'unpaid', 'paid')).toBe(true);
    expect(canMovePayment('company_staff', 'transfer', 'unpaid', 'paid')).toBe(true);
    expect(canMovePayment('company_staff', 'cash', 'paid', 'refunded')).toBe(false);
    expect(canMovePayment('company_admin', 'cash', 'paid', 'refunded')).toBe(true);
    expect(canMovePayment('delivery_assistant', 'cash', 'unpaid', 'paid')).toBe(false);
    expect(canMovePayment('company_customer', 'transfer', 'unpaid', 'paid')).toBe(false);
  });

  it('leaves online payments to the gateway, with retries after a failure', () => {
    expect(allowedPaymentMoves('company_admin', 'online', 'unpaid')).toEqual([]);
    expect(allowedPaymentMoves('gateway', 'online', 'unpaid')).toEqual(['pending']);
    expect(allowedPaymentMoves('gateway', 'online', 'pending')).toEqual(['paid', 'failed']);
    expect(allowedPaymentMoves('gateway', 'online', 'failed')).toEqual(['pending']);
    expect(paymentStatusesOf('credit')).toEqual(['unpaid', 'paid', 'refunded']);
  });

  it('counts as unpaid what is neither cancelled nor paid', () => {
    expect(isUnpaid({ status: 'delivered', paymentStatus: 'unpaid' })).toBe(true);
    expect(isUnpaid({ status: 'cancelled', paymentStatus: 'unpaid' })).toBe(false);
    expect(isUnpaid({ status: 'pending', paymentStatus: 'paid' })).toBe(false);
  });
});

describe('field moments (docs/design.md §5 role × field table)', () => {
  it('binds a field to its move: a reason only with a cancellation, cash only on the way or at delivery', () => {
    expect(mayChangeFieldAt('company_customer', 'cancelReason', 'delivered', null)).toBe(false);
    expect(mayChangeFieldAt('company_customer', 'cancelReason', 'pending', 'cancelled')).toBe(true);
    expect(mayChangeFieldAt('delivery_assistant', 'cashCollected', 'cancelled', null)).toBe(false);
    expect(mayChangeFieldAt('delivery_assistant', 'cashCollected', 'out_for_delivery', null)).toBe(true);
    expect(mayChangeFieldAt('delivery_assistant', 'cashCollected', 'out_for_delivery', 'delivered')).toBe(true);
    expect(mayChangeFieldAt('company_staff', 'producedQuantities', 'in_production', 'cancelled')).toBe(false);
    // A field without a moment is the permission table's alone.
    expect(fieldMomentOf('company_staff', 'notes')).toBeNull();
    expect(mayChangeFieldAt('company_staff', 'notes', 'delivered', null)).toBe(true);
  });

  it('says when a field may change', () => {
    expect(describeMoment(fieldMomentOf('delivery_assistant', 'cashCollected')!)).toBe(
      'while out_for_delivery, or with the move to delivered',
    );
    expect(describeMoment(fieldMomentOf('company_customer', 'cancelReason')!)).toBe('with the move to cancelled');
  });
});
