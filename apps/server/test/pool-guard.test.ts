// Connections that die while checked out of the pool (PostgreSQL restarted under
// load) must neither crash the process nor keep their pool slot.
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../src/db';
import { createTestDatabase } from './helpers/db';

let url: string;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ url, drop } = await createTestDatabase());
});
afterAll(async () => drop());

async function terminate(pid: number): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query('SELECT pg_terminate_backend($1)', [pid]);
  await admin.end();
}

describe('the pool when a checked-out connection dies', () => {
  it('frees the slot at once, takes no crash, and ignores the holder’s late release', async () => {
    // One slot: a leaked client would leave every later query waiting for it.
    const db: Db = createDb(url, 1);
    try {
      const client = await db.$client.connect();
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const ended = new Promise((r) => client.once('end', r));
      // Killed between two statements, as a restart does: no query of ours is running on it.
      await terminate(rows[0]!.pid);
      await ended;
      // The slot is free again although the holder has not released the client (drizzle's BEGIN case): were
      // it not, this query would wait for the one slot until the pool's connection timeout refused it.
      expect((await db.execute(sql`SELECT 1 AS ok`)).rows).toEqual([{ ok: 1 }]);
      expect(() => client.release()).not.toThrow();
      // And a transaction goes through on the single slot.
      expect(await db.transaction(async (tx) => (await tx.execute(sql`SELECT 2 AS ok`)).rows)).toEqual([{ ok: 2 }]);
    } finally {
      await db.$client.end();
    }
  });
});
