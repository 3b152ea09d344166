import { z } from 'zod';
import { ALLERGENS, PRODUCT_IMAGES_MAX, UNITS } from '../constants';
import { convertQuantity } from '../costing';
import { baseRecord, decimal4, description, imageRef, money, name, ref, shortText } from './common';

export const productImage = z
  .object({
    path: z.string().min(1).max(500),
    alt: z.string().trim().max(300).default(''),
    width: z.number().int().min(1).max(20_000),
    height: z.number().int().min(1).max(20_000),
    widths: z.array(z.number().int().min(1).max(20_000)).max(10).default([]),
  })
  .strict();

export const ProductInput = z
  .object({
    name: name(),
    description: description().default(null),
    price: money(),
    b2bPrice: money().nullable().default(null),
    collectionId: ref().default(null),
    brandId: ref().default(null),
    recipeId: ref().default(null),
    images: z.array(productImage).max(PRODUCT_IMAGES_MAX).default([]),
    active: z.boolean().default(true),
    allergens: z.array(z.enum(ALLERGENS)).max(ALLERGENS.length).default([]),
    sortOrder: z.number().int().min(0).max(1_000_000).default(0),
  })
  .strict();
export const Product = baseRecord.extend(ProductInput.shape);
export type Product = z.infer<typeof Product>;

export const ProductCollectionInput = z
  .object({
    name: name(),
    description: description().default(null),
    image: imageRef().nullable().default(null),
    sortOrder: z.number().int().min(0).max(1_000_000).default(0),
    active: z.boolean().default(true),
  })
  .strict();
export const ProductCollection = baseRecord.extend(ProductCollectionInput.shape);
export type ProductCollection = z.infer<typeof ProductCollection>;

export const BrandInput = z
  .object({
    name: name(),
    description: description().default(null),
    logo: imageRef().nullable().default(null),
  })
  .strict();
export const Brand = baseRecord.extend(BrandInput.shape);
export type Brand = z.infer<typeof Brand>;

export const IngredientInput = z
  .object({
    name: name(),
    unit: z.enum(UNITS),
    costPerUnit: decimal4().default(0),
    stock: decimal4().default(0),
    minStock: decimal4().default(0),
    supplier: shortText().default(null),
  })
  .strict();
export const Ingredient = baseRecord.extend(IngredientInput.shape).extend({
  // Production takes from stock what it used: below 0 when more was used than recorded, which
  // is the truth to show; what a person types is never negative (IngredientInput).
  stock: z.number(),
});
export type Ingredient = z.infer<typeof Ingredient>;

export const recipeItem = z
  .object({
    ingredientId: z.string().min(1).max(64),
    quantity: decimal4().refine((n) => n > 0, 'Must be greater than 0'),
    /** Defaults to the ingredient's unit; g↔kg and ml↔l convert. */
    unit: z.enum(UNITS).nullable().default(null),
  })
  .strict();

export const RecipeInput = z
  .object({
    name: name(),
    productId: ref().default(null),
    yield: z.number().int().min(1).max(100_000),
    items: z.array(recipeItem).max(100).default([]),
    steps: z.array(z.string().trim().min(1).max(2000)).max(100).default([]),
    prepMinutes: z.number().int().min(0).max(10_000).nullable().default(null),
  })
  .strict();
/** Derived: a product made from a recipe, its price and the margin the recipe leaves (costing.ts). */
export const RecipeProduct = z.object({
  id: z.string(),
  name: z.string(),
  price: z.number(),
  margin: z.number().nullable(),
  belowTarget: z.boolean(),
});
export type RecipeProduct = z.infer<typeof RecipeProduct>;

export const Recipe = baseRecord.extend(RecipeInput.shape).extend({
  /** Derived: ingredient cost of one unit, and margin (percent): the lowest its products leave. */
  costPerUnit: z.number().nullable(),
  margin: z.number().nullable(),
  /** Derived: the products made from it (their `recipeId`, or its `productId`), each with its margin. */
  products: z.array(RecipeProduct).default([]),
});
export type Recipe = z.infer<typeof Recipe>;
export const RECIPE_DERIVED = ['costPerUnit', 'margin', 'products'] as const;

/** Converts a quantity between compatible units; null when they cannot convert (costing.ts). */
export const convertUnit = convertQuantity;
