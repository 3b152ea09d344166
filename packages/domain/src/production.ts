import { z } from 'zod';
import { convertQuantity, roundTo } from './costing';
import { ORDER_STATUSES } from './schemas/orders';

/**
 * The production day (docs/design.md §3 "operations"): what to bake for a preparation day, from the
 * orders and the recipes. The server computes it (modules/production); the office and the tablets read it.
 */

export const ProductionProduct = z.object({
  productId: z.string(),
  name: z.string(),
  quantity: z.number().int().describe('Units ordered for the day'),
  produced: z.number().int().describe('Units marked produced so far (producedQuantities of the orders)'),
  recipeId: z.string().nullable(),
  recipeYield: z.number().int().nullable(),
  batches: z.number().int().nullable().describe('quantity / the recipe yield, rounded up; null without a recipe'),
  allergens: z.array(z.string()),
});
export type ProductionProduct = z.infer<typeof ProductionProduct>;

export const ProductionIngredient = z.object({
  ingredientId: z.string(),
  name: z.string(),
  unit: z.string(),
  needed: z.number().describe("Summed over every recipe's items for its batches, in the ingredient's unit"),
  stock: z.number(),
  minStock: z.number(),
  shortage: z
    .number()
    .describe(
      "What the rest of the day's baking (batches of the units not yet produced) needs beyond the stock " +
        '(taken as 0 when below zero), else 0: 0 once everything is produced',
    ),
});
export type ProductionIngredient = z.infer<typeof ProductionIngredient>;

export const ProductionOrder = z.object({
  id: z.string(),
  number: z.number().int(),
  status: z.enum(ORDER_STATUSES),
  customer: z.string(),
  dueDate: z.string().describe('The due day, YYYY-MM-DD in the company time zone'),
  window: z.string().nullable(),
  windowLabel: z.string().nullable(),
  fulfillment: z.string(),
  notes: z.string().nullable(),
  items: z.array(z.object({ productId: z.string(), name: z.string(), quantity: z.number().int() })),
  producedQuantities: z.record(z.string(), z.number()),
});
export type ProductionOrder = z.infer<typeof ProductionOrder>;

export const ProductionDay = z.object({
  date: z.string(),
  products: z.array(ProductionProduct),
  ingredients: z.array(ProductionIngredient),
  /** Recipe lines that could not be counted (an ingredient gone, a unit that does not convert). */
  problems: z.array(z.object({ recipeId: z.string(), ingredientId: z.string(), problem: z.string() })),
  /** With `include=orders` only: the day's orders one by one (the single page, the labels, the tablet). */
  orders: z.array(ProductionOrder).optional(),
});
export type ProductionDay = z.infer<typeof ProductionDay>;

export const ProductionQuery = z.object({ date: z.iso.date(), include: z.literal('orders').optional() });
export type ProductionQuery = z.infer<typeof ProductionQuery>;

/** Batches of a recipe for a quantity: rounded up; null without a usable yield. */
export function batchesFor(quantity: number, recipeYield: number | null | undefined): number | null {
  if (!recipeYield || recipeYield < 1) return null;
  return Math.ceil(quantity / recipeYield);
}

export interface UseRecipe {
  id: string;
  yield: number;
  items: readonly { ingredientId: string; quantity: number; unit?: string | null }[];
}
export interface UseIngredient {
  id: string;
  unit: string;
}

/**
 * Adds to `into` what `batches` of a recipe take of each ingredient, in the ingredient's own unit
 * (g↔kg, ml↔l). Lines that cannot be counted go to `problems` (unknown beats wrong: never guessed).
 */
export function addRecipeUse(
  into: Map<string, number>,
  recipe: UseRecipe,
  batches: number,
  ingredients: ReadonlyMap<string, UseIngredient>,
  problems?: { recipeId: string; ingredientId: string; problem: string }[],
): void {
  for (const line of recipe.items) {
    const ingredient = ingredients.get(line.ingredientId);
    if (!ingredient) {
      problems?.push({ recipeId: recipe.id, ingredientId: line.ingredientId, problem: 'missing' });
      continue;
    }
    const perBatch = convertQuantity(line.quantity, line.unit ?? ingredient.unit, ingredient.unit);
    if (perBatch === null) {
      problems?.push({ recipeId: recipe.id, ingredientId: line.ingredientId, problem: 'incompatible' });
      continue;
    }
    into.set(ingredient.id, (into.get(ingredient.id) ?? 0) + perBatch * batches);
  }
}

/** A stored quantity: 4 decimals, like every stored amount (docs/design.md §4). */
export const roundQuantity = (n: number): number => roundTo(n, 4);

/** The shortage of an ingredient: what is needed beyond the stock, never below 0. */
export const shortageOf = (needed: number, stock: number): number => roundQuantity(Math.max(0, needed - stock));
