import { and, eq, inArray, isNull } from 'drizzle-orm';
import { costRecipe, Recipe, RECIPE_DERIVED, RecipeInput, toPatchSchema, type CostLine } from '@hornada/domain';
import type { AppContext } from '../../context';
import { ingredients, products, recipes } from '../../db/schema';
import type { ResourceDefinition, Row } from '../definition';
import { BASE_DATES } from './common';

/**
 * Cost a unit from the ingredients' costs; margin against the product's price (design §4; the rules in
 * packages/domain/src/costing.ts). A deleted ingredient or product counts as missing: the cost (or margin)
 * is then unknown, null.
 */
async function presentRecipes(ctx: AppContext, companyId: string, rows: Row[]) {
  const ingredientIds = [
    ...new Set(rows.flatMap((r) => (r.items as { ingredientId: string }[]).map((i) => i.ingredientId))),
  ];
  const productIds = [...new Set(rows.map((r) => r.productId).filter((v): v is string => typeof v === 'string'))];
  const [ings, prods] = await Promise.all([
    ingredientIds.length
      ? ctx.db
          .select({ id: ingredients.id, unit: ingredients.unit, costPerUnit: ingredients.costPerUnit })
          .from(ingredients)
          .where(
            and(
              eq(ingredients.companyId, companyId),
              inArray(ingredients.id, ingredientIds),
              isNull(ingredients.deletedAt),
            ),
          )
      : [],
    productIds.length
      ? ctx.db
          .select({ id: products.id, price: products.price })
          .from(products)
          .where(and(eq(products.companyId, companyId), inArray(products.id, productIds), isNull(products.deletedAt)))
      : [],
  ]);
  const ingById = new Map(ings.map((i) => [i.id, i]));
  const priceById = new Map(prods.map((p) => [p.id, p.price]));
  return rows.map((r) => {
    const price = typeof r.productId === 'string' ? priceById.get(r.productId) : undefined;
    const { costPerUnit, margin } = costRecipe(
      { yield: r.yield as number, items: r.items as CostLine[] },
      (id) => ingById.get(id),
      price,
    );
    return { ...r, costPerUnit, margin };
  });
}

export const recipesResource: ResourceDefinition = {
  name: 'recipes',
  label: 'Recipe',
  table: recipes,
  input: RecipeInput,
  patch: toPatchSchema(RecipeInput),
  record: Recipe,
  searchFields: ['name'],
  sortFields: ['createdAt', 'updatedAt', 'name', 'yield'],
  filterFields: ['productId'],
  dateFields: BASE_DATES,
  references: [
    { path: 'productId', table: products, label: 'product' },
    { path: 'items.*.ingredientId', table: ingredients, label: 'ingredient' },
  ],
  derived: RECIPE_DERIVED,
  present: presentRecipes,
  presentReads: ['ingredients', 'products'],
};
