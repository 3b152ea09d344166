import { describe, expect, it } from 'vitest';
import { defaultVisibility, mergeVisibility, readVisibility, visibilityKey } from './columns';

const columns = [
  { id: 'name', fixed: true },
  { id: 'price' },
  { id: 'collection', hideOnPhone: true },
  { id: 'actions', fixed: true },
];

describe('column choice', () => {
  it('shows everything on a wide screen and hides the minor columns on a phone', () => {
    expect(defaultVisibility(columns, false)).toEqual({ name: true, price: true, collection: true, actions: true });
    expect(defaultVisibility(columns, true)).toEqual({ name: true, price: true, collection: false, actions: true });
  });

  it('applies a stored choice, never hiding a fixed column or inventing one', () => {
    expect(mergeVisibility(columns, true, { collection: true, price: false, name: false, ghost: true })).toEqual({
      name: true,
      price: false,
      collection: true,
      actions: true,
    });
    expect(mergeVisibility(columns, true, 'nonsense')).toEqual(defaultVisibility(columns, true));
  });

  it('reads the choice of that table and screen kind, ignoring what cannot be read', () => {
    const store = new Map([[visibilityKey('products', true), '{"collection":true}']]);
    const storage = { getItem: (key: string) => store.get(key) ?? null };
    expect(readVisibility(storage, 'products', columns, true).collection).toBe(true);
    expect(readVisibility(storage, 'products', columns, false).collection).toBe(true);
    expect(readVisibility(storage, 'brands', columns, true).collection).toBe(false);
    store.set(visibilityKey('products', true), '{broken');
    expect(readVisibility(storage, 'products', columns, true).collection).toBe(false);
    expect(readVisibility(null, 'products', columns, true).collection).toBe(false);
  });
});
