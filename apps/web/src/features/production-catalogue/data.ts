import {
  costRecipe,
  isBelowTarget,
  lowestMargin,
  recipeProducts,
  type RecipeCost,
  type RecipeProductMargin,
} from '@hornada/domain/costing';
import { SettingsInput } from '@hornada/domain/schemas/settings';
import { useMemo } from 'react';
import { ApiError } from '../../lib/api/http';
import { ADDED_BATCH_LIMIT, receivedItem, type LiveChange } from '../../lib/live/live-rules';
import type { Resource } from '../../lib/api/resource-service';
import { useLiveList } from '../../lib/live/use-live-list';
import { catalogueApi, type Ingredient, type Product, type Recipe } from './api';

/** The settings schema's own default target margin (percent), when the settings cannot be read. */
export const DEFAULT_TARGET_MARGIN: number = SettingsInput.shape.targetMargin.parse(undefined);

const notFound = 'No encontramos este registro: puede que lo hayan borrado.';

/** A costing screen's words for a failed read: a record that is gone, or `failure` (then a retry). */
export const failedRead =
  (failure: string) =>
  (err: unknown): string =>
    err instanceof ApiError && err.status === 404 ? notFound : failure;

/**
 * One batch of live changes applied to a list (useLiveList's `apply` for recipes: a recipe's cost depends on
 * its lines, an array, which the generic rule of docs/product.md §4, simple fields only, would leave stale), each record taken whole ('modified' replaces it, arrays
 * included); 'added' only when the batch has fewer than 3 changes (docs/product.md §4) and the id is new; 'removed'
 * takes it out. Returns the same list when nothing applied.
 */
export function applyWholeChanges<T extends Resource>(
  list: readonly T[],
  changes: readonly LiveChange[],
  companyId: string,
): T[] {
  let next = list as T[];
  for (const { type, doc } of changes) {
    if (!doc?.id) continue;
    const known = next.some((r) => r.id === doc.id);
    if (type === 'removed' && known) next = next.filter((r) => r.id !== doc.id);
    else if (type === 'modified' && known) {
      next = next.map((r) => (r.id === doc.id ? receivedItem<T>(doc, companyId) : r));
    } else if (type === 'added' && !known && changes.length < ADDED_BATCH_LIMIT) {
      next = [...next, receivedItem<T>(doc, companyId)];
    }
  }
  return next;
}

export interface CostingBasis {
  ingredients: Ingredient[];
  products: Product[];
  targetMargin: number;
}

/** What costing reads, loaded once: every ingredient and product of the company, and the target margin. */
export async function loadCostingBasis(companyId: string, signal: AbortSignal): Promise<CostingBasis> {
  const [ingredients, products, targetMargin] = await Promise.all([
    catalogueApi.ingredients(companyId, signal),
    catalogueApi.products(companyId, signal),
    catalogueApi.targetMargin(companyId, signal).catch(() => null),
  ]);
  return { ingredients, products, targetMargin: targetMargin ?? DEFAULT_TARGET_MARGIN };
}

/** The costing basis kept live: an ingredient's new cost or a product's new price shows at once. */
export function useLiveBasis(companyId: string | null, basis: CostingBasis) {
  // After a reset each list is read again, as the screen first read it.
  const ingredients = useLiveList<Ingredient>(companyId, 'ingredients', basis.ingredients, {
    reload: (signal) => catalogueApi.ingredients(companyId!, signal),
  });
  const products = useLiveList<Product>(companyId, 'products', basis.products, {
    reload: (signal) => catalogueApi.products(companyId!, signal),
  });
  return useMemo(
    () => basisOf({ ingredients, products, targetMargin: basis.targetMargin }),
    [ingredients, products, basis.targetMargin],
  );
}

/** The costing basis with its look-ups by id. */
export function basisOf({ ingredients, products, targetMargin }: CostingBasis) {
  const ingredientById = new Map(ingredients.map((i) => [i.id, i]));
  const productById = new Map(products.map((p) => [p.id, p]));
  return { ingredients, products, ingredientById, productById, targetMargin };
}

export type LiveBasis = ReturnType<typeof basisOf>;

export interface CostedRecipe extends RecipeCost {
  recipe: Recipe;
  /** The products made from the recipe, each with its price and margin; empty when none uses it. */
  products: RecipeProductMargin[];
  belowTarget: boolean;
}

/**
 * A recipe's figures from the live ingredients and products, by the rules the server presents them with
 * (packages/domain costing.ts): the products made from it, each with its margin, and the lowest of those.
 */
export function costed(
  recipe: Pick<Recipe, 'yield' | 'items' | 'productId'> & { id?: string | null },
  basis: LiveBasis,
) {
  const cost = costRecipe(recipe, (id) => basis.ingredientById.get(id));
  const products = recipeProducts(recipe, basis.products, cost.costPerUnit, basis.targetMargin);
  const margin = lowestMargin(products);
  return { ...cost, margin, products, belowTarget: isBelowTarget(margin, basis.targetMargin) };
}

export function costedRecipes(recipes: Recipe[], basis: LiveBasis): CostedRecipe[] {
  return recipes.map((recipe) => ({ ...costed(recipe, basis), recipe }));
}
