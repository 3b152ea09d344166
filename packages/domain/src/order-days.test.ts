import { describe, expect, it } from 'vitest';
import { addDays, checkSlot, offeredDays, slotKey, weekdayOf } from './order-days';

const settings = {
  timeZone: 'America/Bogota',
  orderLeadHours: 12,
  deliveryDays: [1, 2, 3, 4, 5, 6],
  deliveryWindows: [
    { id: 'am', label: 'Mañana', start: '07:00', end: '10:00', capacity: 2 },
    { id: 'pm', label: 'Tarde', start: '14:00', end: '18:00', capacity: null },
  ],
  blackoutDates: ['2026-12-25'],
};

describe('delivery days', () => {
  it('knows weekdays and adds calendar days across months', () => {
    expect(weekdayOf('2026-11-22')).toBe(0); // a Sunday
    expect(addDays('2026-11-30', 2)).toBe('2026-12-02');
  });

  it('measures the lead time in the company zone, across midnight', () => {
    // 23:30 on Monday 23 Nov in Bogotá is 04:30 UTC on the 24th. With 12 h of lead time, Tuesday's 07:00
    // window (7.5 h away) is refused and its 14:00 window (14.5 h away) is offered.
    const now = new Date('2026-11-24T04:30:00Z');
    expect(checkSlot(settings, now, '2026-11-24', 'am', 0)).toBe('lead-time');
    expect(checkSlot(settings, now, '2026-11-24', 'pm', 0)).toBeNull();
    // UTC already says the 24th, but in Bogotá Monday the 23rd is not over: today, not a past day.
    expect(checkSlot(settings, now, '2026-11-23', 'pm', 0)).toBe('lead-time');
    // An hour later it is Tuesday in Bogotá too: Monday is past.
    const later = new Date('2026-11-24T05:30:00Z');
    expect(checkSlot(settings, later, '2026-11-23', 'pm', 0)).toBe('past');
    expect(checkSlot(settings, later, '2026-11-24', 'am', 0)).toBe('lead-time');
    const days = offeredDays(settings, now, '2026-11-24', 2, new Map());
    expect(days.map((d) => [d.date, d.windows.map((w) => w.id)])).toEqual([
      ['2026-11-24', ['pm']],
      ['2026-11-25', ['am', 'pm']],
    ]);
    expect(days[0]!.dueDate).toBe('2026-11-24T05:00:00.000Z');
  });

  it('skips non-delivery weekdays and blackout dates, and counts places', () => {
    const now = new Date('2026-12-20T12:00:00Z');
    const taken = new Map([[slotKey('2026-12-22', 'am'), 2]]);
    const days = offeredDays(settings, now, '2026-12-20', 7, taken);
    expect(days.map((d) => d.date)).toEqual(['2026-12-21', '2026-12-22', '2026-12-23', '2026-12-24', '2026-12-26']);
    expect(days.find((d) => d.date === '2026-12-22')!.windows[0]).toMatchObject({ id: 'am', remaining: 0 });
    expect(checkSlot(settings, now, '2026-12-22', 'am', 2)).toBe('capacity');
    expect(checkSlot(settings, now, '2026-12-27', 'pm', 0)).toBe('not-delivery-day');
    expect(checkSlot(settings, now, '2026-12-25', 'pm', 0)).toBe('blackout');
    expect(checkSlot(settings, now, '2026-12-23', 'night', 0)).toBe('unknown-window');
  });

  it('treats a bakery without windows as delivering all day', () => {
    const open = { ...settings, deliveryWindows: [], orderLeadHours: 0 };
    const now = new Date('2026-11-24T15:00:00Z');
    expect(checkSlot(open, now, '2026-11-25', null, 0)).toBeNull();
    expect(checkSlot(open, now, '2026-11-25', 'am', 0)).toBe('unknown-window');
    expect(offeredDays(open, now, '2026-11-25', 1, new Map())[0]!.windows[0]!.id).toBeNull();
  });
});
