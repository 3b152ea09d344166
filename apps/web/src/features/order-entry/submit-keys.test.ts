import { describe, expect, it } from 'vitest';
import { createSubmitKeys, SUBMIT_KEY_TTL_MS, type KeyStorage } from './submit-keys';

/** A stand-in for local storage that two "tabs" share. */
function sharedStorage(): KeyStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    get length() {
      return items.size;
    },
    key: (i) => [...items.keys()][i] ?? null,
    getItem: (n) => items.get(n) ?? null,
    setItem: (n, v) => void items.set(n, v),
    removeItem: (n) => void items.delete(n),
  };
}

const order = { contact: { name: 'Ana' }, items: [{ productId: 'pan', quantity: 2 }] };

function setup() {
  const storage = sharedStorage();
  let n = 0;
  let time = 1_000_000;
  const newKey = () => `clave-${++n}`;
  const clock = { now: () => time, advance: (ms: number) => (time += ms) };
  return { storage, clock, tab: () => createSubmitKeys(storage, newKey, clock.now) };
}

describe('submit keys of staff order entry', () => {
  it('reuses the key when the same order is sent again, until it is created', () => {
    const { tab } = setup();
    const keys = tab();
    const first = keys.keyFor('c1', order);
    expect(keys.keyFor('c1', structuredClone(order))).toBe(first);
    keys.settle('c1', order);
    expect(keys.keyFor('c1', order)).not.toBe(first);
  });

  it('gives a changed order, or another bakery, a new key', () => {
    const { tab } = setup();
    const keys = tab();
    const first = keys.keyFor('c1', order);
    expect(keys.keyFor('c1', { ...order, notes: 'otra' })).not.toBe(first);
    expect(keys.keyFor('c2', order)).not.toBe(first);
  });

  it('shares the key with another tab submitting the same order meanwhile', () => {
    const { tab } = setup();
    const a = tab();
    const b = tab();
    expect(b.keyFor('c1', order)).toBe(a.keyFor('c1', order));
  });

  it('makes keys the API takes (8 to 200 printable characters)', () => {
    const key = createSubmitKeys().keyFor('c1', order);
    expect(key).toMatch(/^[0-9a-f]{32}$/);
  });

  it('forgets keys after the 24 hours the server keeps them', () => {
    const { tab, clock, storage } = setup();
    const keys = tab();
    const first = keys.keyFor('c1', order);
    keys.keyFor('c1', { ...order, notes: 'abandonado' });
    clock.advance(SUBMIT_KEY_TTL_MS);
    expect(keys.keyFor('c1', order)).not.toBe(first);
    expect(storage.items.size).toBe(1);
  });
});
