import { describe, expect, it } from 'vitest';
import { reorderToast, spanishList } from './reorder';

const none = { added: [], merged: [], skipped: [], full: [] };

describe('reorderToast', () => {
  it('says the order is in the cart when all was added', () => {
    expect(reorderToast(12, { ...none, added: ['Pan'] }, 100)).toEqual({
      type: 'success',
      message: 'Pusimos en tu carrito los productos del pedido #12, con los precios de hoy.',
    });
  });

  it('says what was already in the cart and was not repeated', () => {
    const toast = reorderToast(12, { ...none, added: ['Pan'], merged: ['Torta S.A.S.', 'Galleta'] }, 100);
    expect(toast.type).toBe('success');
    expect(toast.message).toBe(
      'Torta S.A.S. y Galleta ya estaban en tu carrito: no los repetimos, quedaron con la cantidad mayor.',
    );
    expect(reorderToast(12, { ...none, merged: ['Pan'] }, 100)).toMatchObject({
      title: 'Tu carrito ya tenía los productos del pedido #12.',
      message: 'Pan ya estaba en tu carrito: no lo repetimos, quedó con la cantidad mayor.',
    });
  });

  it('warns about what is no longer sold and what did not fit', () => {
    const toast = reorderToast(7, { ...none, added: ['Pan'], skipped: ['Baguette'], full: ['Torta'] }, 100);
    expect(toast).toMatchObject({ type: 'warning', duration: 10_000 });
    expect(toast.message).toBe(
      'Baguette ya no está disponible. Torta no cupo: tu carrito ya tiene 100 productos distintos.',
    );
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
