import { describe, expect, it } from 'vitest';
import type { ProductionOrder } from '@hornada/domain/production';
import { producePatches } from './production-view';
import { caughtUp, openUnitsOf, producedOf, rememberWrite, unitsToAdd, withWritten, type Written } from './tablet-taps';

const order = (id: string, status: ProductionOrder['status'], quantity: number, produced = 0): ProductionOrder => ({
  id,
  number: 1,
  status,
  customer: 'Ana',
  dueDate: '2026-11-30',
  window: null,
  windowLabel: null,
  fulfillment: 'pickup',
  notes: null,
  items: [{ productId: 'pan', name: 'Pan', quantity }],
  producedQuantities: produced ? { pan: produced } : {},
});

describe('the kitchen tablet’s taps', () => {
  it('counts only what confirmed orders still miss, less what is queued', () => {
    const orders = [order('a', 'confirmed', 5), order('b', 'in_production', 4, 1), order('c', 'pending', 9)];
    expect(openUnitsOf(orders, 'pan')).toBe(8);
    expect(unitsToAdd(orders, 'pan', 0, 1)).toBe(1);
    expect(unitsToAdd(orders, 'pan', 6, 12)).toBe(2);
    expect(unitsToAdd(orders, 'pan', 3, 'all')).toBe(5);
    expect(unitsToAdd(orders, 'pan', 8, 1)).toBe(0);
  });

  it('keeps what it wrote over a day read before the write, and lets it go once the server shows it', () => {
    const served = [order('a', 'confirmed', 5)];
    const written = new Map<string, Written>();
    // Three taps: the order goes into production and gets 3; the day is not read again yet.
    let current = withWritten(served, written);
    for (const body of producePatches(current[0]!, ['pan'], 3))
      written.set('a', rememberWrite(written.get('a'), current[0]!, body));
    current = withWritten(served, written);
    expect(current[0]).toMatchObject({ status: 'in_production', producedQuantities: { pan: 3 } });
    expect(producedOf(current, 'pan')).toBe(3);
    // Two more start from 3, not from the stale 0: the order is ready with 5.
    const next = producePatches(current[0]!, ['pan'], 2);
    expect(next).toEqual([{ producedQuantities: { pan: 5 }, status: 'ready' }]);
    written.set('a', rememberWrite(written.get('a'), current[0]!, next[0]!));
    expect(caughtUp(order('a', 'in_production', 5, 3), written.get('a')!)).toBe(false);
    expect(caughtUp(order('a', 'ready', 5, 5), written.get('a')!)).toBe(true);
    // A cancelled order stays cancelled whatever the tablet wrote.
    expect(withWritten([order('a', 'cancelled', 5)], written)[0]!.status).toBe('cancelled');
  });
});
