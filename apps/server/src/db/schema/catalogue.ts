import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, numeric, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { B2bClientInput, productImage, recipeItem } from '@hornada/domain';
import { ts, dec4 } from './columns';
import { base, companies } from './tenants';

/** A company's catalogue (docs/design.md §4): collections, brands, products, ingredients, recipes, B2B clients and stored files. */

export const productCollections = pgTable(
  'product_collections',
  {
    ...base,
    name: text().notNull(),
    description: text(),
    image: jsonb().$type<{ path: string; alt: string } | null>(),
    sortOrder: integer().notNull().default(0),
    active: boolean().notNull().default(true),
  },
  (t) => [index().on(t.companyId, t.createdAt)],
);

export const brands = pgTable(
  'brands',
  {
    ...base,
    name: text().notNull(),
    description: text(),
    logo: jsonb().$type<{ path: string; alt: string } | null>(),
  },
  (t) => [index().on(t.companyId, t.createdAt)],
);

export const products = pgTable(
  'products',
  {
    ...base,
    name: text().notNull(),
    description: text(),
    price: integer().notNull(),
    b2bPrice: integer(),
    collectionId: text(),
    brandId: text(),
    recipeId: text(),
    images: jsonb().$type<z.infer<typeof productImage>[]>().notNull().default([]),
    active: boolean().notNull().default(true),
    allergens: jsonb().$type<string[]>().notNull().default([]),
    sortOrder: integer().notNull().default(0),
  },
  (t) => [index().on(t.companyId, t.createdAt), index().on(t.companyId, t.collectionId)],
);

export const ingredients = pgTable(
  'ingredients',
  {
    ...base,
    name: text().notNull(),
    unit: text().notNull(),
    costPerUnit: dec4().notNull().default(0),
    stock: dec4().notNull().default(0),
    minStock: dec4().notNull().default(0),
    supplier: text(),
    /** At or under its minimum (when it has one), for the ingredients screen's filter: kept by PostgreSQL, never sent. */
    lowStock: boolean().generatedAlwaysAs(sql`min_stock > 0 AND stock <= min_stock`),
  },
  (t) => [index().on(t.companyId, t.createdAt)],
);

export const recipes = pgTable(
  'recipes',
  {
    ...base,
    name: text().notNull(),
    productId: text(),
    yield: integer().notNull(),
    items: jsonb().$type<z.infer<typeof recipeItem>[]>().notNull().default([]),
    steps: jsonb().$type<string[]>().notNull().default([]),
    prepMinutes: integer(),
  },
  (t) => [index().on(t.companyId, t.createdAt)],
);

type B2b = z.infer<typeof B2bClientInput>;

export const b2bClients = pgTable(
  'b2b_clients',
  {
    ...base,
    businessName: text().notNull(),
    taxId: text(),
    contactName: text(),
    phone: text(),
    email: text(),
    address: text(),
    discountPercent: numeric({ precision: 5, scale: 2, mode: 'number' }).notNull().default(0),
    prices: jsonb().$type<B2b['prices']>().notNull().default([]),
    paymentTermsDays: integer().notNull().default(0),
    creditLimit: integer().notNull().default(0),
    active: boolean().notNull().default(true),
  },
  (t) => [index().on(t.companyId, t.createdAt)],
);

/**
 * A company's images (modules/files: uploads, and the demo seed's pictures): which company owns each
 * stored path, and the bytes it takes in the storage (every width), summed for the company's quota.
 */
export const files = pgTable(
  'files',
  {
    companyId: text()
      .notNull()
      .references(() => companies.id),
    path: text().notNull(),
    /** Bytes in the storage: every width together. */
    bytes: integer().notNull(),
    /** The largest width's bytes (the API's `size`). */
    size: integer().notNull(),
    contentType: text().notNull(),
    width: integer().notNull(),
    height: integer().notNull(),
    widths: jsonb().$type<number[]>().notNull(),
    createdAt: ts().notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.path] })],
);
