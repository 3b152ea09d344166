import { describe, expect, it } from 'vitest';
import { dayInZone, dayStartInZone, isDayWithinYears } from './days';

describe('days in a time zone', () => {
  it('gives the instant a day starts there (docs/design.md §3) and the day an instant falls on', () => {
    expect(dayStartInZone('2026-11-22', 'America/Bogota').toISOString()).toBe('2026-11-22T05:00:00.000Z');
    expect(dayInZone(new Date('2026-11-22T05:00:00.000Z'), 'America/Bogota')).toBe('2026-11-22');
    expect(dayInZone(new Date('2026-11-22T04:59:59.000Z'), 'America/Bogota')).toBe('2026-11-21');
    expect(dayStartInZone('2026-01-01', 'UTC').toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });

  it('follows daylight saving time', () => {
    // Madrid: +01:00 in winter, +02:00 from 29 March 2026.
    expect(dayStartInZone('2026-01-15', 'Europe/Madrid').toISOString()).toBe('2026-01-14T23:00:00.000Z');
    expect(dayStartInZone('2026-07-15', 'Europe/Madrid').toISOString()).toBe('2026-07-14T22:00:00.000Z');
    for (const day of ['2026-03-29', '2026-10-25', '2026-12-31']) {
      expect(dayInZone(dayStartInZone(day, 'Europe/Madrid'), 'Europe/Madrid')).toBe(day);
    }
  });
});

describe('isDayWithinYears', () => {
  it('takes the days of 2000 to 2100 and nothing else', () => {
    for (const day of ['2000-01-01', '2026-11-28', '2100-12-31']) expect(isDayWithinYears(day), day).toBe(true);
    for (const day of ['1999-12-31', '2101-01-01', '9999-12-31', '0001-01-01', '10000-01-01', 'ayer']) {
      expect(isDayWithinYears(day), day).toBe(false);
    }
  });
});
