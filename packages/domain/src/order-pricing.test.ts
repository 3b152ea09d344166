import { describe, expect, it } from 'vitest';
import { lessPercent, orderLine, orderTotals, unitPriceFor } from './order-pricing';

const pan = { id: 'pan', name: 'Pan', price: 2500, b2bPrice: null };
const torta = { id: 'torta', name: 'Torta', price: 42_000, b2bPrice: 35_000 };

describe('order pricing (docs/design.md §5)', () => {
  it('charges the list price without a B2B client', () => {
    expect(unitPriceFor(torta, null)).toBe(42_000);
  });

  it("uses the client's own price, else b2bPrice, else the list less the discount", () => {
    const client = { discountPercent: 10, prices: [{ productId: 'torta', price: 30_000 }] };
    expect(unitPriceFor(torta, client)).toBe(30_000);
    expect(unitPriceFor(torta, { ...client, prices: [] })).toBe(35_000);
    expect(unitPriceFor(pan, client)).toBe(2250);
  });

  it('rounds a percent discount half up to whole units', () => {
    expect(lessPercent(2505, 10)).toBe(2255); // 2254.5 → 2255
    expect(lessPercent(999, 12.5)).toBe(874); // 874.125
    expect(lessPercent(1001, 50)).toBe(501); // 500.5 → 501
    expect(lessPercent(3333, 33.33)).toBe(2222); // 2222.1111
    expect(lessPercent(100, 0)).toBe(100);
    expect(lessPercent(100, 100)).toBe(0);
  });

  it('totals lines, the delivery fee and free delivery', () => {
    const settings = { deliveryFee: 5000, freeDeliveryFrom: 50_000, minimumOrder: 0 };
    const lines = [orderLine(pan, null, 4, null)];
    expect(orderTotals(lines, 'delivery', settings)).toEqual({
      subtotal: 10_000,
      discount: 0,
      deliveryFee: 5000,
      total: 15_000,
    });
    expect(orderTotals(lines, 'pickup', settings).deliveryFee).toBe(0);
    expect(orderTotals([orderLine(pan, null, 20, null)], 'delivery', settings).deliveryFee).toBe(0);
  });
});
