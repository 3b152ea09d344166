import { slotKey } from '@hornada/domain/order-days';
import type { OfferedDay } from '@hornada/domain/schemas/orders';
import { describe, expect, it } from 'vitest';
import { countSlots, creditCheck, dayChoices, leadDays, paymentChoices, priceRuleOf } from './entry-rules';

/** Monday 23 Nov 2026, 10:00 in Bogotá; lead time 24 h; Monday to Saturday; Wednesday a blackout date. */
const NOW = new Date('2026-11-23T15:00:00.000Z');
const SETTINGS = {
  timeZone: 'America/Bogota',
  orderLeadHours: 24,
  deliveryDays: [1, 2, 3, 4, 5, 6],
  blackoutDates: ['2026-11-25'],
  deliveryWindows: [
    { id: 'am', label: 'Mañana', start: '08:00', end: '11:00', capacity: 2 },
    { id: 'pm', label: 'Tarde', start: '14:00', end: '18:00', capacity: null },
  ],
};
const window = (id: string, capacity: number | null, remaining: number | null) => ({
  id,
  label: id,
  start: '08:00',
  end: '11:00',
  capacity,
  remaining,
});

describe('dayChoices', () => {
  // What delivery-days answers at that moment: Tuesday's afternoon on (Tuesday 8:00 is within 24 h).
  const offered: OfferedDay[] = [
    { date: '2026-11-24', dueDate: '2026-11-24T05:00:00.000Z', windows: [window('pm', null, null)] },
    {
      date: '2026-11-26',
      dueDate: '2026-11-26T05:00:00.000Z',
      windows: [window('am', 2, 0), window('pm', null, null)],
    },
  ];

  it('offers today and later delivery days with every window, marking those within the lead time', () => {
    const taken = new Map([[slotKey('2026-11-24', 'am'), 2]]);
    const days = dayChoices(SETTINGS, offered, NOW, 4, taken);
    // Monday (today), Tuesday, Thursday: Wednesday is a blackout date.
    expect(days.map((d) => d.date)).toEqual(['2026-11-23', '2026-11-24', '2026-11-26']);
    expect(days[0]!.windows.map((w) => [w.id, w.late, w.full])).toEqual([
      ['am', true, false],
      ['pm', true, false],
    ]);
    // Tuesday morning is late and, with its 2 places taken, full; the afternoon is as delivery-days says.
    expect(days[1]!.windows).toEqual([
      { id: 'am', label: 'En la mañana (8:00–11:00)', capacity: 2, remaining: 0, late: true, full: true },
      { id: 'pm', label: 'Tarde (14:00–18:00)', capacity: null, remaining: null, late: false, full: false },
    ]);
    expect(days[2]!.windows.map((w) => [w.id, w.late, w.full])).toEqual([
      ['am', false, true],
      ['pm', false, false],
    ]);
  });

  it('never offers a closed day, and a bakery without windows gets one all-day window', () => {
    const sunday = new Date('2026-11-22T15:00:00.000Z');
    const days = dayChoices({ ...SETTINGS, deliveryWindows: [] }, [], sunday, 2, new Map());
    expect(days).toEqual([
      {
        date: '2026-11-23',
        windows: [{ id: null, label: 'Todo el día', capacity: null, remaining: null, late: true, full: false }],
      },
    ]);
  });
});

describe('slots', () => {
  it('counts the days within the lead time, by the day in the bakery zone', () => {
    expect(leadDays(SETTINGS, NOW)).toEqual({ from: '2026-11-23', to: '2026-11-24' });
    const counts = countSlots(
      [
        { dueDate: '2026-11-24T05:00:00.000Z', window: 'am' },
        { dueDate: '2026-11-24T05:00:00.000Z', window: 'am' },
        { dueDate: '2026-11-23T05:00:00.000Z', window: null },
      ],
      'America/Bogota',
    );
    expect([...counts]).toEqual([
      [slotKey('2026-11-24', 'am'), 2],
      [slotKey('2026-11-23', null), 1],
    ]);
  });
});

describe('prices, payment and credit', () => {
  const client = { discountPercent: 8, prices: [{ productId: 'a', price: 2000 }] };
  it('names the B2B rule that gives the price', () => {
    expect(priceRuleOf({ id: 'a', name: 'A', price: 2500, b2bPrice: 2100 }, client)).toBe('client');
    expect(priceRuleOf({ id: 'b', name: 'B', price: 2500, b2bPrice: 2100 }, client)).toBe('b2b');
    expect(priceRuleOf({ id: 'c', name: 'C', price: 2500, b2bPrice: null }, client)).toBe('discount');
    expect(priceRuleOf({ id: 'a', name: 'A', price: 2500, b2bPrice: 2100 }, null)).toBeNull();
  });

  it('offers the bakery’s cash and transfer, and credit to a B2B client', () => {
    expect(paymentChoices(['cash', 'transfer', 'online'], false)).toEqual(['cash', 'transfer']);
    expect(paymentChoices(['transfer'], true)).toEqual(['credit', 'transfer']);
    expect(paymentChoices(['online'], false)).toEqual(['cash']);
  });

  it('warns when unpaid credit plus this order passes the limit, and not without a limit', () => {
    expect(creditCheck(100_000, 80_000, 30_000, true)).toEqual({
      limit: 100_000,
      used: 80_000,
      after: 110_000,
      over: true,
    });
    expect(creditCheck(100_000, 80_000, 30_000, false)).toMatchObject({ after: 80_000, over: false });
    expect(creditCheck(100_000, 70_000, 30_000, true)).toMatchObject({ over: false });
    expect(creditCheck(0, 80_000, 30_000, true)).toBeNull();
  });
});
