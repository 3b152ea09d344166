import { describe, expect, it, vi } from 'vitest';
import { CART_STORAGE_KEY, MAX_LINES, countItems, createCartStore, readStoredCart, type KeyValue } from './cart-store';

function memory(initial: Record<string, string> = {}): KeyValue & { data: Record<string, string> } {
  const data = { ...initial };
  return {
    data,
    getItem: (k) => data[k] ?? null,
    setItem: (k, v) => void (data[k] = v),
    removeItem: (k) => void delete data[k],
  };
}

describe('cart store', () => {
  it('adds, merges the same product, changes quantities within 1 to 1,000 and removes', () => {
    const store = createCartStore(memory());
    store.getState().add('a');
    store.getState().add('b', 2);
    store.getState().add('a', 3);
    expect(store.getState().lines).toEqual([
      { productId: 'a', quantity: 4 },
      { productId: 'b', quantity: 2 },
    ]);
    store.getState().setQuantity('a', 5000);
    expect(store.getState().lines[0]!.quantity).toBe(1000);
    store.getState().add('a', 10);
    expect(store.getState().lines[0]!.quantity).toBe(1000);
    store.getState().setQuantity('b', 2.7);
    expect(store.getState().lines[1]!.quantity).toBe(2);
    store.getState().setQuantity('b', 0);
    expect(store.getState().lines.map((l) => l.productId)).toEqual(['a']);
    store.getState().remove('a');
    expect(store.getState().lines).toEqual([]);
    expect(
      countItems([
        { productId: 'x', quantity: 2 },
        { productId: 'y', quantity: 3 },
      ]),
    ).toBe(5);
  });

  it('follows another tab: an order placed there empties this tab’s cart, which does not write it back', () => {
    // The browser's window as far as the store listens to it (these tests run in node).
    const tab = new EventTarget();
    vi.stubGlobal('window', tab);
    try {
      const storage = memory();
      const store = createCartStore(storage);
      store.getState().add('a', 2);
      store.getState().replace({ cartId: 'cart-1' });
      const emptied = JSON.stringify({ lines: [], cartId: null });
      storage.data[CART_STORAGE_KEY] = emptied;
      tab.dispatchEvent(Object.assign(new Event('storage'), { key: CART_STORAGE_KEY, newValue: emptied }));
      expect(store.getState()).toMatchObject({ lines: [], cartId: null });
      expect(storage.data[CART_STORAGE_KEY]).toBe(emptied);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('survives a reload through storage, and starts empty from anything that is not a cart', () => {
    const storage = memory();
    const first = createCartStore(storage);
    first.getState().add('a', 2);
    first.getState().replace({ cartId: 'cart-1' });
    const second = createCartStore(storage);
    expect(second.getState().lines).toEqual([{ productId: 'a', quantity: 2 }]);
    expect(second.getState().cartId).toBe('cart-1');

    for (const text of ['not json', '{"lines": 3}', 'null', '[]']) {
      expect(readStoredCart(text)).toEqual({ lines: [], cartId: null });
    }
    const cleaned = readStoredCart(
      JSON.stringify({ lines: [{ productId: 'a', quantity: -4 }, { productId: 7, quantity: 1 }, { quantity: 1 }] }),
    );
    expect(cleaned.lines).toEqual([{ productId: 'a', quantity: 1 }]);
    expect(createCartStore(memory({ [CART_STORAGE_KEY]: '{' })).getState().lines).toEqual([]);
  });

  it('refuses a 101st line but still adds to a line it has', () => {
    const store = createCartStore(null);
    for (let i = 0; i < MAX_LINES; i++) expect(store.getState().add(`p${i}`)).toBe(true);
    expect(store.getState().add('one-more')).toBe(false);
    expect(store.getState().add('p0')).toBe(true);
    expect(store.getState().lines).toHaveLength(MAX_LINES);
    store.getState().clear();
    expect(store.getState()).toMatchObject({ lines: [], cartId: null });
  });
});
