import path from 'node:path';
import { assignSlug } from '../modules/shops';
import { count, sql } from 'drizzle-orm';
import {
  B2bClientInput,
  BrandInput,
  IngredientInput,
  nitCheckDigit,
  ProductCollectionInput,
  ProductInput,
  RecipeInput,
  SettingsInput,
} from '@hornada/domain';
import type { Db, DbOrTx } from '../db';
import { companies } from '../db/schema';
import type { Clock } from '../lib/clock';
import { newId } from '../lib/ids';
import type { ResourceRegistry } from '../resources/registry';
import { systemActor } from '../resources/actor';
import type { WriteScope } from '../resources/service';
import { B2B_CLIENTS, BRANDS, COLLECTIONS, INGREDIENTS, PRODUCTS, RECIPES, SETTINGS } from './catalogue';
import { DEMO_COMPANY_ID } from './ids';
import { createLocalStorage, type StorageDriver } from '../providers/storage';
import { recordStoredFiles } from '../modules/files';
import { createImageRenderer, WIDTHS } from '../../demo-art/images';
import { seedOrders } from './orders';

/** Runs `fn` over `items` with at most `limit` at once (2 cores: images render in parallel, not all at once). */
async function pool<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

/** Held for the seed's transaction, so two instances starting on an empty database seed once. */
const SEED_LOCK = 727276;

async function isEmpty(db: DbOrTx): Promise<boolean> {
  const [existing] = await db.select({ n: count() }).from(companies);
  return (existing?.n ?? 0) === 0;
}

/**
 * Seeds "Panadería La Espiga" (docs/design.md §7) when the database has no company. Images are written first
 * (harmless if the transaction then fails); every record passes the same schema as the API.
 * `inTransaction` runs last inside the seed's transaction: the server creates the demo accounts
 * there, so a crash can never leave a seeded catalogue without them.
 */
export async function seedDemo(opts: {
  db: Db;
  clock: Clock;
  /** The app's resource services: every record goes in through them (change log, caches, hooks). */
  resources: ResourceRegistry;
  dataDir: string;
  /** Where the pictures go (the app's driver); by default the local disk under `dataDir/files`. */
  storage?: StorageDriver;
  log?: (msg: string) => void;
  inTransaction?: (scope: WriteScope) => Promise<void>;
}): Promise<{ seeded: boolean; products: number }> {
  const { db, clock, resources } = opts;
  if (!(await isEmpty(db))) return { seeded: false, products: 0 };

  const started = performance.now();
  const storage = opts.storage ?? createLocalStorage(path.join(opts.dataDir, 'files'));
  const companyId = DEMO_COMPANY_ID;
  const ids = {
    collections: new Map(COLLECTIONS.map((c) => [c.key, newId()])),
    brands: new Map(BRANDS.map((b) => [b.key, newId()])),
    products: new Map(PRODUCTS.map((p) => [p.key, newId()])),
    ingredients: new Map(INGREDIENTS.map((i) => [i.key, newId()])),
  };
  const get = <K>(m: Map<K, string>, k: K) => {
    const v = m.get(k);
    if (!v) throw new Error(`seed: unknown key ${String(k)}`);
    return v;
  };

  // One queue for all pictures, four at a time: both cores stay busy (drawing, then encoding).
  const jobs = [
    ...COLLECTIONS.map((c) => ({ dir: `collections/${get(ids.collections, c.key)}`, image: c.image, alt: c.name })),
    ...PRODUCTS.map((p) => ({ dir: `products/${get(ids.products, p.key)}`, image: p.image, alt: p.name })),
  ];
  const renderImage = createImageRenderer();
  const images = await pool(jobs, 4, (j) => renderImage(storage, j.dir, j.image, j.alt));
  /** A picture as a product keeps it (the storage figures stay in the files table). */
  const imageValue = ({ bytes: _bytes, size: _size, ...image }: (typeof images)[number]) => image;
  const collectionImages = images.slice(0, COLLECTIONS.length);
  const productImages = images.slice(COLLECTIONS.length);
  const imagesMs = performance.now() - started;

  // Records are staggered by a few seconds so the default sort (newest first) means something.
  const base = clock.now().getTime() - 3_600_000;
  let tick = 0;
  const stamp = () => {
    const at = new Date(base + tick++ * 5000);
    return { companyId, createdAt: at, updatedAt: at, deletedAt: null };
  };

  // The pictures drawn for ids that end up unused (another instance seeded, or the transaction failed).
  const removePictures = () =>
    Promise.all(
      jobs.flatMap((j) =>
        [...WIDTHS.map((w) => `${j.dir}/main-${w}.webp`), `${j.dir}/main.webp`].map((k) => storage.delete(k)),
      ),
    );

  const seeded = await resources
    .transaction(companyId, async (scope) => {
      const { tx } = scope;
      // Start-up work, not a request: the pool's statement timeout would cancel the wait below while another
      // instance's seed (a month of orders) is still writing on a slow machine, and this instance would not start.
      await tx.execute(sql`SET LOCAL statement_timeout = 0`);
      // Another instance may have seeded while the images were drawn: check again under the lock.
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${SEED_LOCK})`);
      if (!(await isEmpty(tx))) return false;
      const now = clock.now();
      await tx.insert(companies).values({ id: companyId, name: SETTINGS.marketName, createdAt: now, updatedAt: now });
      await assignSlug(tx, companyId, SETTINGS.marketName);
      await resources.settings.createFor(scope, companyId, SettingsInput.parse(SETTINGS));
      // The pictures are the company's files like any upload: listed, counted, deletable by its staff.
      await recordStoredFiles(tx, companyId, images, now);
      // Every record through its service, as the system seeding the demo (its line in the permission
      // table): the same references, rules, change log and hooks as the API.
      const seeder = systemActor('seed');
      const insert = async (name: Parameters<ResourceRegistry['get']>[0], rows: Record<string, unknown>[]) => {
        for (const row of rows) await resources.get(name).create(seeder, companyId, row, scope);
      };

      await insert(
        'productCollections',
        COLLECTIONS.map((c, i) => ({
          id: get(ids.collections, c.key),
          ...stamp(),
          ...ProductCollectionInput.parse({
            name: c.name,
            description: c.description,
            image: { path: collectionImages[i]!.path, alt: c.name },
            sortOrder: i + 1,
          }),
        })),
      );
      await insert(
        'brands',
        BRANDS.map((b) => ({
          id: get(ids.brands, b.key),
          ...stamp(),
          ...BrandInput.parse({ name: b.name, description: b.description }),
        })),
      );
      await insert(
        'ingredients',
        INGREDIENTS.map(({ key, ...i }) => ({
          id: get(ids.ingredients, key),
          ...stamp(),
          ...IngredientInput.parse(i),
        })),
      );

      const recipeIds = new Map<string, string>();
      const recipeRows = RECIPES.map((r) => {
        const id = newId();
        recipeIds.set(r.product, id);
        const product = PRODUCTS.find((p) => p.key === r.product)!;
        return {
          id,
          ...stamp(),
          ...RecipeInput.parse({
            name: product.name,
            productId: get(ids.products, r.product),
            yield: r.yield,
            prepMinutes: r.prepMinutes,
            steps: r.steps,
            items: r.items.map(([ing, quantity, unit]) => ({
              ingredientId: get(ids.ingredients, ing),
              quantity,
              unit: unit ?? null,
            })),
          }),
        };
      });

      await insert(
        'products',
        PRODUCTS.map((p, i) => ({
          id: get(ids.products, p.key),
          ...stamp(),
          ...ProductInput.parse({
            name: p.name,
            description: p.description,
            price: p.price,
            b2bPrice: p.b2bPrice ?? null,
            collectionId: get(ids.collections, p.collection),
            brandId: p.brand ? get(ids.brands, p.brand) : null,
            // Linked once its recipe exists (below): a reference must name a record already there.
            recipeId: null,
            images: [imageValue(productImages[i]!)],
            active: p.active ?? true,
            allergens: p.allergens,
            sortOrder: i + 1,
          }),
        })),
      );
      await insert('recipes', recipeRows);
      for (const p of PRODUCTS) {
        const recipeId = recipeIds.get(p.key);
        if (recipeId) {
          await resources.products.update(seeder, companyId, get(ids.products, p.key), { recipeId }, scope);
        }
      }

      await insert(
        'b2bClients',
        B2B_CLIENTS.map(({ base: nit, prices, ...c }) => ({
          id: newId(),
          ...stamp(),
          ...B2bClientInput.parse({
            ...c,
            taxId: `${nit}-${nitCheckDigit(nit)}`,
            prices: prices.map(([key, price]) => ({ productId: get(ids.products, key), price })),
          }),
        })),
      );
      await opts.inTransaction?.(scope);
      // Last: the demo orders name the demo accounts (customer, driver) when they exist.
      const orders = await seedOrders({ scope, resources, clock, companyId });
      opts.log?.(`${orders} demo orders`);
      return true;
    })
    .catch(async (err: unknown) => {
      await removePictures();
      throw err;
    });
  if (!seeded) {
    await removePictures();
    return { seeded: false, products: 0 };
  }

  const totalMs = performance.now() - started;
  opts.log?.(
    `demo seed: ${PRODUCTS.length} products, ${jobs.length} pictures in ${(imagesMs / 1000).toFixed(2)} s, database ${((totalMs - imagesMs) / 1000).toFixed(2)} s`,
  );
  return { seeded: true, products: PRODUCTS.length };
}
