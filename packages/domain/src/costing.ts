import { UNITS, type Unit } from './constants';

/**
 * Recipe costing (docs/design.md §4, §6): what one unit of a product costs in ingredients and the margin against its
 * price. Pure, so that the server's derived `costPerUnit`/`margin` and the web's live figures (the form as
 * you type, the list when an ingredient's cost changes) are the same numbers.
 *
 * Rounding rules (half away from zero, decided on the decimal value, not its binary approximation):
 * - a unit conversion and each line's cost are kept exact (no rounding in between);
 * - the cost a unit (batch cost / yield) is rounded to 4 decimals, like every stored cost (docs/design.md §4);
 *   it is shown in whole pesos (`roundMoney`, then `formatMoney`), as money is whole units;
 * - the margin is a percent with 1 decimal: (price − cost a unit) / price × 100; negative when a unit costs
 *   more than its price;
 * - "below target" compares that rounded margin with the settings' `targetMargin` (percent, default 60):
 *   strictly less is below.
 * Unknown beats wrong: a missing (or deleted) ingredient or a unit that cannot convert makes the cost
 * unknown (null), a yield under 1 too; no price (null or 0) makes the margin unknown.
 */

/** How units convert: each to a base unit and its factor (g↔kg, ml↔l; 'unidad' only to itself). */
const BASE: Record<Unit, readonly [Unit, number]> = {
  g: ['g', 1],
  kg: ['g', 1000],
  ml: ['ml', 1],
  l: ['ml', 1000],
  unidad: ['unidad', 1],
};

export function isUnit(value: unknown): value is Unit {
  return typeof value === 'string' && (UNITS as readonly string[]).includes(value);
}

/** Rounds half away from zero to `places` decimals, on the decimal digits (1.00005 → 1.0001 at 4). */
export function roundTo(value: number, places: number): number {
  if (!Number.isFinite(value)) return value;
  const sign = value < 0 ? -1 : 1;
  const abs = Math.abs(value);
  const text = String(abs);
  // Shift the decimal digits as written ("1.00005e4"), so 1.00005 is not read as 1.0000499…; numbers that
  // print in exponent form are tiny or huge, where plain multiplication is exact enough.
  const shifted = Math.round(text.includes('e') ? abs * 10 ** places : Number(`${text}e${places}`));
  const out = (sign * shifted) / 10 ** places;
  return out === 0 ? 0 : out;
}

/** Money in whole pesos (docs/design.md §4), half away from zero. */
export function roundMoney(value: number): number {
  return roundTo(value, 0);
}

/** The units a quantity of an ingredient kept in `unit` may be written in (its own first). */
export function compatibleUnits(unit: Unit): Unit[] {
  const [base] = BASE[unit];
  return [unit, ...UNITS.filter((u) => u !== unit && BASE[u][0] === base)];
}

/** Converts a quantity between compatible units; null when they cannot convert (or a unit is unknown). */
export function convertQuantity(quantity: number, from: string, to: string): number | null {
  if (!isUnit(from) || !isUnit(to)) return null;
  if (from === to) return quantity;
  const [baseFrom, factorFrom] = BASE[from];
  const [baseTo, factorTo] = BASE[to];
  if (baseFrom !== baseTo) return null;
  // Multiply first when going to a smaller unit, divide by the integer factor otherwise: 0.29 kg is 290 g
  // (0.29 × 1000), 290 g is 0.29 kg (290 / 1000), without the error of multiplying by 0.001.
  return factorFrom >= factorTo ? quantity * (factorFrom / factorTo) : quantity / (factorTo / factorFrom);
}

/** What costing reads of an ingredient. */
export interface CostIngredient {
  unit: string;
  costPerUnit: number;
}

/** A recipe line: a quantity in `unit`, or in the ingredient's own unit when `unit` is null or absent. */
export interface CostLine {
  ingredientId: string;
  quantity: number;
  unit?: string | null;
}

export type LineProblem = 'missing' | 'incompatible' | 'invalid';

export interface LineCost {
  ingredientId: string;
  /** The quantity in the ingredient's own unit; null when it cannot be known. */
  quantity: number | null;
  /** quantity × the ingredient's cost per unit, unrounded; null when unknown. */
  cost: number | null;
  problem: LineProblem | null;
}

export interface RecipeCost {
  lines: LineCost[];
  /** The sum of the lines' costs (unrounded); null when any line is unknown. */
  batchCost: number | null;
  /** batchCost / yield, 4 decimals; null when the batch cost is unknown or the yield is under 1. */
  costPerUnit: number | null;
  /** Percent, 1 decimal; null without a cost a unit or a price above 0. */
  margin: number | null;
}

export interface CostInput {
  yield: number;
  items: readonly CostLine[];
}

/** One line's cost: the ingredient looked up, the quantity converted into the ingredient's unit. */
export function costLine(line: CostLine, ingredient: CostIngredient | undefined): LineCost {
  const { ingredientId } = line;
  if (!ingredient) return { ingredientId, quantity: null, cost: null, problem: 'missing' };
  if (!Number.isFinite(line.quantity) || line.quantity < 0 || !Number.isFinite(ingredient.costPerUnit)) {
    return { ingredientId, quantity: null, cost: null, problem: 'invalid' };
  }
  const quantity = convertQuantity(line.quantity, line.unit ?? ingredient.unit, ingredient.unit);
  if (quantity === null) return { ingredientId, quantity: null, cost: null, problem: 'incompatible' };
  return { ingredientId, quantity, cost: quantity * ingredient.costPerUnit, problem: null };
}

/** The margin in percent (1 decimal) of selling at `price` what costs `cost`; null without both. */
export function marginOf(cost: number | null, price: number | null | undefined): number | null {
  if (cost === null || price === null || price === undefined || !Number.isFinite(price) || price <= 0) return null;
  return roundTo(((price - cost) / price) * 100, 1);
}

/** Whether a known margin is under the target (percent); an unknown margin is never "below". */
export function isBelowTarget(margin: number | null, targetMargin: number): boolean {
  return margin !== null && margin < targetMargin;
}

/**
 * A recipe's cost: each line priced from its ingredient (looked up by id), the batch summed, the cost a unit
 * and the margin against `price` (the product's, when the recipe has one).
 */
export function costRecipe(
  recipe: CostInput,
  ingredientById: (id: string) => CostIngredient | undefined,
  price?: number | null,
): RecipeCost {
  const lines = recipe.items.map((line) => costLine(line, ingredientById(line.ingredientId)));
  const known = lines.every((l) => l.cost !== null);
  const batchCost = known ? lines.reduce((sum, l) => sum + (l.cost ?? 0), 0) : null;
  const validYield = Number.isFinite(recipe.yield) && recipe.yield >= 1;
  const costPerUnit = batchCost !== null && validYield ? roundTo(batchCost / recipe.yield, 4) : null;
  return { lines, batchCost, costPerUnit, margin: marginOf(costPerUnit, price) };
}

/** What a recipe's products list reads of a product. */
export interface ProductForRecipe {
  id: string;
  name: string;
  price: number;
  recipeId?: string | null;
}

/** A product made from a recipe: its price and the margin the recipe's cost a unit leaves against it. */
export interface RecipeProductMargin {
  id: string;
  name: string;
  price: number;
  /** Percent, 1 decimal; null when the cost a unit is unknown or the price is not above 0. */
  margin: number | null;
  /** Whether that margin is under the settings' target margin. */
  belowTarget: boolean;
}

/**
 * The products a recipe is for, with the margin each leaves: those whose recipe it is (the link kept on the
 * product, `recipeId`) and the one the recipe names (`productId`), once each, the named one first, then by
 * name. Empty when no product uses the recipe: its margin cannot be known, and the screens say so.
 */
export function recipeProducts(
  recipe: { id?: string | null; productId?: string | null },
  products: readonly ProductForRecipe[],
  costPerUnit: number | null,
  targetMargin: number,
): RecipeProductMargin[] {
  const using = products.filter((p) => p.id === recipe.productId || (!!recipe.id && p.recipeId === recipe.id));
  using.sort((a, b) =>
    a.id === recipe.productId ? -1 : b.id === recipe.productId ? 1 : a.name.localeCompare(b.name, 'es-CO'),
  );
  return using.map((p) => {
    const margin = marginOf(costPerUnit, p.price);
    return { id: p.id, name: p.name, price: p.price, margin, belowTarget: isBelowTarget(margin, targetMargin) };
  });
}

/**
 * The recipe's margin on the list: the lowest of its products' known margins (the one to worry about);
 * null when none is known.
 */
export function lowestMargin(products: readonly Pick<RecipeProductMargin, 'margin'>[]): number | null {
  let lowest: number | null = null;
  for (const { margin } of products) if (margin !== null && (lowest === null || margin < lowest)) lowest = margin;
  return lowest;
}

export type CostSortKey = 'costPerUnit' | 'margin';

/**
 * Orders records by a derived figure, unknown values last whichever the direction; ties keep their order.
 * Ascending margin puts the least profitable first.
 */
export function compareCosted<T extends Record<CostSortKey, number | null>>(
  key: CostSortKey,
  direction: 'asc' | 'desc',
): (a: T, b: T) => number {
  return (a, b) => {
    const x = a[key];
    const y = b[key];
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    return direction === 'asc' ? x - y : y - x;
  };
}
