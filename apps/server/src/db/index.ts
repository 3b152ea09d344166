import { fileURLToPath } from 'node:url';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { guardPool } from './pool-guard';
import * as schema from './schema';

export type Db = NodePgDatabase<typeof schema> & { $client: pg.Pool };
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

// Timestamps and numerics are parsed by drizzle's column mappers; DATE (oid 1082) stays a string.
pg.types.setTypeParser(1082, (v) => v);

/** The default of DB_STATEMENT_TIMEOUT_MS (config.ts). */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 15_000;

/**
 * The app's pool. Its statements are canceled after `statementTimeoutMs` (SQLSTATE 57014, answered
 * 503), so a runaway query cannot hold a connection for good. Only this pool has the timeout: the
 * migration run and the live feed's LISTEN connection use clients of their own.
 */
export function createDb(url: string, max = 10, statementTimeoutMs = DEFAULT_STATEMENT_TIMEOUT_MS): Db {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: 10_000,
    // Sent at connection start-up; pg leaves it out when 0, which is PostgreSQL's "no timeout".
    statement_timeout: statementTimeoutMs,
  });
  // An idle client's error (server restarted) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  guardPool(pool);
  return drizzle({ client: pool, schema, casing: 'snake_case' });
}

/** Migrations ship beside the code: src/db/migrations in tests, dist/migrations when built. */
export function migrationsFolder(): string {
  return fileURLToPath(new URL('./migrations', import.meta.url));
}

/** Applies pending migrations under an advisory lock, so instances starting together take turns. */
export async function migrateDb(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(727274)');
    await migrate(drizzle({ client, casing: 'snake_case' }), { migrationsFolder: migrationsFolder() });
  } finally {
    await client.query('SELECT pg_advisory_unlock(727274)').catch(() => {});
    await client.end();
  }
}

/** Creates a database on the server of `adminUrl` if it is not there; returns the URL of it. */
export async function ensureDatabase(adminUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
