import { eq } from 'drizzle-orm';
import { Product, ProductInput, toPatchSchema } from '@hornada/domain';
import { brands, productCollections, products, recipes } from '../../db/schema';
import type { ResourceDefinition } from '../definition';
import { BASE_DATES } from './common';

export const productsResource: ResourceDefinition = {
  name: 'products',
  label: 'Product',
  table: products,
  input: ProductInput,
  patch: toPatchSchema(ProductInput),
  record: Product,
  searchFields: ['name', 'description'],
  sortFields: ['createdAt', 'updatedAt', 'name', 'price', 'sortOrder'],
  filterFields: ['collectionId', 'brandId', 'recipeId', 'active', 'price'],
  dateFields: BASE_DATES,
  publicRecords: { where: (t) => eq((t as typeof products).active, true), test: (d) => d.active === true },
  references: [
    { path: 'collectionId', table: productCollections, label: 'product collection' },
    { path: 'brandId', table: brands, label: 'brand' },
    { path: 'recipeId', table: recipes, label: 'recipe' },
  ],
};
