import { describe, expect, it } from 'vitest';
import { agingBucketOf, unpaidAgeDays } from './receivables';

describe('unpaid ages', () => {
  it('counts from the due day plus the terms, across months', () => {
    expect(unpaidAgeDays('2026-10-31', 0, '2026-11-30')).toBe(30);
    expect(unpaidAgeDays('2026-10-31', 30, '2026-11-30')).toBe(0);
    expect(unpaidAgeDays('2026-12-01', 0, '2026-11-30')).toBe(-1);
  });

  it('puts the boundaries in the lower bucket and not-yet-due orders in 0-30', () => {
    expect([-5, 0, 30, 31, 60, 61, 90, 91].map(agingBucketOf)).toEqual([
      '0-30',
      '0-30',
      '0-30',
      '31-60',
      '31-60',
      '61-90',
      '61-90',
      '90+',
    ]);
  });
});
