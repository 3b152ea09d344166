// `npm run bench -- bulk-updates`: volume, not behaviour. One account sends ten maximal bulk updates at once
// (1000 rows each, as much description as fits in the 256 KB bound) while a guest reads product pages; it
// prints how long the guest's reads took and when the updates were done. The functional test
// (apps/server/test/api/limits.test.ts) keeps one pair of maximal updates and asserts the reads are answered
// meanwhile; ten of them took 56 s of the test suite and showed nothing more, so the figure lives here.
import { randomBytes } from 'node:crypto';
import { demoAdmin, databaseUrlOf, freePort, percentile, sleep, startServer, waitHealthy, withDb } from './lib.mjs';

const UPDATES = Number(process.env.BENCH_BULK_UPDATES ?? 10);
const ROWS = 1000;
/** BULK_BODY_BYTES of apps/server/src/plugins/bulk-writes.ts: the bulk route's body bound. */
const BULK_BODY_BYTES = 256 * 1024;
/** Each guest read should stay under this while the updates run (they must not queue behind them). */
const GOAL_MS = 1000;

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = startServer({
  port,
  // Maximal updates of the same rows wait on each other's locks: the statement timeout is not what is measured.
  env: { SEED_DEMO: 'on', LOG_LEVEL: 'info', RATE_LIMIT_WRITES: '0', DB_STATEMENT_TIMEOUT_MS: '600000' },
});
if (!(await waitHealthy(port, 300_000))) throw new Error(`server did not start:\n${server.output()}`);

try {
  const { companyId, headers } = await demoAdmin(base);
  const ids = Array.from({ length: ROWS }, () => randomBytes(16).toString('base64url'));
  await withDb(databaseUrlOf(server), (c) =>
    c.query(
      `INSERT INTO products (id, company_id, name, price, created_at, updated_at)
       SELECT id, $1, 'Pan ' || n, 1000 + n, now(), now() FROM unnest($2::text[]) WITH ORDINALITY AS t(id, n)`,
      [companyId, ids],
    ),
  );

  const maximalBody = (tag) => {
    const rowsOf = (len) => ids.map((id) => ({ id, data: { description: `${tag}${'d'.repeat(len)}`.slice(0, len) } }));
    let len = Math.floor(BULK_BODY_BYTES / ids.length);
    while (Buffer.byteLength(JSON.stringify({ updates: rowsOf(len) })) > BULK_BODY_BYTES) len--;
    return JSON.stringify({ updates: rowsOf(len) });
  };

  /** Ten guest reads of products, each another record (never a cached answer): their times in ms, sorted. */
  const guestReads = async (offset) => {
    const times = [];
    for (let i = 0; i < 10; i++) {
      const t0 = performance.now();
      const res = await fetch(`${base}/api/companies/${companyId}/products/${ids[offset + i * 97]}`);
      await res.text();
      if (res.status !== 200) throw new Error(`guest read: ${res.status}`);
      times.push(performance.now() - t0);
    }
    return times.sort((a, b) => a - b);
  };
  // The baseline, in the same run on the same machine: the same reads with nothing else going on.
  const quiet = await guestReads(1);

  const started = performance.now();
  let lastDone = 0;
  const statuses = [];
  const bulks = Array.from({ length: UPDATES }, (_, i) =>
    fetch(`${base}/api/companies/${companyId}/products/bulk-update`, {
      method: 'PATCH',
      headers: { ...headers, 'content-type': 'application/json' },
      body: maximalBody(`b${i}-`),
    }).then(async (res) => {
      await res.text();
      statuses.push(res.status);
      lastDone = performance.now();
    }),
  );
  await sleep(500);
  const reads = await guestReads(0);
  const readsDone = performance.now();
  await Promise.all(bulks);
  const worst = reads.at(-1);
  const ratio = percentile(reads, 50) / percentile(quiet, 50);
  process.stdout.write(
    `bench:bulk-updates — ${UPDATES} maximal bulk updates of ${ROWS} rows at once\n` +
      `  statuses: ${[...new Set(statuses)].join(', ')} (200 done, 429 refused by the gate)\n` +
      `  guest reads meanwhile: median ${percentile(reads, 50).toFixed(0)} ms, slowest ${worst.toFixed(0)} ms ` +
      `(median ${ratio.toFixed(1)}× the same reads before the updates: ${percentile(quiet, 50).toFixed(0)} ms)\n` +
      `  updates done after ${((lastDone - started) / 1000).toFixed(1)} s; reads ` +
      `${lastDone > readsDone ? 'all answered before the last update finished' : 'outlasted the updates'}\n` +
      `  goal: each guest read under ${GOAL_MS} ms: ${worst < GOAL_MS ? 'met' : 'missed'}\n`,
  );
  if (worst >= GOAL_MS || statuses.some((s) => s !== 200 && s !== 429)) process.exitCode = 1;
} finally {
  await server.stop();
}
