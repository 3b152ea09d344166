import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '@hornada/domain/schemas/orders';
import { paidByThisChange } from './order-view';

const by = { uid: null, name: 'sandbox', role: 'gateway' };
const entry = (at: string, field: string, to: unknown): HistoryEntry => ({ at, by, field, from: null, to });

describe('the paid toast on the orders screen', () => {
  const paying = [
    entry('2026-11-25T10:00:00.000Z', 'status', 'pending'),
    entry('2026-11-25T10:05:00.100Z', 'paymentStatus', 'paid'),
    entry('2026-11-25T10:05:00.103Z', 'status', 'confirmed'),
  ];

  it('comes with the write that paid the order', () => {
    expect(paidByThisChange({ paymentStatus: 'paid', history: paying })).toBe(true);
  });

  it('does not come with a later write of a paid order, nor with an order not paid', () => {
    const later = [...paying, entry('2026-11-25T11:00:00.000Z', 'status', 'in_production')];
    expect(paidByThisChange({ paymentStatus: 'paid', history: later })).toBe(false);
    expect(paidByThisChange({ paymentStatus: 'pending', history: paying.slice(0, 1) })).toBe(false);
    expect(paidByThisChange({ paymentStatus: 'paid' })).toBe(false);
  });
});
