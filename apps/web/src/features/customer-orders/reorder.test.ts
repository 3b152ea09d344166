import { describe, expect, it } from 'vitest';
import { planReorder, spanishList } from './reorder';

describe('planReorder', () => {
  const items = [
    { productId: 'pan', name: 'Pan campesino', quantity: 2 },
    { productId: 'torta', name: 'Torta de chocolate', quantity: 1 },
    { productId: 'pan', name: 'Pan campesino', quantity: 3 },
    { productId: 'gone', name: 'Baguette', quantity: 4 },
    { productId: 'gone', name: 'Baguette', quantity: 1 },
  ];

  it('keeps what is on sale, one line a product, and names what is not once', () => {
    expect(planReorder(items, new Set(['pan', 'torta']))).toEqual({
      lines: [
        { productId: 'pan', quantity: 5 },
        { productId: 'torta', quantity: 1 },
      ],
      skipped: ['Baguette'],
    });
  });

  it('caps a line at the cart’s 1,000', () => {
    const many = [
      { productId: 'pan', name: 'Pan', quantity: 900 },
      { productId: 'pan', name: 'Pan', quantity: 900 },
    ];
    expect(planReorder(many, new Set(['pan'])).lines).toEqual([{ productId: 'pan', quantity: 1000 }]);
  });

  it('nothing on sale: no lines', () => {
    expect(planReorder(items, new Set())).toEqual({
      lines: [],
      skipped: ['Pan campesino', 'Torta de chocolate', 'Baguette'],
    });
  });
});

describe('spanishList', () => {
  it('joins names as Spanish does', () => {
    expect(spanishList([])).toBe('');
    expect(spanishList(['A'])).toBe('A');
    expect(spanishList(['A', 'B'])).toBe('A y B');
    expect(spanishList(['A', 'B', 'C'])).toBe('A, B y C');
  });
});
