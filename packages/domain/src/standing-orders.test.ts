import { describe, expect, it } from 'vitest';
import { dueStandingDays, entersHorizonAt, nextStandingDays, type HorizonSettings } from './standing-orders';

const S: HorizonSettings = {
  timeZone: 'America/Bogota',
  orderLeadHours: 12,
  productionLeadDays: 1,
  deliveryDays: [1, 2, 3, 4, 5, 6],
  deliveryWindows: [{ id: 'am', label: 'Mañana', start: '08:00', end: '12:00', capacity: null }],
  blackoutDates: ['2026-12-25'],
};
const T = {
  weekdays: [1, 2, 3, 4, 5],
  window: 'am',
  startsOn: '2026-11-01',
  endsOn: null,
  skipDates: ['2026-12-24'],
  active: true,
};

describe('standing order days', () => {
  it('enters the horizon at the earlier of the lead hours and the production lead days', () => {
    // Thursday 26 Nov 08:00 Bogotá is 13:00 UTC; 12 h before is 01:00 UTC; the day before starts 05:00 UTC on the 25th.
    expect(entersHorizonAt(S, '2026-11-26', 'am')!.toISOString()).toBe('2026-11-25T05:00:00.000Z');
    expect(entersHorizonAt({ ...S, productionLeadDays: 0 }, '2026-11-26', 'am')!.toISOString()).toBe(
      '2026-11-26T01:00:00.000Z',
    );
    expect(entersHorizonAt(S, '2026-11-26', 'nope')).toBeNull();
  });

  it('makes the days in the horizon whose window has not opened, leaving skips, blackouts and other weekdays out', () => {
    // Wednesday 25 Nov 10:00 Bogotá: Thursday 26 is in the horizon (since the 25th began), Friday 27 not yet.
    expect(dueStandingDays(T, S, new Date('2026-11-25T15:00:00Z'))).toEqual(['2026-11-26']);
    // 24 Dec (skip) and 25 Dec (blackout) are never due.
    expect(dueStandingDays(T, S, new Date('2026-12-23T15:00:00Z'))).toEqual([]);
    expect(dueStandingDays(T, S, new Date('2026-12-24T15:00:00Z'))).toEqual([]);
    // Past the window's start the day is not made after the fact.
    expect(dueStandingDays(T, S, new Date('2026-11-26T14:00:00Z'))).toEqual(['2026-11-27']);
    expect(dueStandingDays({ ...T, active: false }, S, new Date('2026-11-25T15:00:00Z'))).toEqual([]);
    expect(dueStandingDays({ ...T, endsOn: '2026-11-25' }, S, new Date('2026-11-25T15:00:00Z'))).toEqual([]);
  });

  it('lists the next days it orders on', () => {
    // Monday 21 Dec 06:00 Bogotá: that morning's window (08:00) is still ahead.
    expect(nextStandingDays(T, S, new Date('2026-12-21T11:00:00Z'), 4)).toEqual([
      '2026-12-21',
      '2026-12-22',
      '2026-12-23',
      '2026-12-28',
    ]);
    // At 09:00 it has opened: the list starts the next day.
    expect(nextStandingDays(T, S, new Date('2026-12-21T14:00:00Z'), 1)).toEqual(['2026-12-22']);
  });
});
