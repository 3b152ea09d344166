import type { ProductionOrder } from '@hornada/domain/production';
import { describe, expect, it } from 'vitest';
import { dayFromNow, formatAmount, nextOrderFor, producePatches, progressOf, shortageText } from './production-view';

const order = (over: Partial<ProductionOrder> = {}): ProductionOrder => ({
  id: 'o1',
  number: 1001,
  status: 'confirmed',
  customer: 'Ana',
  dueDate: '2026-11-25',
  window: 'am',
  windowLabel: 'Mañana',
  fulfillment: 'delivery',
  notes: null,
  items: [
    { productId: 'pan', name: 'Pan', quantity: 3 },
    { productId: 'torta', name: 'Torta', quantity: 1 },
  ],
  producedQuantities: {},
  ...over,
});

describe('production view', () => {
  it('says a shortage as a baker does, with a decimal comma and kilos for grams past 1,000', () => {
    expect(shortageText({ name: 'Harina', unit: 'kg', shortage: 2.4 })).toBe('Faltan 2,4 kg de harina');
    expect(shortageText({ name: 'Mantequilla', unit: 'g', shortage: 1500 })).toBe('Faltan 1,5 kg de mantequilla');
    expect(shortageText({ name: 'Huevo', unit: 'unidad', shortage: 1 })).toBe('Falta 1 unidad de huevo');
    expect(formatAmount(600, 'ml')).toBe('600 ml');
    expect(formatAmount(2500, 'ml')).toBe('2,5 l');
  });

  it('counts progress in whole percent, capped at 100', () => {
    expect(progressOf({ quantity: 3, produced: 1 })).toBe(33);
    expect(progressOf({ quantity: 3, produced: 5 })).toBe(100);
    expect(progressOf({ quantity: 0, produced: 0 })).toBe(0);
  });

  it('moves a confirmed order into production before writing what is made, and to ready with the last unit', () => {
    expect(producePatches(order(), ['pan'], 1)).toEqual([
      { status: 'in_production' },
      { producedQuantities: { pan: 1 } },
    ]);
    const almost = order({ status: 'in_production', producedQuantities: { pan: 3 } });
    expect(producePatches(almost, ['torta'])).toEqual([{ producedQuantities: { pan: 3, torta: 1 }, status: 'ready' }]);
    // Nothing to do: already made, or not confirmed yet.
    expect(producePatches(almost, ['pan'])).toEqual([]);
    expect(producePatches(order({ status: 'pending' }), ['pan'])).toEqual([]);
  });

  it('sends a tap to the first order still missing the product', () => {
    const done = order({ id: 'a', status: 'ready', producedQuantities: { pan: 3, torta: 1 } });
    const waiting = order({ id: 'b', status: 'pending' });
    const next = order({ id: 'c', status: 'in_production', producedQuantities: { pan: 3 } });
    const last = order({ id: 'd' });
    expect(nextOrderFor([done, waiting, next, last], 'pan')?.id).toBe('d');
    expect(nextOrderFor([done, waiting, next, last], 'torta')?.id).toBe('c');
  });

  it("gives today's and tomorrow's day in Bogotá", () => {
    // 23:30 on the 24th in Bogotá is already the 25th in UTC.
    const at = new Date('2026-11-25T04:30:00.000Z');
    expect(dayFromNow(0, at)).toBe('2026-11-24');
    expect(dayFromNow(1, at)).toBe('2026-11-25');
  });
});
