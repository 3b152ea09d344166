/**
 * Backups that restore: `npm run backup` of the demo bakery, taken while its app runs,
 * restored by `npm run restore` into a fresh database and files directory; then every table holds the
 * same rows, and an app booted on the restored database answers the reads a bakery makes (the storefront,
 * a product picture, sign-in with a demo account, the orders and the sales report).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { parseConfig } from '../src/config';
import { createDb } from '../src/db';
import { createKeyStore } from '../src/lib/keys';
import { DEMO_COMPANY_ID } from '../src/seed/ids';
import { json, setupTestApp, type TestApp } from './helpers/app';
import { createTestDatabase } from './helpers/db';
import { seedDemoInto } from './helpers/seed';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');

let source: TestApp;
let target: { url: string; drop: () => Promise<void> };
let backupDir: string;
let restoredDataDir: string;

beforeAll(async () => {
  source = await setupTestApp();
  await seedDemoInto(source);
  target = await createTestDatabase();
  backupDir = await mkdtemp(path.join(os.tmpdir(), 'hornada-backup-'));
  restoredDataDir = await mkdtemp(path.join(os.tmpdir(), 'hornada-restored-'));
}, 120_000);
afterAll(async () => {
  await source?.close();
  await target?.drop();
  await rm(backupDir, { recursive: true, force: true });
  await rm(restoredDataDir, { recursive: true, force: true });
});

/** Every table's rows, as one md5 of its rows in a fixed order (generated columns included). */
async function fingerprint(url: string): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>(
      "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
    );
    const out: Record<string, string> = {};
    for (const { name } of tables.rows) {
      const r = await client.query<{ n: string; h: string | null }>(
        `SELECT count(*) AS n, md5(string_agg(t::text, '|' ORDER BY t::text)) AS h FROM "${name}" t`,
      );
      out[name] = `${r.rows[0]!.n}:${r.rows[0]!.h ?? ''}`;
    }
    return out;
  } finally {
    await client.end();
  }
}

it('restores a backup of the demo, taken while the app runs, into a fresh database that passes the read checks', async () => {
  const sourceUrl = source.db.$client.options.connectionString!;
  // Taken while the source app runs, as an operator would.
  const backup = await run(process.execPath, [path.join(root, 'scripts/backup.mjs'), backupDir], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: sourceUrl, DATA_DIR: source.dataDir, STORAGE: 'local' },
  });
  expect(backup.stdout).toContain('Copia de seguridad en');
  const manifest = JSON.parse(await readFile(path.join(backupDir, 'manifest.json'), 'utf8')) as {
    tables: Record<string, { rows: number }>;
    files: number;
  };
  expect(manifest.tables.orders!.rows).toBeGreaterThan(100);
  expect(manifest.files).toBeGreaterThan(0);

  const restore = await run(process.execPath, [path.join(root, 'scripts/restore.mjs'), backupDir], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: target.url, DATA_DIR: restoredDataDir, STORAGE: 'local' },
  });
  expect(restore.stdout).toContain('Restaurado desde');
  // Every table alike, row for row (the unlogged counters included).
  expect(await fingerprint(target.url)).toEqual(await fingerprint(sourceUrl));

  // A second restore into the same database is refused: it is no longer empty.
  const again = await run(process.execPath, [path.join(root, 'scripts/restore.mjs'), backupDir], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: target.url, DATA_DIR: restoredDataDir },
  }).catch((err: { stderr: string }) => err);
  expect('stderr' in again ? again.stderr : '').toContain('La base de datos no está vacía');

  // The read checks, on an app booted on the restored database and files.
  const config = parseConfig({ DATA_DIR: restoredDataDir, SEED_DEMO: 'off', NODE_ENV: 'test', PORT: '0' });
  const db = createDb(target.url, 5, config.dbStatementTimeoutMs);
  const keys = await createKeyStore({ dataDir: restoredDataDir, issuer: config.publicUrl });
  const app = await buildApp({ config, db, clock: source.clock, keys });
  try {
    await app.ready();
    const api = `/api/companies/${DEMO_COMPANY_ID}`;
    const products = await app.inject({ url: `${api}/products` });
    expect(products.statusCode).toBe(200);
    const list = json<{ data: { images?: { path?: string }[] }[] }>(products).data;
    expect(list.length).toBeGreaterThan(5);
    // The storefront's configuration names the restored bakery (pages need the web build, which server tests
    // run without: the API gives the same facts).
    const shopConfig = await app.inject({ url: '/api/config' });
    expect(shopConfig.statusCode).toBe(200);
    expect(json<{ data: { marketName: string } }>(shopConfig).data.marketName).toContain('La Espiga');
    // A product picture comes from the restored files.
    const picture = list.flatMap((p) => p.images ?? []).find((i) => i.path)?.path;
    expect(picture).toBeTruthy();
    const file = await app.inject({ url: `/files/${picture!}` });
    expect(file.statusCode).toBe(200);

    const signIn = await app.inject({
      method: 'POST',
      url: '/api/identity/sign-in',
      payload: { email: 'admin@hornada.test', password: 'hornada-demo' },
    });
    expect(signIn.statusCode, signIn.body).toBe(200);
    const auth = { authorization: `Bearer ${json<{ data: { idToken: string } }>(signIn).data.idToken}` };
    const orders = await app.inject({ url: `${api}/orders?per_page=100`, headers: auth });
    expect(orders.statusCode, orders.body).toBe(200);
    expect(json<{ total: number }>(orders).total).toBe(manifest.tables.orders!.rows);
    const report = await app.inject({ url: `${api}/reports/sales?from=2026-11-01&to=2026-11-30`, headers: auth });
    expect(report.statusCode, report.body).toBe(200);
  } finally {
    await app.close();
    await db.$client.end();
  }
}, 180_000);
