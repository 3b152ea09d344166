import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import {
  costRecipe,
  lowestMargin,
  Recipe,
  RECIPE_DERIVED,
  RecipeInput,
  recipeProducts,
  SettingsInput,
  toPatchSchema,
  type CostLine,
} from '@hornada/domain';
import type { AppContext } from '../../context';
import { ingredients, products, recipes, settings } from '../../db/schema';
import type { ResourceDefinition, Row } from '../definition';
import { BASE_DATES } from './common';

/** The settings schema's own default, for a company whose settings do not say. */
const DEFAULT_TARGET_MARGIN: number = SettingsInput.shape.targetMargin.parse(undefined);

/**
 * Cost a unit from the ingredients' costs; the products made from the recipe (the link is kept on the
 * product, its `recipeId`, or named by the recipe, its `productId`), each with its price and its margin
 * against the settings' target; the recipe's margin is the lowest of theirs (docs/design.md §4; the rules in
 * packages/domain/src/costing.ts). A deleted ingredient or product counts as missing: the cost (or margin)
 * is then unknown, null; a recipe no product uses has no products and no margin.
 */
async function presentRecipes(ctx: AppContext, companyId: string, rows: Row[]) {
  const ingredientIds = [
    ...new Set(rows.flatMap((r) => (r.items as { ingredientId: string }[]).map((i) => i.ingredientId))),
  ];
  const productIds = [...new Set(rows.map((r) => r.productId).filter((v): v is string => typeof v === 'string'))];
  const recipeIds = rows.map((r) => r.id as string);
  const [ings, prods, [setting]] = await Promise.all([
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
    rows.length
      ? ctx.db
          .select({ id: products.id, name: products.name, price: products.price, recipeId: products.recipeId })
          .from(products)
          .where(
            and(
              eq(products.companyId, companyId),
              isNull(products.deletedAt),
              productIds.length
                ? or(inArray(products.recipeId, recipeIds), inArray(products.id, productIds))
                : inArray(products.recipeId, recipeIds),
            ),
          )
      : [],
    ctx.db.select({ data: settings.data }).from(settings).where(eq(settings.companyId, companyId)).limit(1),
  ]);
  const targetMargin = setting?.data.targetMargin ?? DEFAULT_TARGET_MARGIN;
  const ingById = new Map(ings.map((i) => [i.id, i]));
  return rows.map((r) => {
    const { costPerUnit } = costRecipe({ yield: r.yield as number, items: r.items as CostLine[] }, (id) =>
      ingById.get(id),
    );
    const made = recipeProducts(
      { id: r.id as string, productId: r.productId as string | null },
      prods,
      costPerUnit,
      targetMargin,
    );
    return { ...r, costPerUnit, margin: lowestMargin(made), products: made };
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
  presentReads: ['ingredients', 'products', 'settings'],
};
