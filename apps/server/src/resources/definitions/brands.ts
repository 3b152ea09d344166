import { Brand, BrandInput, toPatchSchema } from '@hornada/domain';
import { brands } from '../../db/schema';
import type { ResourceDefinition } from '../definition';
import { BASE_DATES } from './common';

export const brandsResource: ResourceDefinition = {
  name: 'brands',
  label: 'Brand',
  table: brands,
  input: BrandInput,
  patch: toPatchSchema(BrandInput),
  record: Brand,
  searchFields: ['name', 'description'],
  sortFields: ['createdAt', 'updatedAt', 'name'],
  filterFields: [],
  dateFields: BASE_DATES,
  publicRecords: { where: () => undefined, test: () => true },
};
