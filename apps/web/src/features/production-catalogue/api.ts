import type { Unit } from '@hornada/domain/constants';
import type { Ingredient, IngredientInput, Product, Recipe, RecipeInput } from '@hornada/domain/schemas/catalogue';
import type { z } from 'zod';
import { endpoints } from '../../lib/api/endpoints';
import type { Query } from '../../lib/api/http';
import { records } from '../../lib/api/endpoints';

/**
 * What the ingredients and recipes screens read and write (docs/design.md §3/§4): the `ingredients` and `recipes`
 * resources, the products a recipe is for, and the settings' target margin. A bakery has tens of recipes
 * and ingredients, so the screens read each whole list once (MAX_PER_PAGE) and keep it live.
 */

export type { Ingredient, Product, Recipe };
export type IngredientWrite = z.input<typeof IngredientInput>;
export type RecipeWrite = z.input<typeof RecipeInput>;
export type { Unit };

export const catalogueApi = {
  ingredients: (companyId: string, signal?: AbortSignal) =>
    records(companyId, 'ingredients').every({ sort: 'name' }, signal),
  ingredientsPage: (companyId: string, query: Query, signal?: AbortSignal) =>
    records(companyId, 'ingredients').list({ query, signal }),
  ingredient: (companyId: string, id: string, signal?: AbortSignal) =>
    records(companyId, 'ingredients').get(id, { signal }),
  createIngredient: (companyId: string, data: IngredientWrite) => records(companyId, 'ingredients').create(data),
  updateIngredient: (companyId: string, id: string, data: IngredientWrite) =>
    records(companyId, 'ingredients').update(id, data),
  removeIngredient: (companyId: string, id: string) => records(companyId, 'ingredients').remove(id),

  recipes: (companyId: string, signal?: AbortSignal) => records(companyId, 'recipes').every({ sort: 'name' }, signal),
  recipe: (companyId: string, id: string, signal?: AbortSignal) => records(companyId, 'recipes').get(id, { signal }),
  createRecipe: (companyId: string, data: RecipeWrite) => records(companyId, 'recipes').create(data),
  updateRecipe: (companyId: string, id: string, data: RecipeWrite) => records(companyId, 'recipes').update(id, data),
  removeRecipe: (companyId: string, id: string) => records(companyId, 'recipes').remove(id),

  products: (companyId: string, signal?: AbortSignal) => records(companyId, 'products').every({ sort: 'name' }, signal),

  /** The settings' target margin (percent); null when the settings do not say. */
  targetMargin: async (companyId: string, signal?: AbortSignal): Promise<number | null> => {
    const settings = await endpoints.settings(companyId, signal);
    return typeof settings.targetMargin === 'number' ? settings.targetMargin : null;
  },
};

/** The units as a person reads them. */
export const UNIT_LABELS: Record<Unit, string> = {
  g: 'g',
  kg: 'kg',
  ml: 'ml',
  l: 'l',
  unidad: 'unidad',
};

export const UNIT_NAMES: Record<Unit, string> = {
  g: 'gramos (g)',
  kg: 'kilogramos (kg)',
  ml: 'mililitros (ml)',
  l: 'litros (l)',
  unidad: 'unidades',
};
