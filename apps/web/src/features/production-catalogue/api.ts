import type { Unit } from '@hornada/domain/constants';
import type { Ingredient, IngredientInput, Product, Recipe, RecipeInput } from '@hornada/domain/schemas/catalogue';
import type { z } from 'zod';
import { http, type Query } from '../../lib/api/http';
import { companyPath } from '../../lib/api/paths';

/**
 * What the ingredients and recipes screens read and write (docs/design.md §3/§4): the `ingredients` and `recipes`
 * resources, the products a recipe is for, and the settings' target margin. A bakery has tens of recipes
 * and ingredients, so the screens read each whole list once (MAX_PER_PAGE) and keep it live.
 */

export type { Ingredient, Product, Recipe };
export type IngredientWrite = z.input<typeof IngredientInput>;
export type RecipeWrite = z.input<typeof RecipeInput>;
export type { Unit };

/** Far above a bakery's tens of recipes and ingredients; the API's own ceiling (docs/design.md §3). */
export const ALL = 1000;

const item = (companyId: string, resource: string, id: string) => companyPath(companyId, resource, id);

async function listAll<T>(companyId: string, resource: string, query: Query, signal?: AbortSignal): Promise<T[]> {
  const { items } = await http.list<T>(companyPath(companyId, resource), {
    query: { per_page: ALL, ...query },
    signal,
  });
  return items;
}

export const catalogueApi = {
  ingredients: (companyId: string, signal?: AbortSignal) =>
    listAll<Ingredient>(companyId, 'ingredients', { sort: 'name' }, signal),
  ingredientsPage: (companyId: string, query: Query, signal?: AbortSignal) =>
    http.list<Ingredient>(companyPath(companyId, 'ingredients'), { query, signal }),
  ingredient: (companyId: string, id: string, signal?: AbortSignal) =>
    http.get<Ingredient>(item(companyId, 'ingredients', id), { signal }),
  createIngredient: (companyId: string, data: IngredientWrite) =>
    http.post<Ingredient>(companyPath(companyId, 'ingredients'), data),
  updateIngredient: (companyId: string, id: string, data: IngredientWrite) =>
    http.put<Ingredient>(item(companyId, 'ingredients', id), data),
  removeIngredient: (companyId: string, id: string) => http.delete<unknown>(item(companyId, 'ingredients', id)),

  recipes: (companyId: string, signal?: AbortSignal) => listAll<Recipe>(companyId, 'recipes', { sort: 'name' }, signal),
  recipe: (companyId: string, id: string, signal?: AbortSignal) =>
    http.get<Recipe>(item(companyId, 'recipes', id), { signal }),
  createRecipe: (companyId: string, data: RecipeWrite) => http.post<Recipe>(companyPath(companyId, 'recipes'), data),
  updateRecipe: (companyId: string, id: string, data: RecipeWrite) =>
    http.put<Recipe>(item(companyId, 'recipes', id), data),
  removeRecipe: (companyId: string, id: string) => http.delete<unknown>(item(companyId, 'recipes', id)),

  products: (companyId: string, signal?: AbortSignal) =>
    listAll<Product>(companyId, 'products', { sort: 'name' }, signal),

  /** The settings' target margin (percent); null when the settings do not say. */
  targetMargin: async (companyId: string, signal?: AbortSignal): Promise<number | null> => {
    const settings = await http.get<{ targetMargin?: unknown }>(companyPath(companyId, 'settings'), { signal });
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
