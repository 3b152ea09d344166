import { and, asc, eq, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { windowLabel } from '@hornada/domain/order-display';
import {
  addRecipeUse,
  batchesFor,
  dayInZone,
  dayStartInZone,
  roundQuantity,
  shortageOf,
  type ProductionDay,
  type ProductionOrder,
  type ProductionProduct,
  type UseIngredient,
} from '@hornada/domain';
import type { AppContext } from '../../context';
import { companyMember, type RequestContext } from '../../request-context';
import { ingredients, orders, products, recipes, settings } from '../../db/schema';
import { assertDaysWithinYears } from '../../lib/days';
import { getCompany } from '../../resources/tenant';

/** The most orders one day's read counts: far beyond a bakery's day, a bound on the answer. */
export const MAX_PRODUCTION_ORDERS = 20_000;

/** A product's recipe: the one the product names, else the oldest recipe that names the product. */
export function recipeByProduct<R extends { id: string; productId: string | null }>(
  productRows: readonly { id: string; recipeId: string | null }[],
  recipeRows: readonly R[],
): Map<string, R> {
  const byId = new Map(recipeRows.map((r) => [r.id, r]));
  const out = new Map<string, R>();
  // recipeRows come oldest first: the first recipe naming a product wins.
  for (const r of recipeRows) if (r.productId && !out.has(r.productId)) out.set(r.productId, r);
  for (const p of productRows) {
    const named = p.recipeId ? byId.get(p.recipeId) : undefined;
    if (named) out.set(p.id, named);
  }
  return out;
}

/**
 * The production read (docs/design.md §3 "operations"): totals per product and produced so far
 * summed by PostgreSQL over the day's order lines in one query (the company and preparation day
 * index), then batches from each recipe's yield and the ingredients summed over every recipe in the
 * ingredient's unit against its stock. Catalogue, recipes and ingredients are read beside it, in parallel.
 */
export class ProductionService {
  constructor(private readonly ctx: AppContext) {}

  async day(rc: RequestContext, date: string, opts: { orders?: boolean } = {}): Promise<ProductionDay> {
    const { companyId } = companyMember(rc, 'production:read', 'Your role cannot read production');
    assertDaysWithinYears({ date });
    const company = await getCompany(this.ctx, companyId);
    const db = this.ctx.db;
    const start = dayStartInZone(date, company.timeZone);
    const ofDay = and(
      eq(orders.companyId, companyId),
      eq(orders.preparationDate, start),
      isNull(orders.deletedAt),
      ne(orders.status, 'cancelled'),
    );
    // Units per product summed by PostgreSQL over the day's lines (the company and preparation day
    // index): produced counts once an order and product, never beyond what that order asked for.
    const totals = db.execute<{ productId: string; name: string; quantity: number; produced: number }>(sql`
      SELECT l.product_id AS "productId", max(l.name) AS name, sum(l.asked)::int AS quantity,
             sum(least(l.asked, coalesce((${orders.producedQuantities}->>l.product_id)::int, 0)))::int AS produced
      FROM ${orders} CROSS JOIN LATERAL (
        SELECT i."productId" AS product_id, max(i.name) AS name, sum(i.quantity) AS asked
        FROM jsonb_to_recordset(${orders.items}) AS i("productId" text, name text, quantity int)
        GROUP BY 1
      ) AS l
      WHERE ${ofDay}
      GROUP BY l.product_id`);
    const [totalRows, recipeRows, ingredientRows, list] = await Promise.all([
      totals,
      db
        .select({ id: recipes.id, productId: recipes.productId, yield: recipes.yield, items: recipes.items })
        .from(recipes)
        .where(and(eq(recipes.companyId, companyId), isNull(recipes.deletedAt)))
        .orderBy(asc(recipes.createdAt), asc(recipes.id)),
      db
        .select({
          id: ingredients.id,
          name: ingredients.name,
          unit: ingredients.unit,
          stock: ingredients.stock,
          minStock: ingredients.minStock,
        })
        .from(ingredients)
        .where(and(eq(ingredients.companyId, companyId), isNull(ingredients.deletedAt))),
      opts.orders ? this.ordersOf(companyId, company.timeZone, ofDay) : Promise.resolve(undefined),
    ]);
    const ordered = new Map(totalRows.rows.map((r) => [r.productId, r]));

    const productIds = [...ordered.keys()];
    const productRows = productIds.length
      ? await db
          .select({ id: products.id, name: products.name, recipeId: products.recipeId, allergens: products.allergens })
          .from(products)
          .where(and(eq(products.companyId, companyId), inArray(products.id, productIds)))
      : [];
    const productById = new Map(productRows.map((p) => [p.id, p]));
    const recipeOf = recipeByProduct(productRows, recipeRows);
    const ingredientById = new Map<string, UseIngredient & (typeof ingredientRows)[number]>(
      ingredientRows.map((i) => [i.id, i]),
    );

    const needed = new Map<string, number>();
    // What the rest of the day's baking takes: production already took what was made out of stock
    // (stock.ts), so a shortage counted from the whole day would count that part twice.
    const toBake = new Map<string, number>();
    const problems: ProductionDay['problems'] = [];
    const productLines: ProductionProduct[] = [];
    for (const [productId, entry] of ordered) {
      const product = productById.get(productId);
      const recipe = recipeOf.get(productId);
      const batches = recipe ? batchesFor(entry.quantity, recipe.yield) : null;
      if (recipe && batches !== null) {
        addRecipeUse(needed, recipe, batches, ingredientById, problems);
        const left = batchesFor(Math.max(0, entry.quantity - entry.produced), recipe.yield) ?? 0;
        if (left > 0) addRecipeUse(toBake, recipe, left, ingredientById);
      }
      productLines.push({
        productId,
        name: product?.name ?? entry.name,
        quantity: entry.quantity,
        produced: entry.produced,
        recipeId: recipe?.id ?? null,
        recipeYield: recipe?.yield ?? null,
        batches,
        allergens: product?.allergens ?? [],
      });
    }
    productLines.sort((a, b) => a.name.localeCompare(b.name, 'es'));

    const ingredientLines = [...needed].map(([id, amount]) => {
      const i = ingredientById.get(id)!;
      const need = roundQuantity(amount);
      return {
        ingredientId: id,
        name: i.name,
        unit: i.unit,
        needed: need,
        stock: i.stock,
        minStock: i.minStock,
        // Stock below zero (more used than counted) is its own warning, not more to buy.
        shortage: shortageOf(roundQuantity(toBake.get(id) ?? 0), Math.max(0, i.stock)),
      };
    });
    // Shortages first, then by name: what the office must buy is at the top.
    ingredientLines.sort(
      (a, b) => Number(b.shortage > 0) - Number(a.shortage > 0) || a.name.localeCompare(b.name, 'es'),
    );

    return { date, products: productLines, ingredients: ingredientLines, problems, ...(list ? { orders: list } : {}) };
  }

  /** The day's orders as the screens show them (single page, labels, the tablet): due first, then window. */
  private async ordersOf(companyId: string, timeZone: string, ofDay: SQL | undefined): Promise<ProductionOrder[]> {
    const db = this.ctx.db;
    const [rows, settingsRows] = await Promise.all([
      db
        .select({
          id: orders.id,
          number: orders.number,
          status: orders.status,
          contact: orders.contact,
          dueDate: orders.dueDate,
          window: orders.window,
          fulfillment: orders.fulfillment,
          notes: orders.notes,
          items: orders.items,
          producedQuantities: orders.producedQuantities,
        })
        .from(orders)
        .where(ofDay)
        .orderBy(asc(orders.dueDate), asc(orders.window), asc(orders.number))
        .limit(MAX_PRODUCTION_ORDERS),
      db.select({ data: settings.data }).from(settings).where(eq(settings.companyId, companyId)).limit(1),
    ]);
    // The one label of a window, as the shop and the office say it (packages/domain order-display).
    const windows = settingsRows[0]?.data?.deliveryWindows ?? [];
    return rows.map((o) => ({
      id: o.id,
      number: o.number,
      status: o.status,
      customer: o.contact.name,
      dueDate: dayInZone(o.dueDate, timeZone),
      window: o.window,
      windowLabel: o.window ? windowLabel(o.window, windows) : null,
      fulfillment: o.fulfillment,
      notes: o.notes,
      items: o.items.map((i) => ({ productId: i.productId, name: i.name, quantity: i.quantity })),
      producedQuantities: o.producedQuantities,
    }));
  }
}
