import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareCosted,
  compatibleUnits,
  convertQuantity,
  costLine,
  costRecipe,
  isBelowTarget,
  marginOf,
  roundMoney,
  roundTo,
  type CostIngredient,
} from './costing';
import { formatMoney } from './format';

const ingredients: Record<string, CostIngredient> = {
  flour: { unit: 'kg', costPerUnit: 3000 },
  butter: { unit: 'g', costPerUnit: 12.5 },
  milk: { unit: 'l', costPerUnit: 4200 },
  eggs: { unit: 'unidad', costPerUnit: 600 },
};
const byId = (id: string): CostIngredient | undefined => ingredients[id];

describe('convertQuantity', () => {
  it('converts g↔kg and ml↔l both ways, and a unit to itself', () => {
    expect(convertQuantity(500, 'g', 'kg')).toBe(0.5);
    expect(convertQuantity(0.25, 'kg', 'g')).toBe(250);
    expect(convertQuantity(2, 'l', 'ml')).toBe(2000);
    expect(convertQuantity(750, 'ml', 'l')).toBe(0.75);
    expect(convertQuantity(3, 'unidad', 'unidad')).toBe(3);
    expect(convertQuantity(12.5, 'g', 'g')).toBe(12.5);
  });

  it('keeps decimal quantities exact where a factor of 0.001 would not', () => {
    expect(convertQuantity(0.29, 'kg', 'g')).toBe(290);
    expect(convertQuantity(290, 'g', 'kg')).toBe(0.29);
    expect(convertQuantity(1.1, 'l', 'ml')).toBe(1100);
  });

  it('refuses incompatible and unknown units', () => {
    expect(convertQuantity(1, 'g', 'ml')).toBeNull();
    expect(convertQuantity(1, 'kg', 'l')).toBeNull();
    expect(convertQuantity(1, 'unidad', 'g')).toBeNull();
    expect(convertQuantity(1, 'l', 'unidad')).toBeNull();
    expect(convertQuantity(1, 'lb', 'g')).toBeNull();
    expect(convertQuantity(1, 'g', 'taza')).toBeNull();
  });

  it('round-trips any 4-decimal quantity through the bigger unit and back', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), (tenThousandths) => {
        const q = tenThousandths / 10_000;
        const there = convertQuantity(q, 'g', 'kg')!;
        return roundTo(convertQuantity(there, 'kg', 'g')!, 4) === q;
      }),
    );
  });

  it('lists the units a quantity of an ingredient may be written in', () => {
    expect(compatibleUnits('kg')).toEqual(['kg', 'g']);
    expect(compatibleUnits('g')).toEqual(['g', 'kg']);
    expect(compatibleUnits('ml')).toEqual(['ml', 'l']);
    expect(compatibleUnits('unidad')).toEqual(['unidad']);
  });
});

describe('rounding', () => {
  it('rounds half away from zero on the decimal digits', () => {
    expect(roundTo(1.00005, 4)).toBe(1.0001);
    expect(roundTo(1.00004, 4)).toBe(1);
    expect(roundTo(2.675, 2)).toBe(2.68); // 2.675 is 2.67499… in binary
    expect(roundTo(-12.25, 1)).toBe(-12.3);
    expect(roundTo(-0.00001, 4)).toBe(0);
    expect(Object.is(roundTo(-0.00001, 4), -0)).toBe(false);
    expect(roundTo(1e-7, 4)).toBe(0);
    expect(roundTo(123, 4)).toBe(123);
  });

  it('shows money in whole pesos', () => {
    expect(roundMoney(612.5)).toBe(613);
    expect(roundMoney(612.4999)).toBe(612);
    expect(formatMoney(roundMoney(1234.5))).toBe('$1,235');
  });
});

describe('costLine', () => {
  it('converts the quantity into the ingredient unit before pricing', () => {
    expect(costLine({ ingredientId: 'flour', quantity: 500, unit: 'g' }, ingredients.flour)).toEqual({
      ingredientId: 'flour',
      quantity: 0.5,
      cost: 1500,
      problem: null,
    });
    expect(costLine({ ingredientId: 'butter', quantity: 0.2, unit: 'kg' }, ingredients.butter).cost).toBe(2500);
  });

  it("reads a line without a unit in the ingredient's own unit", () => {
    expect(costLine({ ingredientId: 'eggs', quantity: 4, unit: null }, ingredients.eggs).cost).toBe(2400);
    expect(costLine({ ingredientId: 'flour', quantity: 2 }, ingredients.flour).cost).toBe(6000);
  });

  it('names what makes a line unknown', () => {
    expect(costLine({ ingredientId: 'x', quantity: 1 }, undefined).problem).toBe('missing');
    expect(costLine({ ingredientId: 'flour', quantity: 1, unit: 'ml' }, ingredients.flour).problem).toBe(
      'incompatible',
    );
    expect(costLine({ ingredientId: 'flour', quantity: Number.NaN }, ingredients.flour).problem).toBe('invalid');
    expect(costLine({ ingredientId: 'flour', quantity: -1 }, ingredients.flour).problem).toBe('invalid');
  });
});

describe('costRecipe', () => {
  const recipe = {
    yield: 10,
    items: [
      { ingredientId: 'flour', quantity: 1000, unit: 'g' }, // 1 kg × 3000 = 3000
      { ingredientId: 'eggs', quantity: 5, unit: null }, // 5 × 600 = 3000
      { ingredientId: 'milk', quantity: 250, unit: 'ml' }, // 0.25 l × 4200 = 1050
      { ingredientId: 'butter', quantity: 0.08, unit: 'kg' }, // 80 g × 12.5 = 1000
    ],
  };

  it('sums the batch, divides by the yield and margins against the price', () => {
    const c = costRecipe(recipe, byId, 2000);
    expect(c.batchCost).toBe(8050);
    expect(c.costPerUnit).toBe(805);
    // (2000 − 805) / 2000 = 59.75 % → 59.8
    expect(c.margin).toBe(59.8);
    expect(c.lines.map((l) => l.cost)).toEqual([3000, 3000, 1050, 1000]);
  });

  it('changes the cost a unit with the yield', () => {
    expect(costRecipe({ ...recipe, yield: 20 }, byId, 2000)).toMatchObject({ costPerUnit: 402.5, margin: 79.9 });
    expect(costRecipe({ ...recipe, yield: 3 }, byId, 2000)).toMatchObject({ costPerUnit: 2683.3333, margin: -34.2 });
  });

  it('follows a change of an ingredient cost', () => {
    const dearer = (id: string) => (id === 'flour' ? { unit: 'kg', costPerUnit: 5000 } : byId(id));
    expect(costRecipe(recipe, dearer, 2000)).toMatchObject({ batchCost: 10050, costPerUnit: 1005, margin: 49.8 });
  });

  it('rounds the cost a unit to 4 decimals and the margin to 1', () => {
    const c = costRecipe({ yield: 3, items: [{ ingredientId: 'eggs', quantity: 1 }] }, byId, 700);
    expect(c.costPerUnit).toBe(200);
    const third = costRecipe({ yield: 3, items: [{ ingredientId: 'butter', quantity: 1 }] }, byId, 100);
    expect(third.costPerUnit).toBe(4.1667);
    expect(third.margin).toBe(95.8);
  });

  it('is unknown when an ingredient is missing or its unit cannot convert', () => {
    const missing = costRecipe({ yield: 1, items: [{ ingredientId: 'gone', quantity: 1 }] }, byId, 1000);
    expect(missing).toMatchObject({ batchCost: null, costPerUnit: null, margin: null });
    const wrongUnit = costRecipe(
      { yield: 1, items: [...recipe.items, { ingredientId: 'eggs', quantity: 1, unit: 'g' }] },
      byId,
      1000,
    );
    expect(wrongUnit.costPerUnit).toBeNull();
    expect(wrongUnit.lines.at(-1)?.problem).toBe('incompatible');
  });

  it('handles a zero or bad yield and a zero or missing price', () => {
    expect(costRecipe({ ...recipe, yield: 0 }, byId, 2000)).toMatchObject({ batchCost: 8050, costPerUnit: null });
    expect(costRecipe({ ...recipe, yield: Number.NaN }, byId, 2000).costPerUnit).toBeNull();
    expect(costRecipe(recipe, byId, 0)).toMatchObject({ costPerUnit: 805, margin: null });
    expect(costRecipe(recipe, byId, null).margin).toBeNull();
    expect(costRecipe(recipe, byId).margin).toBeNull();
  });

  it('costs an empty recipe at zero', () => {
    expect(costRecipe({ yield: 12, items: [] }, byId, 1000)).toMatchObject({ costPerUnit: 0, margin: 100 });
  });
});

describe('margin and target', () => {
  it('computes the margin in percent with one decimal', () => {
    expect(marginOf(600, 2000)).toBe(70);
    expect(marginOf(2000, 2000)).toBe(0);
    expect(marginOf(2500, 2000)).toBe(-25);
    expect(marginOf(null, 2000)).toBeNull();
    expect(marginOf(100, -5)).toBeNull();
  });

  it('is below target only when known and strictly less', () => {
    expect(isBelowTarget(59.9, 60)).toBe(true);
    expect(isBelowTarget(60, 60)).toBe(false);
    expect(isBelowTarget(null, 60)).toBe(false);
    expect(isBelowTarget(-10, 0)).toBe(true);
  });
});

describe('compareCosted', () => {
  const rows = [
    { id: 'a', costPerUnit: 500, margin: 70 },
    { id: 'b', costPerUnit: null, margin: null },
    { id: 'c', costPerUnit: 900, margin: 20 },
    { id: 'd', costPerUnit: 300, margin: null },
  ];
  it('puts the least profitable first and unknowns last either way', () => {
    expect([...rows].sort(compareCosted('margin', 'asc')).map((r) => r.id)).toEqual(['c', 'a', 'b', 'd']);
    expect([...rows].sort(compareCosted('margin', 'desc')).map((r) => r.id)).toEqual(['a', 'c', 'b', 'd']);
    expect([...rows].sort(compareCosted('costPerUnit', 'desc')).map((r) => r.id)).toEqual(['c', 'a', 'd', 'b']);
  });
});
