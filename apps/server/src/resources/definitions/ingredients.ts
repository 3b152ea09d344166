import { Ingredient, IngredientInput, toPatchSchema } from '@hornada/domain';
import { ingredients } from '../../db/schema';
import type { ResourceDefinition } from '../definition';
import { BASE_DATES } from './common';

export const ingredientsResource: ResourceDefinition = {
  name: 'ingredients',
  label: 'Ingredient',
  table: ingredients,
  input: IngredientInput,
  patch: toPatchSchema(IngredientInput),
  record: Ingredient,
  searchFields: ['name', 'supplier'],
  sortFields: ['createdAt', 'updatedAt', 'name', 'costPerUnit', 'stock', 'supplier'],
  filterFields: ['unit', 'supplier', 'lowStock'],
  hidden: ['lowStock'],
  dateFields: BASE_DATES,
};
