import { describe, expect, it } from 'vitest';
import { moveAndRenumber } from './reorder';

const list = (...orders: number[]) => orders.map((sortOrder, i) => ({ id: `c${i}`, sortOrder }));

describe('moveAndRenumber', () => {
  it('swaps a record with its neighbour and sends only the orders that change', () => {
    expect(moveAndRenumber(list(1, 2, 3), 'c2', -1)).toEqual([
      { id: 'c2', data: { sortOrder: 2 } },
      { id: 'c1', data: { sortOrder: 3 } },
    ]);
    expect(moveAndRenumber(list(1, 2, 3), 'c0', 1)).toEqual([
      { id: 'c1', data: { sortOrder: 1 } },
      { id: 'c0', data: { sortOrder: 2 } },
    ]);
  });

  it('renumbers ties and gaps so the move shows', () => {
    expect(moveAndRenumber(list(0, 0, 0), 'c1', -1)).toEqual([
      { id: 'c1', data: { sortOrder: 1 } },
      { id: 'c0', data: { sortOrder: 2 } },
      { id: 'c2', data: { sortOrder: 3 } },
    ]);
    expect(moveAndRenumber(list(10, 20), 'c1', -1)).toEqual([
      { id: 'c1', data: { sortOrder: 1 } },
      { id: 'c0', data: { sortOrder: 2 } },
    ]);
  });

  it('does nothing past the ends or for an unknown id', () => {
    expect(moveAndRenumber(list(1, 2), 'c0', -1)).toEqual([]);
    expect(moveAndRenumber(list(1, 2), 'c1', 1)).toEqual([]);
    expect(moveAndRenumber(list(1, 2), 'zz', 1)).toEqual([]);
  });
});
