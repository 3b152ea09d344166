import { eq } from 'drizzle-orm';
import { ProductCollection, ProductCollectionInput, toPatchSchema } from '@hornada/domain';
import { productCollections } from '../../db/schema';
import type { ResourceDefinition } from '../definition';
import { BASE_DATES } from './common';

export const productCollectionsResource: ResourceDefinition = {
  name: 'productCollections',
  label: 'Product collection',
  table: productCollections,
  input: ProductCollectionInput,
  patch: toPatchSchema(ProductCollectionInput),
  record: ProductCollection,
  searchFields: ['name', 'description'],
  sortFields: ['createdAt', 'updatedAt', 'name', 'sortOrder'],
  filterFields: ['active'],
  dateFields: BASE_DATES,
  publicRecords: { where: (t) => eq((t as typeof productCollections).active, true), test: (d) => d.active === true },
};
