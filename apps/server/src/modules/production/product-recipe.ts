import { and, eq, isNull } from 'drizzle-orm';
import { IMPORT_REASONS } from '@hornada/domain';
import { products, recipes } from '../../db/schema';
import type { AfterWrite } from '../../resources/definition';
import type { ResourceRegistry } from '../../resources/registry';

/**
 * A recipe made for a product (its `productId`) becomes the product's recipe when the product has none, or
 * only a deleted one (the product's form said "Sin receta" after its recipe was made). Written
 * through the products service by the same actor, in the recipe's transaction, so the change log and the
 * live lists see it. A product that already has a recipe keeps it: choosing between two is the staff's.
 */
export function productRecipeHook(resources: ResourceRegistry): AfterWrite<typeof recipes.$inferSelect> {
  return async (_ctx, tx, actor, before, after, scope) => {
    if (actor.kind === 'system' && IMPORT_REASONS.includes(actor.reason)) return;
    const { productId, companyId } = after;
    if (!productId || after.deletedAt || before?.productId === productId) return;
    const [found] = await tx
      .select({ recipeId: products.recipeId, liveRecipe: recipes.id })
      .from(products)
      .leftJoin(recipes, and(eq(recipes.id, products.recipeId), isNull(recipes.deletedAt)))
      .where(and(eq(products.id, productId), eq(products.companyId, companyId), isNull(products.deletedAt)))
      .limit(1);
    if (!found || found.liveRecipe) return;
    await resources.get('products').update(actor, companyId, productId, { recipeId: after.id }, scope);
  };
}
