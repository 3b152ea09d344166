import { and, eq, inArray, isNull } from 'drizzle-orm';
import {
  B2bClient,
  B2bClientInput,
  Brand,
  BrandInput,
  convertUnit,
  Ingredient,
  IngredientInput,
  Product,
  ProductCollection,
  ProductCollectionInput,
  ProductInput,
  Recipe,
  RECIPE_DERIVED,
  RecipeInput,
  toPatchSchema,
} from '@hornada/domain';
import { b2bClients, brands, ingredients, productCollections, products, recipes } from '../db/schema';
import type { ResourceDefinition, Row } from './definition';
import { usersResource } from '../modules/users/users.resource';

const BACK_OFFICE = ['company_admin', 'company_staff'] as const;
const WITH_PRODUCTION = ['company_admin', 'company_staff', 'production_assistant'] as const;
const BASE_DATES = ['createdAt', 'updatedAt'] as const;

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
  read: {
    roles: BACK_OFFICE,
    public: { where: (t) => eq((t as typeof products).active, true), test: (d) => d.active === true },
  },
  write: BACK_OFFICE,
  references: [
    { path: 'collectionId', table: productCollections, label: 'product collection' },
    { path: 'brandId', table: brands, label: 'brand' },
    { path: 'recipeId', table: recipes, label: 'recipe' },
  ],
};

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
  read: {
    roles: BACK_OFFICE,
    public: { where: (t) => eq((t as typeof productCollections).active, true), test: (d) => d.active === true },
  },
  write: BACK_OFFICE,
};

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
  read: { roles: BACK_OFFICE, public: { where: () => undefined, test: () => true } },
  write: BACK_OFFICE,
};

export const ingredientsResource: ResourceDefinition = {
  name: 'ingredients',
  label: 'Ingredient',
  table: ingredients,
  input: IngredientInput,
  patch: toPatchSchema(IngredientInput),
  record: Ingredient,
  searchFields: ['name', 'supplier'],
  sortFields: ['createdAt', 'updatedAt', 'name', 'costPerUnit', 'stock', 'supplier'],
  filterFields: ['unit', 'supplier'],
  dateFields: BASE_DATES,
  read: { roles: WITH_PRODUCTION },
  write: BACK_OFFICE,
};

/**
 * Cost a unit from the ingredients' costs; margin against the product's price (design §4). A deleted
 * ingredient or product counts as missing: the cost (or margin) is then unknown, null.
 */
async function presentRecipes(
  ctx: Parameters<NonNullable<ResourceDefinition['present']>>[0],
  companyId: string,
  rows: Row[],
) {
  const ingredientIds = [
    ...new Set(rows.flatMap((r) => (r.items as { ingredientId: string }[]).map((i) => i.ingredientId))),
  ];
  const productIds = [...new Set(rows.map((r) => r.productId).filter((v): v is string => typeof v === 'string'))];
  const [ings, prods] = await Promise.all([
    ingredientIds.length
      ? ctx.db
          .select({ id: ingredients.id, unit: ingredients.unit, costPerUnit: ingredients.costPerUnit })
          .from(ingredients)
          .where(
            and(
              eq(ingredients.companyId, companyId),
              inArray(ingredients.id, ingredientIds),
              isNull(ingredients.deletedAt),
            ),
          )
      : [],
    productIds.length
      ? ctx.db
          .select({ id: products.id, price: products.price })
          .from(products)
          .where(and(eq(products.companyId, companyId), inArray(products.id, productIds), isNull(products.deletedAt)))
      : [],
  ]);
  const ingById = new Map(ings.map((i) => [i.id, i]));
  const priceById = new Map(prods.map((p) => [p.id, p.price]));
  return rows.map((r) => {
    let batchCost = 0;
    let known = true;
    for (const item of r.items as { ingredientId: string; quantity: number; unit: string | null }[]) {
      const ing = ingById.get(item.ingredientId);
      const qty = ing ? convertUnit(item.quantity, item.unit ?? ing.unit, ing.unit) : null;
      if (!ing || qty === null) {
        known = false;
        continue;
      }
      batchCost += qty * ing.costPerUnit;
    }
    const costPerUnit = known ? Math.round((batchCost / (r.yield as number)) * 10_000) / 10_000 : null;
    const price = typeof r.productId === 'string' ? priceById.get(r.productId) : undefined;
    const margin = costPerUnit !== null && price ? Math.round(((price - costPerUnit) / price) * 1000) / 10 : null;
    return { ...r, costPerUnit, margin };
  });
}

export const recipesResource: ResourceDefinition = {
  name: 'recipes',
  label: 'Recipe',
  table: recipes,
  input: RecipeInput,
  patch: toPatchSchema(RecipeInput),
  record: Recipe,
  searchFields: ['name'],
  sortFields: ['createdAt', 'updatedAt', 'name', 'yield'],
  filterFields: ['productId'],
  dateFields: BASE_DATES,
  read: { roles: WITH_PRODUCTION },
  write: BACK_OFFICE,
  references: [
    { path: 'productId', table: products, label: 'product' },
    { path: 'items.*.ingredientId', table: ingredients, label: 'ingredient' },
  ],
  derived: RECIPE_DERIVED,
  present: presentRecipes,
};

export const b2bClientsResource: ResourceDefinition = {
  name: 'b2bClients',
  label: 'B2B client',
  table: b2bClients,
  input: B2bClientInput,
  patch: toPatchSchema(B2bClientInput),
  record: B2bClient,
  searchFields: ['businessName', 'contactName', 'taxId', 'email'],
  sortFields: ['createdAt', 'updatedAt', 'businessName', 'paymentTermsDays'],
  filterFields: ['active', 'paymentTermsDays'],
  dateFields: BASE_DATES,
  read: { roles: BACK_OFFICE },
  write: BACK_OFFICE,
  references: [{ path: 'prices.*.productId', table: products, label: 'product' }],
};

export const RESOURCES: readonly ResourceDefinition[] = [
  usersResource,
  productsResource,
  productCollectionsResource,
  brandsResource,
  ingredientsResource,
  recipesResource,
  b2bClientsResource,
];
