import { describe, expect, it } from 'vitest';
import { CART_MAX_LINES } from './constants';
import { mergeReorder } from './reorder';
import { endSentence } from './text';

describe('mergeReorder ("Pedir de nuevo")', () => {
  const order = [
    { productId: 'pan', name: 'Pan campesino', quantity: 2 },
    { productId: 'torta', name: 'Torta de chocolate', quantity: 1 },
    { productId: 'pan', name: 'Pan campesino', quantity: 3 },
    { productId: 'gone', name: 'Baguette', quantity: 4 },
    { productId: 'gone', name: 'Baguette', quantity: 1 },
  ];
  const onSale = new Set(['pan', 'torta', 'galleta']);

  it('into an empty cart: the order’s products on sale, one line each, what is not named once', () => {
    expect(mergeReorder([], order, onSale)).toEqual({
      lines: [
        { productId: 'pan', quantity: 5 },
        { productId: 'torta', quantity: 1 },
      ],
      added: ['Pan campesino', 'Torta de chocolate'],
      merged: [],
      skipped: ['Baguette'],
      full: [],
    });
  });

  it('never duplicates a product already in the cart: one line with the larger quantity; others kept', () => {
    const cart = [
      { productId: 'galleta', quantity: 6 },
      { productId: 'pan', quantity: 3 },
      { productId: 'torta', quantity: 4 },
    ];
    const once = mergeReorder(cart, order, onSale);
    expect(once.lines).toEqual([
      { productId: 'galleta', quantity: 6 },
      { productId: 'pan', quantity: 5 },
      { productId: 'torta', quantity: 4 },
    ]);
    expect(once).toMatchObject({ added: [], merged: ['Pan campesino', 'Torta de chocolate'] });
    // Twice is the same as once: nothing doubles.
    expect(mergeReorder(once.lines, order, onSale).lines).toEqual(once.lines);
    expect(cart[1]).toEqual({ productId: 'pan', quantity: 3 });
  });

  it('caps a line at 1,000 and leaves out what does not fit in 100 lines', () => {
    const many = [
      { productId: 'pan', name: 'Pan', quantity: 900 },
      { productId: 'pan', name: 'Pan', quantity: 900 },
    ];
    expect(mergeReorder([], many, onSale).lines).toEqual([{ productId: 'pan', quantity: 1000 }]);
    const full = Array.from({ length: CART_MAX_LINES }, (_, i) => ({ productId: `p${i}`, quantity: 1 }));
    expect(mergeReorder(full, order, onSale)).toMatchObject({
      lines: full,
      full: ['Pan campesino', 'Torta de chocolate'],
    });
  });
});

describe('endSentence', () => {
  it('ends with one period, never two after a name that ends in one', () => {
    expect(endSentence('Precios de Café La Macarena S.A.S.')).toBe('Precios de Café La Macarena S.A.S.');
    expect(endSentence('Precios de Hotel Casa de la Sabana')).toBe('Precios de Hotel Casa de la Sabana.');
    expect(endSentence('Lo recoges el jueves 26 de nov.')).toBe('Lo recoges el jueves 26 de nov.');
    expect(endSentence('¿Listo?')).toBe('¿Listo?');
    expect(endSentence('Dijo «ya voy…»')).toBe('Dijo «ya voy…»');
    expect(endSentence('Pan de yuca  ')).toBe('Pan de yuca.');
    expect(endSentence('')).toBe('');
  });
});
