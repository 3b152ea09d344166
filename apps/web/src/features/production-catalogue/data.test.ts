import { describe, expect, it } from 'vitest';
import type { LiveChange } from '../../lib/live/live-rules';
import type { Ingredient, Product, Recipe } from './api';
import { applyWholeChanges, basisOf, costedRecipes } from './data';

const base = {
  companyId: 'c1',
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  deletedAt: null,
};
const flour: Ingredient = {
  ...base,
  id: 'flour',
  name: 'Harina',
  unit: 'kg',
  costPerUnit: 3000,
  stock: 10,
  minStock: 2,
  supplier: null,
};
const eggs: Ingredient = {
  ...base,
  id: 'eggs',
  name: 'Huevos',
  unit: 'unidad',
  costPerUnit: 600,
  stock: 30,
  minStock: 0,
  supplier: null,
};
const bread = { ...base, id: 'bread', name: 'Pan', price: 2000 } as Product;
const recipe: Recipe = {
  ...base,
  id: 'r1',
  name: 'Pan',
  productId: 'bread',
  yield: 10,
  items: [{ ingredientId: 'flour', quantity: 1000, unit: 'g' }],
  steps: [],
  prepMinutes: null,
  costPerUnit: 300,
  margin: 85,
  products: [],
};

const change = (type: LiveChange['type'], doc: object): LiveChange => ({ type, doc: doc as LiveChange['doc'] });

describe('live recipes', () => {
  it("takes a modified recipe whole, its lines included (the spec's simple-field rule would keep the old lines)", () => {
    const edited = { ...recipe, items: [...recipe.items, { ingredientId: 'eggs', quantity: 5, unit: null }] };
    const [next] = applyWholeChanges([recipe], [change('modified', edited)], 'c1');
    expect(next!.items).toHaveLength(2);
    expect(next!.companyId).toBe('c1');
  });

  it('adds new records under the batch limit, removes deleted ones, ignores unknown modifications', () => {
    const other = { ...recipe, id: 'r2', name: 'Otro' };
    expect(applyWholeChanges([recipe], [change('added', other)], 'c1').map((r) => r.id)).toEqual(['r1', 'r2']);
    const three = [
      change('added', other),
      change('added', { ...other, id: 'r3' }),
      change('added', { ...other, id: 'r4' }),
    ];
    expect(applyWholeChanges([recipe], three, 'c1').map((r) => r.id)).toEqual(['r1']);
    expect(applyWholeChanges([recipe], [change('removed', { id: 'r1' })], 'c1')).toEqual([]);
    const list = [recipe];
    expect(applyWholeChanges(list, [change('modified', { ...other, id: 'nope' })], 'c1')).toBe(list);
  });
});

describe('costed recipes', () => {
  it('follow an ingredient cost and a product price, and flag a margin under the target', () => {
    const before = costedRecipes(
      [recipe],
      basisOf({ ingredients: [flour, eggs], products: [bread], targetMargin: 60 }),
    );
    expect(before[0]).toMatchObject({ costPerUnit: 300, margin: 85, belowTarget: false });
    const dearer = { ...flour, costPerUnit: 9000 };
    const after = costedRecipes(
      [recipe],
      basisOf({ ingredients: [dearer, eggs], products: [bread], targetMargin: 60 }),
    );
    expect(after[0]).toMatchObject({ costPerUnit: 900, margin: 55, belowTarget: true });
    const noProduct = costedRecipes([recipe], basisOf({ ingredients: [flour], products: [], targetMargin: 60 }));
    expect(noProduct[0]).toMatchObject({ costPerUnit: 300, margin: null, products: [], belowTarget: false });
  });

  it("list the products whose recipe it is, each with its margin, and take the lowest as the recipe's", () => {
    // The link kept on the products only: the recipe names none.
    const unnamed = { ...recipe, productId: null };
    const roll = { ...base, id: 'roll', name: 'Mogolla', price: 500, recipeId: 'r1' } as Product;
    const loaf = { ...base, id: 'loaf', name: 'Calado', price: 3000, recipeId: 'r1' } as Product;
    const other = { ...base, id: 'other', name: 'Torta', price: 9000, recipeId: 'r2' } as Product;
    const [row] = costedRecipes(
      [unnamed],
      basisOf({ ingredients: [flour], products: [roll, loaf, other], targetMargin: 60 }),
    );
    // $300 a unit: 90 % of $3,000, 40 % of $500.
    expect(row!.products).toEqual([
      { id: 'loaf', name: 'Calado', price: 3000, margin: 90, belowTarget: false },
      { id: 'roll', name: 'Mogolla', price: 500, margin: 40, belowTarget: true },
    ]);
    expect(row).toMatchObject({ margin: 40, belowTarget: true });
  });
});
