import { describe, expect, it } from 'vitest';
import { deliveryFeeFor, priceLines, totalsOf, type CatalogueProduct } from './pricing';

const product = (id: string, price: number, extra: Partial<CatalogueProduct> = {}): CatalogueProduct => ({
  id,
  name: id,
  price,
  images: [],
  active: true,
  deleted: false,
  ...extra,
});

describe('pricing', () => {
  const catalogue = new Map([
    ['pan', product('pan', 2500)],
    ['off', product('off', 9000, { active: false })],
    ['gone', product('gone', 100, { deleted: true })],
  ]);
  const settings = { deliveryFee: 5000, freeDeliveryFrom: 50_000, minimumOrder: 20_000 };

  it('prices lines from the catalogue and flags unavailable ones at 0', () => {
    const lines = priceLines(
      [
        { productId: 'pan', quantity: 3 },
        { productId: 'off', quantity: 1 },
        { productId: 'gone', quantity: 1 },
        { productId: 'missing', quantity: 1 },
      ],
      catalogue,
    );
    expect(lines.map((l) => [l.unitPrice, l.lineTotal, l.available])).toEqual([
      [2500, 7500, true],
      [9000, 0, false],
      [100, 0, false],
      [0, 0, false],
    ]);
    expect(totalsOf(lines, 'delivery', settings)).toEqual({
      subtotal: 7500,
      deliveryFee: 5000,
      total: 12_500,
      minimumOrder: 20_000,
      missingForMinimum: 12_500,
    });
  });

  it('charges delivery below the free amount only, never for pickup or nothing', () => {
    expect(deliveryFeeFor(49_999, 'delivery', settings)).toBe(5000);
    expect(deliveryFeeFor(50_000, 'delivery', settings)).toBe(0);
    expect(deliveryFeeFor(10, 'pickup', settings)).toBe(0);
    expect(deliveryFeeFor(0, 'delivery', settings)).toBe(0);
    expect(deliveryFeeFor(1_000_000, 'delivery', { ...settings, freeDeliveryFrom: null })).toBe(5000);
  });
});
