import { describe, expect, it } from 'vitest';
import { addDays } from './order-days';
import { daysInRange, presetRange, previousRange } from './sales-report';

describe('sales report ranges', () => {
  it('counts days both ends included, across a leap February', () => {
    expect(daysInRange('2026-11-25', '2026-11-25')).toBe(1);
    expect(daysInRange('2028-01-01', '2028-12-31')).toBe(366);
    expect(daysInRange('2026-11-26', '2026-11-25')).toBe(0);
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
  });

  it('compares with the period of the same length just before', () => {
    expect(previousRange('2026-11-01', '2026-11-30')).toEqual({ from: '2026-10-02', to: '2026-10-31' });
    expect(previousRange('2026-11-25', '2026-11-25')).toEqual({ from: '2026-11-24', to: '2026-11-24' });
  });

  it('makes each preset from today, the week from Monday', () => {
    const today = '2026-11-25'; // a Wednesday
    expect(presetRange('today', today)).toEqual({ from: today, to: today });
    expect(presetRange('week', today)).toEqual({ from: '2026-11-23', to: today });
    expect(presetRange('week', '2026-11-23')).toEqual({ from: '2026-11-23', to: '2026-11-23' });
    expect(presetRange('week', '2026-11-29')).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(presetRange('month', today)).toEqual({ from: '2026-11-01', to: today });
    expect(presetRange('last30', today)).toEqual({ from: '2026-10-27', to: today });
    expect(presetRange('lastMonth', today)).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(presetRange('lastMonth', '2026-01-15')).toEqual({ from: '2025-12-01', to: '2025-12-31' });
    expect(presetRange('year', today)).toEqual({ from: '2026-01-01', to: today });
  });
});
