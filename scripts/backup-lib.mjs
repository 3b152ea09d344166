// Shared by `npm run backup` and `npm run restore`: where the app's database and files are, by the same
// variables the server reads (DATABASE_URL, DATA_DIR, STORAGE, S3_*).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The source's migrations in a checkout, the built copy in the production image (which has no src/).
export const migrationsFolder = existsSync(path.join(root, 'apps/server/src/db/migrations'))
  ? path.join(root, 'apps/server/src/db/migrations')
  : path.join(root, 'apps/server/dist/migrations');
export const dataDir = () => path.resolve(process.env.DATA_DIR || path.join(root, 'data'));

/** Stops with a message for the operator (Spanish, like the rest of the app's output). */
export function fail(message) {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/**
 * The app's database: DATABASE_URL, else the embedded PostgreSQL of DATA_DIR, which must be running
 * (the app started it): its port is in postmaster.pid, its password in DATA_DIR/pg-password.
 */
export function databaseUrl() {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const dir = dataDir();
  const pidFile = path.join(dir, 'pg', 'postmaster.pid');
  if (!existsSync(pidFile)) {
    fail(
      `La base de datos embebida de ${dir} no está en marcha: inicia la aplicación (npm start) o define DATABASE_URL.`,
    );
  }
  const port = readFileSync(pidFile, 'utf8').split('\n')[3]?.trim();
  const password = readFileSync(path.join(dir, 'pg-password'), 'utf8').trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/hornada`;
}

/** The S3 bucket of STORAGE=s3, or null for the local files under DATA_DIR/files. */
export function s3Storage() {
  if (process.env.STORAGE !== 's3') return null;
  const bucket = process.env.S3_BUCKET;
  if (!bucket) fail('STORAGE=s3 necesita S3_BUCKET.');
  const credentials =
    process.env.S3_ACCESS_KEY_ID && process.env.S3_SECRET_ACCESS_KEY
      ? { accessKeyId: process.env.S3_ACCESS_KEY_ID, secretAccessKey: process.env.S3_SECRET_ACCESS_KEY }
      : undefined;
  const client = new S3Client({
    region: process.env.S3_REGION || 'us-east-1',
    ...(process.env.S3_ENDPOINT ? { endpoint: process.env.S3_ENDPOINT } : {}),
    // Read as the app reads it (config.ts): on, true or 1.
    forcePathStyle: ['on', 'true', '1'].includes(process.env.S3_FORCE_PATH_STYLE ?? ''),
    ...(credentials ? { credentials } : {}),
  });
  const prefix = process.env.S3_PREFIX ? `${process.env.S3_PREFIX.replace(/\/+$/, '')}/` : '';
  return {
    describe: `s3://${bucket}/${prefix}`,
    /** Every key under the prefix (without it). */
    async *keys() {
      let token;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const o of page.Contents ?? []) if (o.Key) yield o.Key.slice(prefix.length);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    async get(key) {
      const r = await client.send(new GetObjectCommand({ Bucket: bucket, Key: prefix + key }));
      return { body: Buffer.from(await r.Body.transformToByteArray()), contentType: r.ContentType };
    },
    async put(key, body, contentType) {
      await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: prefix + key, Body: body, ContentType: contentType }),
      );
    },
  };
}

/** The app's tables (schema public), parents before children by their foreign keys. */
export async function tablesInOrder(client) {
  const tables = (
    await client.query(
      "SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY c.relname",
    )
  ).rows.map((r) => r.name);
  const fks = (
    await client.query(
      `SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent
       FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
       WHERE c.contype = 'f' AND n.nspname = 'public'`,
    )
  ).rows;
  const unquote = (s) => s.replace(/^"|"$/g, '');
  const ordered = [];
  const placed = new Set();
  while (ordered.length < tables.length) {
    const before = ordered.length;
    for (const t of tables) {
      if (placed.has(t)) continue;
      const parents = fks
        .filter((f) => unquote(f.child) === t && unquote(f.parent) !== t)
        .map((f) => unquote(f.parent));
      if (parents.every((p) => placed.has(p))) {
        ordered.push(t);
        placed.add(t);
      }
    }
    if (ordered.length === before) throw new Error('foreign keys form a cycle between tables');
  }
  return ordered;
}

/** A table's stored columns (generated ones are computed again on restore). */
export async function storedColumns(client, table) {
  return (
    await client.query(
      `SELECT a.attname AS name FROM pg_attribute a
       WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
       ORDER BY a.attnum`,
      [`public."${table}"`],
    )
  ).rows.map((r) => r.name);
}

export const ident = (s) => `"${s.replace(/"/g, '""')}"`;
