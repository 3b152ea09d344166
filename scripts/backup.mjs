// `npm run backup [-- <directory>]`: a consistent copy of the app's database and its files, while the app
// runs. The database is read in one REPEATABLE READ, READ ONLY transaction (one snapshot: every table as
// of the same instant), table by table as gzip'd JSON lines, which needs no pg_dump of the server's
// version (the embedded PostgreSQL's npm binaries carry none); the files come from DATA_DIR/files or the
// S3 bucket (STORAGE=s3). `npm run restore -- <directory>` puts it back into an empty database.
import { createWriteStream, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import pg from 'pg';
import { databaseUrl, dataDir, ident, root, s3Storage, storedColumns, tablesInOrder } from './backup-lib.mjs';

const BATCH = 1000;
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const target = path.resolve(process.argv[2] ?? path.join(root, 'backups', `hornada-${stamp}`));
mkdirSync(path.join(target, 'db'), { recursive: true });

const client = new pg.Client({ connectionString: databaseUrl() });
await client.connect();
const manifest = { format: 'hornada-backup/1', createdAt: new Date().toISOString(), tables: {}, files: 0 };
try {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
  manifest.migrations = Number(
    (await client.query('SELECT count(*) AS n FROM drizzle.__drizzle_migrations')).rows[0].n,
  );
  for (const table of await tablesInOrder(client)) {
    const cols = await storedColumns(client, table);
    const select = `SELECT row_to_json(r)::text AS j FROM (SELECT ${cols.map(ident).join(', ')} FROM ${ident(table)}) r`;
    await client.query(`DECLARE dump NO SCROLL CURSOR FOR ${select}`);
    let rows = 0;
    // Rows are fetched a batch at a time, so a large table never sits in memory whole.
    async function* lines() {
      for (;;) {
        const batch = (await client.query(`FETCH ${BATCH} FROM dump`)).rows;
        if (batch.length === 0) return;
        rows += batch.length;
        yield batch.map((r) => `${r.j}\n`).join('');
      }
    }
    await pipeline(
      Readable.from(lines()),
      createGzip(),
      createWriteStream(path.join(target, 'db', `${table}.jsonl.gz`)),
    );
    await client.query('CLOSE dump');
    manifest.tables[table] = { rows, columns: cols };
  }
  await client.query('COMMIT');
} finally {
  await client.end();
}

const s3 = s3Storage();
const filesDir = path.join(target, 'files');
mkdirSync(filesDir, { recursive: true });
if (s3) {
  manifest.storage = s3.describe;
  for await (const key of s3.keys()) {
    const { body } = await s3.get(key);
    mkdirSync(path.dirname(path.join(filesDir, key)), { recursive: true });
    writeFileSync(path.join(filesDir, key), body);
    manifest.files += 1;
  }
} else {
  manifest.storage = path.join(dataDir(), 'files');
  await cp(manifest.storage, filesDir, { recursive: true, force: true }).catch((err) => {
    if (err.code !== 'ENOENT') throw err;
  });
  manifest.files = readdirSync(filesDir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).length;
}
writeFileSync(path.join(target, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
const total = Object.values(manifest.tables).reduce((n, t) => n + t.rows, 0);
process.stdout.write(
  `Copia de seguridad en ${target}: ${Object.keys(manifest.tables).length} tablas, ${total} filas, ${manifest.files} archivos.\n`,
);
