// `npm run restore -- <directory>`: a backup made by `npm run backup` put back into an empty database
// (DATABASE_URL, or the embedded one of DATA_DIR while the app runs) and its files into DATA_DIR/files
// or the S3 bucket (STORAGE=s3). The database gets this code's migrations first, which must be the
// backup's (restore with the version that made the backup, then upgrade). Refuses a database holding
// any row. The files go first, then all rows in one transaction: a failed restore leaves the database
// empty, and running it again finishes it. Restart the app afterwards: its caches were read before the
// rows came in.
import { createReadStream, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { databaseUrl, dataDir, fail, ident, migrationsFolder, s3Storage, tablesInOrder } from './backup-lib.mjs';

const BATCH = 500;
const source = process.argv[2] ? path.resolve(process.argv[2]) : null;
if (!source || !existsSync(path.join(source, 'manifest.json'))) {
  fail('Uso: npm run restore -- <carpeta de la copia> (la que escribió npm run backup, con su manifest.json).');
}
const manifest = JSON.parse(readFileSync(path.join(source, 'manifest.json'), 'utf8'));
if (manifest.format !== 'hornada-backup/1') fail(`Formato de copia desconocido: ${manifest.format}`);

/**
 * The backup's files into the storage, before the rows: a failure here leaves the database empty, and a
 * second run (refused only by a database holding rows) copies them again over what the first put.
 */
const filesDir = path.join(source, 'files');
const files = existsSync(filesDir)
  ? readdirSync(filesDir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile())
  : [];
async function copyFiles() {
  const s3 = s3Storage();
  for (const f of files) {
    const full = path.join(f.parentPath ?? f.path, f.name);
    const key = path.relative(filesDir, full).split(path.sep).join('/');
    const body = readFileSync(full);
    if (s3) {
      const type = key.endsWith('.webp')
        ? 'image/webp'
        : key.endsWith('.avif')
          ? 'image/avif'
          : key.endsWith('.jpg')
            ? 'image/jpeg'
            : undefined;
      await s3.put(key, body, type);
    } else {
      const dest = path.join(dataDir(), 'files', key);
      mkdirSync(path.dirname(dest), { recursive: true });
      writeFileSync(dest, body);
    }
  }
}

const client = new pg.Client({ connectionString: databaseUrl() });
await client.connect();
try {
  // The same advisory lock as the app's own migration run (db/index.ts), so a starting app waits.
  await client.query('SELECT pg_advisory_lock(727274)');
  await migrate(drizzle({ client, casing: 'snake_case' }), { migrationsFolder });
  await client.query('SELECT pg_advisory_unlock(727274)');
  const applied = Number((await client.query('SELECT count(*) AS n FROM drizzle.__drizzle_migrations')).rows[0].n);
  if (applied !== manifest.migrations) {
    fail(
      `La copia es de una versión con ${manifest.migrations} migraciones y este código tiene ${applied}: restaura con la versión que hizo la copia y actualiza después.`,
    );
  }
  const tables = await tablesInOrder(client);
  for (const t of tables) {
    const { rows } = await client.query(`SELECT EXISTS (SELECT 1 FROM ${ident(t)}) AS any`);
    if (rows[0].any)
      fail(`La base de datos no está vacía (la tabla ${t} tiene filas): restaura en una base de datos nueva.`);
  }
  await copyFiles();
  await client.query('BEGIN');
  for (const t of tables) {
    const meta = manifest.tables[t];
    if (!meta) continue;
    // Triggers of the app (clean-ups on insert) stay off while rows that already obeyed them come back.
    await client.query(`ALTER TABLE ${ident(t)} DISABLE TRIGGER USER`);
    const cols = meta.columns.map(ident).join(', ');
    const insert = `INSERT INTO ${ident(t)} (${cols}) SELECT ${cols} FROM json_populate_recordset(NULL::${ident(t)}, $1::json)`;
    let batch = [];
    let count = 0;
    const lines = createInterface({
      input: createReadStream(path.join(source, 'db', `${t}.jsonl.gz`)).pipe(createGunzip()),
    });
    for await (const line of lines) {
      if (!line) continue;
      batch.push(line);
      if (batch.length === BATCH) {
        await client.query(insert, [`[${batch.join(',')}]`]);
        count += batch.length;
        batch = [];
      }
    }
    if (batch.length > 0) await client.query(insert, [`[${batch.join(',')}]`]);
    count += batch.length;
    await client.query(`ALTER TABLE ${ident(t)} ENABLE TRIGGER USER`);
    if (count !== meta.rows) throw new Error(`${t}: ${count} rows read, the manifest says ${meta.rows}`);
    // Serial columns continue after the restored rows.
    const serials = await client.query(
      `SELECT a.attname AS col FROM pg_attribute a
       WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND pg_get_serial_sequence($2, a.attname) IS NOT NULL`,
      [`public.${ident(t)}`, `public.${ident(t)}`],
    );
    for (const { col } of serials.rows) {
      await client.query(
        `SELECT setval(pg_get_serial_sequence($1, $2), GREATEST((SELECT max(${ident(col)}) FROM ${ident(t)}), 1))`,
        [`public.${ident(t)}`, col],
      );
    }
  }
  await client.query('COMMIT');
} catch (err) {
  await client.query('ROLLBACK').catch(() => {});
  throw err;
} finally {
  await client.end();
}

const total = Object.values(manifest.tables).reduce((n, t) => n + t.rows, 0);
process.stdout.write(
  `Restaurado desde ${source}: ${total} filas, ${files.length} archivos. Reinicia la aplicación para que lea los datos restaurados.\n`,
);
