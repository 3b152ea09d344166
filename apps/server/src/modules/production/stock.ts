import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { addRecipeUse, roundQuantity } from '@hornada/domain';
import { ingredients, products, recipes } from '../../db/schema';
import { isImport, systemActor } from '../../resources/actor';
import type { AfterWrite } from '../../resources/definition';
import type { ResourceRegistry } from '../../resources/registry';
import type { OrderRow } from '../orders';
import { recipeByProduct } from './production.service';

/** How many units of each product changed their produced count between two versions of an order. */
export function producedDeltas(
  before: Record<string, number> | null | undefined,
  after: Record<string, number> | null | undefined,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const id of new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])) {
    const delta = (after?.[id] ?? 0) - (before?.[id] ?? 0);
    if (delta !== 0) out.set(id, delta);
  }
  return out;
}

/**
 * Producing takes its ingredients out of stock: when an order's `producedQuantities` change,
 * each product's recipe is taken for the units made (units / yield of each item, in the ingredient's
 * unit), and given back when a count is corrected down: in the order's own transaction, through the
 * ingredients service as the system (`production`), so the change log and live lists see it. Units
 * rather than whole batches, so that corrections add up exactly. The demo's import (its replayed moves
 * too) brings its stock as it is and moves nothing.
 */
export function stockMoveHook(resources: ResourceRegistry): AfterWrite<OrderRow> {
  return async (_ctx, tx, actor, before, after, scope) => {
    if (isImport(actor, scope)) return;
    const deltas = producedDeltas(before?.producedQuantities, after.producedQuantities);
    if (deltas.size === 0) return;
    const companyId = after.companyId;
    const productRows = await tx
      .select({ id: products.id, recipeId: products.recipeId })
      .from(products)
      .where(and(eq(products.companyId, companyId), inArray(products.id, [...deltas.keys()])));
    const recipeRows = await tx
      .select({ id: recipes.id, productId: recipes.productId, yield: recipes.yield, items: recipes.items })
      .from(recipes)
      .where(and(eq(recipes.companyId, companyId), isNull(recipes.deletedAt)))
      .orderBy(recipes.createdAt, recipes.id);
    const recipeOf = recipeByProduct(productRows, recipeRows);
    const used = recipeRows.flatMap((r) => r.items.map((i) => i.ingredientId));
    if (used.length === 0) return;
    // The rows locked in one order (bytewise by id), and read under the lock: two orders produced at
    // once each take their part, neither overwrites the other's.
    const locked = await tx
      .select({ id: ingredients.id, unit: ingredients.unit, stock: ingredients.stock })
      .from(ingredients)
      .where(
        and(
          eq(ingredients.companyId, companyId),
          isNull(ingredients.deletedAt),
          inArray(ingredients.id, [...new Set(used)]),
        ),
      )
      .orderBy(sql`${ingredients.id} COLLATE "C"`)
      .for('update');
    const byId = new Map(locked.map((i) => [i.id, i]));
    const take = new Map<string, number>();
    for (const [productId, delta] of deltas) {
      const recipe = recipeOf.get(productId);
      if (!recipe || recipe.yield < 1) continue;
      addRecipeUse(take, recipe, delta / recipe.yield, byId);
    }
    const updates = [...take]
      .filter(([, amount]) => amount !== 0)
      .map(([id, amount]) => ({ id, data: { stock: roundQuantity(byId.get(id)!.stock - amount) } }));
    if (updates.length === 0) return;
    await resources.get('ingredients').bulkUpdate(systemActor('production'), companyId, updates, scope);
  };
}
