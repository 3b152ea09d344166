/** What the lock needs of the app's database (db/index.ts Db): a client of its pool. */
interface LockClient {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  release(err?: boolean | Error): void;
}
export interface LockDb {
  $client: { connect(): Promise<LockClient> };
}

/** What a locked run gives back: `ran` false when another holder (another instance) had the lock. */
export type Locked<T> = { ran: true; value: T } | { ran: false };

/**
 * Runs `work` while holding PostgreSQL's session advisory lock named `name` (hashed into the lock's
 * two int4 keys with the namespace 'hornada-job'), on a connection of its own taken from the pool, so
 * however many instances share the database one runs the job at a time. `wait` false (the periodic
 * runs) skips when another holds it; true (a run a request asked for) waits its turn. The work itself
 * uses the pool as usual; only the lock lives on the held connection, and a dead instance's lock goes
 * with its connection.
 */
export async function withJobLock<T>(
  db: LockDb,
  name: string,
  work: () => Promise<T>,
  opts: { wait?: boolean } = {},
): Promise<Locked<T>> {
  const client = await db.$client.connect();
  let held = false;
  try {
    if (opts.wait) {
      await client.query("SELECT pg_advisory_lock(hashtext('hornada-job'), hashtext($1))", [name]);
      held = true;
    } else {
      const r = await client.query("SELECT pg_try_advisory_lock(hashtext('hornada-job'), hashtext($1)) AS ok", [name]);
      held = (r.rows[0] as { ok?: boolean } | undefined)?.ok === true;
      if (!held) return { ran: false };
    }
    return { ran: true, value: await work() };
  } finally {
    // A connection whose unlock failed is dropped, not pooled: ending it ends the lock too.
    const unlocked = held
      ? await client.query("SELECT pg_advisory_unlock(hashtext('hornada-job'), hashtext($1))", [name]).then(
          () => true,
          () => false,
        )
      : true;
    client.release(!unlocked);
  }
}
