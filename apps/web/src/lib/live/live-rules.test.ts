import { describe, expect, it } from 'vitest';
import { applyChangesToList, applyModified, receivedItem, type LiveChange } from './live-rules';

interface Item {
  id: string;
  name: string;
  price?: number;
  active?: boolean;
  companyId?: string;
  tags?: string[];
  image?: { path: string };
  createdAt?: Date;
}

const pan: Item = { id: 'a', name: 'Pan', price: 1000, active: true, companyId: 'c1' };
const torta: Item = { id: 'b', name: 'Torta', price: 4500, active: true, companyId: 'c1' };

function added(doc: LiveChange['doc']): LiveChange {
  return { type: 'added', doc };
}

describe("'added'", () => {
  it('appends new items when the batch has 2 changes', () => {
    const list = applyChangesToList<Item>(
      [pan],
      [added({ id: 'x', name: 'Almojábana' }), added({ id: 'y', name: 'Buñuelo' })],
      'c1',
    );
    expect(list.map((i) => i.id)).toEqual(['a', 'x', 'y']);
  });

  it('appends nothing when the batch has 3 changes (the initial load arrives as a batch)', () => {
    const items = [pan];
    const list = applyChangesToList<Item>(
      items,
      [
        added({ id: 'x', name: 'Almojábana' }),
        added({ id: 'y', name: 'Buñuelo' }),
        added({ id: 'z', name: 'Pandebono' }),
      ],
      'c1',
    );
    expect(list).toBe(items);
  });

  it('counts every change of the batch, not only the adds', () => {
    const list = applyChangesToList<Item>(
      [pan, torta],
      [
        added({ id: 'x', name: 'Almojábana' }),
        { type: 'modified', doc: { id: 'a', name: 'Pan francés' } },
        { type: 'modified', doc: { id: 'b', name: 'Torta negra' } },
      ],
      'c1',
    );
    expect(list.map((i) => [i.id, i.name])).toEqual([
      ['a', 'Pan francés'],
      ['b', 'Torta negra'],
    ]);
  });

  it('does not append an item already present', () => {
    const items = [pan];
    const list = applyChangesToList<Item>(items, [added({ id: 'a', name: 'Otro pan' })], 'c1');
    expect(list).toBe(items);
    expect(list[0]?.name).toBe('Pan');
  });

  it('adds companyId to the received item and turns its date fields into Dates', () => {
    const list = applyChangesToList<Item>(
      [],
      [added({ id: 'x', name: 'Almojábana', createdAt: '2026-11-22T05:00:00.000Z' })],
      'c9',
    );
    expect(list[0]?.companyId).toBe('c9');
    expect(list[0]?.createdAt).toEqual(new Date('2026-11-22T05:00:00.000Z'));
  });
});

describe("'modified'", () => {
  it('updates the simple fields (string, number, boolean) that differ', () => {
    const list = applyChangesToList<Item>(
      [pan, torta],
      [{ type: 'modified', doc: { id: 'a', name: 'Pan francés', price: 1200, active: false } }],
      'c1',
    );
    expect(list[0]).toEqual({ id: 'a', name: 'Pan francés', price: 1200, active: false, companyId: 'c1' });
    expect(list[1]).toBe(torta);
  });

  it('leaves non-simple fields (arrays, objects, null, dates) as they were', () => {
    const item: Item = { ...pan, tags: ['dulce'], image: { path: 'a.webp' } };
    const list = applyChangesToList<Item>(
      [item],
      [
        {
          type: 'modified',
          doc: {
            id: 'a',
            name: 'Pan',
            tags: ['salado'],
            image: { path: 'b.webp' },
            price: null,
            createdAt: '2026-11-22T05:00:00.000Z',
          },
        },
      ],
      'c1',
    );
    expect(list[0]).toBe(item);
    expect(list[0]).toEqual({ ...pan, tags: ['dulce'], image: { path: 'a.webp' } });
  });

  it('never changes id', () => {
    const changed = applyModified<Item>(pan, { id: 'other', name: 'Pan' });
    expect(changed).toBe(pan);
    expect(applyModified<Item>(pan, { id: 'other', name: 'Pan dulce' })).toEqual({ ...pan, name: 'Pan dulce' });
  });

  it('adds companyId when the item lacks it', () => {
    const bare: Item = { id: 'a', name: 'Pan' };
    const list = applyChangesToList<Item>([bare], [{ type: 'modified', doc: { id: 'a', name: 'Pan' } }], 'c3');
    expect(list[0]).toEqual({ id: 'a', name: 'Pan', companyId: 'c3' });
  });

  it('ignores an item not in the list', () => {
    const items = [pan];
    expect(applyChangesToList<Item>(items, [{ type: 'modified', doc: { id: 'zz', name: 'X' } }], 'c1')).toBe(items);
  });
});

describe("'removed'", () => {
  it('takes the item out of the list', () => {
    const list = applyChangesToList<Item>([pan, torta], [{ type: 'removed', doc: { id: 'a' } }], 'c1');
    expect(list).toEqual([torta]);
  });

  it('leaves the list as it is when the item is absent', () => {
    const items = [pan];
    expect(applyChangesToList<Item>(items, [{ type: 'removed', doc: { id: 'zz' } }], 'c1')).toBe(items);
  });
});

it('applies a batch in order and never mutates the list it was given', () => {
  const items = [pan, torta];
  const snapshot = structuredClone(items);
  const list = applyChangesToList<Item>(
    items,
    [
      { type: 'removed', doc: { id: 'a' } },
      { type: 'modified', doc: { id: 'b', price: 5000 } },
    ],
    'c1',
  );
  expect(list).toEqual([{ ...torta, price: 5000 }]);
  expect(items).toEqual(snapshot);
});

it('receivedItem adds companyId over whatever the document said', () => {
  expect(receivedItem<Item>({ id: 'a', name: 'Pan', companyId: 'old' }, 'c1').companyId).toBe('c1');
});
