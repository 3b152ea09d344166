/**
 * The demo seed (docs/design.md §7): what it writes, that it writes it once, and that its pictures are real
 * WebP files of the stated sizes. The database comes from the shared harness (helpers/app.ts: a fresh
 * copy of the run's migrated template, embedded PostgreSQL or DATABASE_URL), set up in beforeAll only,
 * so another setup can be swapped in there.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { count, isNull } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertUnit, isValidNit } from '@hornada/domain';
import type { Db } from '../src/db';
import {
  b2bClients,
  brands,
  companies,
  ingredients,
  productCollections,
  products,
  recipes,
  settings,
  users,
} from '../src/db/schema';
import { seedDemo } from '../src/seed';
import { DEMO_COMPANY_ID } from '../src/seed/ids';
import { setupTestApp, type TestApp } from './helpers/app';
import { seedDemoInto } from './helpers/seed';

async function counts(db: Db): Promise<Record<string, number>> {
  const tables = { companies, settings, productCollections, brands, products, ingredients, recipes, b2bClients };
  const out: Record<string, number> = {};
  for (const [name, table] of Object.entries(tables)) {
    const [row] = await db.select({ n: count() }).from(table);
    out[name] = row?.n ?? 0;
  }
  return out;
}

/** Reads a picture and checks it is the WebP it claims to be. */
async function expectWebp(file: string, width: number, height: number) {
  expect(existsSync(file), file).toBe(true);
  const meta = await sharp(file).metadata();
  expect(meta.format, file).toBe('webp');
  expect(meta.width, file).toBe(width);
  expect(meta.height, file).toBe(height);
}

/** The demo draws its pictures (sharp) and writes a month of orders: on a loaded two-core machine, past 30 s. */
const SEED_TIMEOUT_MS = 120_000;

describe('demo seed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await setupTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = async <T>(url: string, token?: string) =>
    JSON.parse((await t.call({ method: 'GET', url, token })).body) as T;

  it(
    'seeds La Espiga once: catalogue, recipes within margin, B2B clients, real pictures, demo accounts',
    { timeout: SEED_TIMEOUT_MS },
    async () => {
      const messages: string[] = [];
      const started = performance.now();
      // As the server does: the demo accounts in the seed's own transaction.
      const result = await seedDemoInto(t, { log: (m) => messages.push(m) });
      console.log(
        `${messages.join('; ')} (measured by the test: ${((performance.now() - started) / 1000).toFixed(2)} s)`,
      );
      expect(result).toEqual({ seeded: true, products: expect.any(Number) });
      const seeded = await counts(t.db);
      expect(seeded).toMatchObject({
        companies: 1,
        settings: 1,
        productCollections: 5,
        brands: 3,
        ingredients: 15,
        b2bClients: 2,
      });
      expect(seeded.products).toBeGreaterThanOrEqual(28);
      expect(result.products).toBe(seeded.products);
      expect(seeded.recipes).toBeGreaterThanOrEqual(20);

      // Collections in their order.
      const cols = await t.db.select().from(productCollections).orderBy(productCollections.sortOrder);
      expect(cols.map((c) => c.name)).toEqual([
        'Panes',
        'Pandebonos y almojábanas',
        'Tortas y postres',
        'Galletas',
        'Bebidas',
      ]);

      // Every picture: the three widths and main.webp, 4:3.
      const files = path.join(t.dataDir, 'files');
      for (const c of cols) {
        expect(c.image?.path).toBe(`collections/${c.id}/main.webp`);
        await expectWebp(path.join(files, c.image!.path), 960, 720);
      }
      const prods = await t.db.select().from(products);
      expect(prods.filter((p) => !p.active).length).toBeGreaterThanOrEqual(1);
      expect(prods.every((p) => p.companyId === DEMO_COMPANY_ID)).toBe(true);
      for (const p of prods) {
        expect(p.images).toEqual([
          { path: `products/${p.id}/main.webp`, alt: p.name, width: 960, height: 720, widths: [320, 480, 720, 960] },
        ]);
        const img = p.images[0]!;
        await expectWebp(path.join(files, img.path), 960, 720);
        for (const w of img.widths) {
          await expectWebp(path.join(files, img.path.replace(/\.webp$/, `-${w}.webp`)), w, (w * 3) / 4);
        }
      }
      // createdAt is staggered, so "newest first" is an order.
      expect(new Set(prods.map((p) => p.createdAt.getTime())).size).toBe(prods.length);

      // Recipes: each product's recipe costs less than its price; margins between 40 % and 80 %.
      const ings = new Map((await t.db.select().from(ingredients)).map((i) => [i.id, i]));
      expect([...ings.values()].filter((i) => i.stock < i.minStock).length).toBeGreaterThanOrEqual(2);
      const recs = await t.db.select().from(recipes);
      const byId = new Map(prods.map((p) => [p.id, p]));
      const costs = new Map<string, number>();
      for (const r of recs) {
        const product = byId.get(r.productId!);
        expect(product?.recipeId, r.name).toBe(r.id);
        let batch = 0;
        for (const item of r.items) {
          const ing = ings.get(item.ingredientId);
          expect(ing, r.name).toBeDefined();
          const qty = convertUnit(item.quantity, item.unit ?? ing!.unit, ing!.unit);
          expect(qty, `${r.name}: ${item.unit} → ${ing!.unit}`).not.toBeNull();
          batch += qty! * ing!.costPerUnit;
        }
        const perUnit = batch / r.yield;
        costs.set(r.id, perUnit);
        expect(perUnit, r.name).toBeLessThan(product!.price);
        const margin = (1 - perUnit / product!.price) * 100;
        expect(margin, r.name).toBeGreaterThanOrEqual(40);
        expect(margin, r.name).toBeLessThanOrEqual(80);
      }
      expect(prods.filter((p) => p.recipeId).length).toBe(recs.length);

      // B2B clients: valid NITs, overrides that name real products.
      const clients = await t.db.select().from(b2bClients);
      for (const c of clients) {
        expect(isValidNit(c.taxId!), c.taxId!).toBe(true);
        expect(c.prices.length).toBeGreaterThan(0);
        for (const pr of c.prices) expect(byId.has(pr.productId)).toBe(true);
      }
      expect(await t.db.select().from(settings)).toEqual([
        expect.objectContaining({
          companyId: DEMO_COMPANY_ID,
          data: expect.objectContaining({ marketName: 'Panadería La Espiga', timeZone: 'America/Bogota' }),
        }),
      ]);

      // Through the API: the demo accounts sign in and read it all.
      const signIn = await t.call({
        method: 'POST',
        url: '/api/identity/sign-in',
        payload: { email: 'admin@hornada.test', password: 'hornada-demo' },
      });
      expect(signIn.statusCode).toBe(200);
      const token = (JSON.parse(signIn.body) as { data: { idToken: string } }).data.idToken;
      for (const email of [
        'root@hornada.test',
        'staff@hornada.test',
        'cliente@hornada.test',
        'domicilios@hornada.test',
        'produccion@hornada.test',
      ]) {
        const res = await t.call({
          method: 'POST',
          url: '/api/identity/sign-in',
          payload: { email, password: 'hornada-demo' },
        });
        expect(res.statusCode, email).toBe(200);
      }
      const api = `/api/companies/${DEMO_COMPANY_ID}`;
      const publicList = await get<{ data: { active: boolean }[]; total: number }>(`${api}/products?per_page=100`);
      expect(publicList.total).toBe(prods.filter((p) => p.active).length);
      const apiRecipes = await get<{ data: { id: string; costPerUnit: number }[] }>(
        `${api}/recipes?per_page=100`,
        token,
      );
      for (const r of apiRecipes.data) expect(r.costPerUnit).toBeCloseTo(costs.get(r.id)!, 0);
      const first = prods[0]!.images[0]!;
      const served = await t.call({ method: 'GET', url: `/files/${first.path.replace(/\.webp$/, '-320.webp')}` });
      expect(served.statusCode).toBe(200);
      // File names never change content, so a year and immutable (docs/design.md §3).
      const cache = String(served.headers['cache-control']);
      expect(cache).toContain('max-age=31536000');
      expect(cache).toContain('immutable');
      expect(served.headers['content-type']).toBe('image/webp');

      // Once: a second call finds a company and touches nothing.
      expect(await seedDemoInto(t)).toEqual({ seeded: false, products: 0 });
      expect(await counts(t.db)).toEqual(seeded);
      const [live] = await t.db.select({ n: count() }).from(products).where(isNull(products.deletedAt));
      expect(live?.n).toBe(seeded.products);
    },
  );
});

describe('demo seed, two instances starting together', () => {
  let t: TestApp;
  beforeAll(async () => {
    // A short statement timeout: the second instance's wait for the first's seed (seconds) must outlast it.
    t = await setupTestApp({ env: { DB_STATEMENT_TIMEOUT_MS: '500' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it(
    'seeds once; the other call returns seeded:false and removes the pictures it drew',
    { timeout: SEED_TIMEOUT_MS },
    async () => {
      const opts = { db: t.db, clock: t.clock, dataDir: t.dataDir, resources: t.app.resources };
      const results = await Promise.all([seedDemo(opts), seedDemo(opts)]);
      expect(results.filter((r) => r.seeded)).toHaveLength(1);
      expect((await counts(t.db)).companies).toBe(1);
      const prods = await t.db.select({ id: products.id }).from(products);
      const dirs = (await import('node:fs')).readdirSync(path.join(t.dataDir, 'files', 'products'));
      expect(dirs.sort()).toEqual(prods.map((p) => p.id).sort());
    },
  );
});

describe('demo seed, failing part-way', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await setupTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it(
    'leaves neither a catalogue without accounts nor accounts without a catalogue',
    { timeout: SEED_TIMEOUT_MS },
    async () => {
      const failing = seedDemoInto(t, {
        // A crash after the accounts, before the commit.
        after: () => Promise.reject(new Error('boom')),
      });
      await expect(failing).rejects.toThrow('boom');
      expect(Object.values(await counts(t.db)).every((n) => n === 0)).toBe(true);
      const [accounts] = await t.db.select({ n: count() }).from(users);
      expect(accounts?.n).toBe(0);
      // Its pictures went with it.
      expect((await import('node:fs')).readdirSync(path.join(t.dataDir, 'files', 'products'))).toEqual([]);

      // The next start seeds everything.
      const again = await seedDemoInto(t);
      expect(again.seeded).toBe(true);
      const [seededAccounts] = await t.db.select({ n: count() }).from(users);
      expect(seededAccounts?.n).toBe(6);
    },
  );
});
