import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrateDb } from '../../src/db';
import type { EmbeddedPg } from '../../src/db/embedded';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the migrated template database of this run (docs/design.md §8). */
    templateUrl: string;
    /** Which server the run uses, for messages. */
    databaseKind: 'embedded' | 'external';
  }
}

/**
 * One migrated template database per run: on the embedded PostgreSQL that this run starts
 * (in a temporary directory), or on DATABASE_URL's server when set (CI's second pass).
 */
export default async function setup(project: TestProject) {
  let embedded: EmbeddedPg | null = null;
  let tmp: string | null = null;
  let adminUrl: string;
  if (process.env.DATABASE_URL) {
    adminUrl = process.env.DATABASE_URL;
  } else {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'hornada-test-'));
    // mkdtemp makes it 0700; PostgreSQL runs as "postgres" when we are root and must enter it.
    await chmod(tmp, 0o711);
    const { startEmbeddedPostgres } = await import('../../src/db/embedded');
    embedded = await startEmbeddedPostgres({ dataDir: tmp });
    adminUrl = embedded.url;
  }
  const name = `hornada_tpl_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await migrateDb(url.toString());
  // Template: no connections may stay open to it.
  project.provide('templateUrl', url.toString());
  project.provide('databaseKind', embedded ? 'embedded' : 'external');
  process.stdout.write(`[tests] database: ${embedded ? 'embedded PostgreSQL' : 'DATABASE_URL'}; template ${name}\n`);

  return async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    await admin.end();
    await embedded?.stop();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  };
}
