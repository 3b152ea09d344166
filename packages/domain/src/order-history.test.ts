import { describe, expect, it } from 'vitest';
import { balanceDue, historyLine } from './order-history';
import type { HistoryEntry } from './schemas/orders';

const by = { uid: 'u', name: 'Julián', role: 'company_staff' };
const entry = (field: string, from: unknown, to: unknown, at = '2026-11-25T15:00:00.000Z'): HistoryEntry => ({
  at,
  by,
  field,
  from,
  to,
});

describe('balanceDue (issue 29: a paid order that grows)', () => {
  const placed = entry('status', null, 'pending');
  const paid = entry('paymentStatus', 'pending', 'paid');
  it('is the growth since it was paid', () => {
    const history = [placed, paid, entry('total', 20_000, 25_000)];
    expect(balanceDue({ total: 25_000, paymentStatus: 'paid', history })).toBe(5_000);
  });
  it('counts from the total it had when paid, after earlier edits', () => {
    const history = [placed, entry('total', 20_000, 18_000), paid, entry('total', 18_000, 30_000)];
    expect(balanceDue({ total: 30_000, paymentStatus: 'paid', history })).toBe(12_000);
  });
  it('is nothing for an unpaid order, an order that did not grow, or one that shrank', () => {
    expect(
      balanceDue({ total: 25_000, paymentStatus: 'unpaid', history: [placed, entry('total', 20_000, 25_000)] }),
    ).toBe(0);
    expect(balanceDue({ total: 20_000, paymentStatus: 'paid', history: [placed, paid] })).toBe(0);
    expect(
      balanceDue({ total: 15_000, paymentStatus: 'paid', history: [placed, paid, entry('total', 20_000, 15_000)] }),
    ).toBe(0);
  });
});

describe('historyLine of the driver\'s "No recibió" (issue 27)', () => {
  it('reads the reason in Spanish, and its clearing', () => {
    const driver = { uid: 'd', name: 'Wilson', role: 'delivery_assistant' };
    const failed = { ...entry('notReceived', null, { reason: 'other', details: 'Portería cerrada' }), by: driver };
    expect(historyLine(failed, [], 'America/Bogota')).toMatchObject({
      who: 'Wilson (domicilios)',
      what: 'No recibió: — → Otro: Portería cerrada',
    });
    const cleared = entry('notReceived', { reason: 'nobody_home', details: null }, null);
    expect(historyLine(cleared, [], 'America/Bogota').what).toBe('No recibió: No había nadie → —');
  });
});
