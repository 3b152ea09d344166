import { sql } from 'drizzle-orm';
import type { CatalogueProduct, SettingsInput } from '@hornada/domain';
import type { DbOrTx } from '../../db';
import { products, settings } from '../../db/schema';

/** A product as carts and order lines read it (b2bPrice is for order pricing only, never for a cart). */
export interface ProductRow extends CatalogueProduct {
  b2bPrice: number | null;
}

export interface SettingsAndProducts {
  /** The stored settings and the row's version (xmin, which every update changes); null for none. */
  settings: { data: SettingsInput; version: string } | null;
  products: ProductRow[];
}

/**
 * A company's settings and the products of some lines in one round trip: every cart write and every
 * order runs it, the latter inside the ordering transaction where each round trip holds others up.
 */
export async function readSettingsAndProducts(
  db: DbOrTx,
  companyId: string,
  ids: readonly string[],
): Promise<SettingsAndProducts> {
  const { rows } = await db.execute<{ settings: SettingsAndProducts['settings']; products: ProductRow[] }>(sql`
    SELECT
      (SELECT json_build_object('data', s.data, 'version', s.xmin::text)
         FROM ${settings} s WHERE s.company_id = ${companyId}) AS settings,
      (SELECT coalesce(json_agg(json_build_object(
           'id', p.id, 'name', p.name, 'price', p.price, 'b2bPrice', p.b2b_price, 'images', p.images,
           'active', p.active, 'deleted', p.deleted_at IS NOT NULL)), '[]')
         FROM ${products} p
        WHERE p.company_id = ${companyId} AND p.id = ANY(${sql.param([...new Set(ids)])}::text[])) AS products`);
  const row = rows[0]!;
  return { settings: row.settings, products: row.products };
}
