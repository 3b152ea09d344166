import { describe, expect, it } from 'vitest';
import { ageEs, dayEs } from './unpaid-view';

describe('unpaid view texts', () => {
  it('writes days and ages in Spanish', () => {
    expect(dayEs('2026-11-05')).toBe('05/11/2026');
    expect([ageEs(-1), ageEs(-3), ageEs(0), ageEs(1), ageEs(45)]).toEqual([
      'Vence en 1 día',
      'Vence en 3 días',
      'Vence hoy',
      '1 día vencido',
      '45 días vencido',
    ]);
  });
});
