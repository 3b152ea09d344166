import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ownAppPort } from './apps';

/**
 * The e2e app's DATA_DIR (scripts/e2e-server.mjs, given by playwright.config.ts): one per app port, so the
 * config and the tests find the same one (in a worker: its own app's, support/apps.ts).
 */
export function e2eDataDir(port = ownAppPort()): string {
  return path.join(os.tmpdir(), `hornada-e2e-${port}`);
}

/**
 * Runs `fn` on the e2e app's embedded PostgreSQL: what a server test does with its injected clock (a link
 * past its expiry), a browser test does here. Its password is in DATA_DIR, its port in the cluster's
 * postmaster.pid (fourth line); server.ts names the database `hornada`.
 */
export async function withAppDatabase<T>(fn: (db: pg.Client) => Promise<T>): Promise<T> {
  const dir = e2eDataDir();
  const password = readFileSync(path.join(dir, 'pg-password'), 'utf8').trim();
  const port = Number(readFileSync(path.join(dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[3]);
  const db = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'hornada' });
  await db.connect();
  try {
    return await fn(db);
  } finally {
    await db.end();
  }
}
