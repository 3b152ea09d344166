import { describe, expect, it } from 'vitest';
import { BOOKING_HORIZON_DAYS } from './constants';
import { lastBookableDay, phoneKey } from './order-bounds';

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
