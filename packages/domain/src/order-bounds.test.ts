import { describe, expect, it } from 'vitest';
import { BOOKING_HORIZON_DAYS } from './constants';
import { lastBookableDay, phoneKey, windowShareOf } from './order-bounds';

describe('phoneKey', () => {
  it('reads one phone however it is written: digits only, the last ten', () => {
    const written = ['310 555 0101', '+57 310 555 0101', '310-555-0101', '(310) 5550101', '573105550101'];
    expect(new Set(written.map(phoneKey))).toEqual(new Set(['3105550101']));
    expect(phoneKey('601 555 01')).toBe('60155501');
  });

  it('keeps no letters nor non-ASCII digits (as the SQL twin, [^0-9])', () => {
    expect(phoneKey('tel. ٣١٠ abc')).toBe('');
    expect(phoneKey('')).toBe('');
  });
});

describe('lastBookableDay', () => {
  it(`is today + ${BOOKING_HORIZON_DAYS - 1}, across months and years`, () => {
    expect(lastBookableDay('2026-11-23')).toBe('2027-01-23');
    expect(lastBookableDay('2028-01-01')).toBe('2028-03-02');
  });
});

describe('windowShareOf', () => {
  it('is half of the places rounded up, at least one: one address never takes a small window alone', () => {
    expect([1, 2, 3, 5, 20].map((c) => windowShareOf(c, 50))).toEqual([1, 1, 2, 3, 10]);
    for (const capacity of [2, 3, 5, 20]) expect(windowShareOf(capacity, 50)).toBeLessThan(capacity);
    expect(windowShareOf(5, 100)).toBe(5);
    expect(windowShareOf(10, 25)).toBe(3);
  });
});
