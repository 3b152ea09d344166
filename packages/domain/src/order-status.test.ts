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
  paymentStatusesOf,
  statusMoves,
} from './order-status';
import { ORDER_STATUSES } from './schemas/orders';

describe('order status machine (design §5)', () => {
  it('has exactly the moves of design §5, by fulfilment', () => {
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
    ]);
    const pickup = statusMoves('pickup').map((m) => `${m.from}>${m.to}`);
    expect(pickup).toContain('ready>delivered');
    expect(pickup).not.toContain('ready>out_for_delivery');
  });

  it('lets admin and staff make every move and nothing else', () => {
    for (const role of ['company_admin', 'company_staff', 'system_admin'] as const) {
      for (const from of ORDER_STATUSES) {
        const want = statusMoves('delivery')
          .filter((m) => m.from === from)
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
      new Set(['ready>out_for_delivery', 'out_for_delivery>delivered']),
    );
    expect(new Set(movesOf('company_customer'))).toEqual(new Set(['pending>cancelled']));
    expect(canMoveStatus('company_customer', 'confirmed', 'cancelled', 'delivery')).toBe(false);
    expect(canMoveStatus('delivery_assistant', 'ready', 'delivered', 'pickup')).toBe(false);
  });
});

describe('payment axis (design §5)', () => {
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

describe('field moments (design §5 role × field table)', () => {
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
