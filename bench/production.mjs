// `npm run bench:production`: the production read (GET …/production?date=) of a big day on the embedded
// PostgreSQL. The demo bakery (its products, recipes and ingredients) gets ORDERS generated orders
// (2,000) of LINES lines (5) for one preparation day, written straight into the database; then, one
// request at a time, the admin reads that day REQUESTS times (200). Before it, the baseline of this run:
// the same number of reads of the ingredients list (a plain list read on the same server). Prints the
// median and p99 of both and their ratio, and checks the read's totals against the generated orders;
// then, for information, the same read with the day's orders listed (`include=orders`, the single page).
// Goal: median under 50 ms.
import {
  cpuSecondsOf,
  databaseUrlOf,
  demoAdmin,
  freePort,
  percentile,
  startServer,
  waitHealthy,
  withDb,
} from './lib.mjs';

const ORDERS = Number(process.env.ORDERS ?? 2000);
const LINES = Number(process.env.LINES ?? 5);
const REQUESTS = Number(process.env.REQUESTS ?? 200);
const GOAL_MS = 50;
// A day of its own, far from the demo's orders.
const DAY = '2030-01-15';
const print = (s) => process.stdout.write(`${s}\n`);

const port = await freePort();
const server = startServer({ port, env: { SEED_DEMO: 'on', LOG_LEVEL: 'info' } });
let failed = false;
try {
  if (!(await waitHealthy(port, 300_000))) throw new Error(`Hornada did not start:\n${server.output()}`);
  const base = `http://127.0.0.1:${port}`;
  const json = async (res) => {
    const body = await res.json();
    if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(body)}`);
    return body;
  };
  const { companyId, headers } = await demoAdmin(base);

  // The generated day: each order LINES distinct products of the demo (those with a recipe and without),
  // quantities 1–12, some already produced; statuses across the open ones, a few cancelled (left out).
  const expected = await withDb(databaseUrlOf(server), async (c) => {
    const products = (
      await c.query('SELECT id, name, price FROM products WHERE company_id = $1 AND deleted_at IS NULL ORDER BY id', [
        companyId,
      ])
    ).rows;
    const tz = (await c.query('SELECT data->>$2 AS tz FROM settings WHERE company_id = $1', [companyId, 'timeZone']))
      .rows[0].tz;
    const start = (await c.query(`SELECT ($1::date::timestamp AT TIME ZONE $2) AS at`, [DAY, tz])).rows[0].at;
    const due = new Date(start.getTime() + 24 * 3600_000);
    const statuses = ['confirmed', 'in_production', 'ready', 'pending'];
    const units = new Map();
    const rows = [];
    for (let n = 0; n < ORDERS; n++) {
      const items = [];
      const produced = {};
      const status = n % 50 === 49 ? 'cancelled' : statuses[n % statuses.length];
      for (let l = 0; l < LINES; l++) {
        const p = products[(n * 7 + l * 3) % products.length];
        const quantity = 1 + ((n + l) % 12);
        items.push({ productId: p.id, name: p.name, unitPrice: p.price, quantity, notes: null });
        if (status === 'ready') produced[p.id] = quantity;
        if (status !== 'cancelled') units.set(p.id, (units.get(p.id) ?? 0) + quantity);
      }
      const subtotal = items.reduce((s, i) => s + i.unitPrice * i.quantity, 0);
      rows.push([n, items, produced, status, subtotal]);
    }
    await c.query('BEGIN');
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500);
      const values = [];
      const params = [];
      for (const [n, items, produced, status, subtotal] of chunk) {
        const k = params.length;
        params.push(
          `bench-prod-${n}`,
          1_000_000 + n,
          JSON.stringify({ name: `Cliente ${n}`, phone: `300 ${String(1_000_000 + n).padStart(7, '0')}` }),
          JSON.stringify(items),
          subtotal,
          status,
          JSON.stringify(produced),
        );
        values.push(
          `($${k + 1}, $${params.length + 1}, now(), now(), $${k + 2}, 'staff', $${k + 3}, $${k + 4}, $${k + 5}, 0, $${k + 5}, 'pickup', $${params.length + 2}, 'am', $${params.length + 3}, $${k + 6}, 'unpaid', 'cash', $${k + 7})`,
        );
        params.push(companyId, due, start);
      }
      await c.query(
        `INSERT INTO orders (id, company_id, created_at, updated_at, number, channel, contact, items, subtotal, delivery_fee, total, fulfillment, due_date, "window", preparation_date, status, payment_status, payment_method, produced_quantities) VALUES ${values.join(', ')}`,
        params,
      );
    }
    await c.query('COMMIT');
    await c.query('ANALYZE orders');
    return units;
  });

  const url = `${base}/api/companies/${companyId}/production?date=${DAY}`;
  const first = (await json(await fetch(url, { headers }))).data;
  const wrong = [...expected].filter(([id, q]) => first.products.find((p) => p.productId === id)?.quantity !== q);
  const withOrders = `${url}&include=orders`;
  const counted = (await json(await fetch(withOrders, { headers }))).data.orders.length;

  /** REQUESTS reads of `target`, one at a time (after 10 to warm up): sorted latencies in ms, CPU a read. */
  async function measure(target) {
    for (let i = 0; i < 10; i++) await (await fetch(target, { headers })).arrayBuffer();
    const latencies = [];
    const cpu0 = cpuSecondsOf(server.child.pid);
    for (let i = 0; i < REQUESTS; i++) {
      const t0 = performance.now();
      const res = await fetch(target, { headers });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`${target}: ${res.status}`);
      latencies.push(performance.now() - t0);
    }
    const cpuMs = ((cpuSecondsOf(server.child.pid) - cpu0) * 1000) / REQUESTS;
    latencies.sort((a, b) => a - b);
    return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), cpuMs };
  }

  const baseline = await measure(`${base}/api/companies/${companyId}/ingredients?per_page=20`);
  const production = await measure(url);
  const listed = await measure(withOrders);
  print(
    `bench:production — ${ORDERS} orders × ${LINES} lines on ${DAY} (${counted} not cancelled, ${first.products.length} products, ${first.ingredients.length} ingredients), ${REQUESTS} reads one at a time, embedded PostgreSQL`,
  );
  print(
    `baseline: ingredients list        p50 ${baseline.p50.toFixed(1)} ms   p99 ${baseline.p99.toFixed(1)} ms   server+db CPU ${baseline.cpuMs.toFixed(2)} ms a read`,
  );
  print(
    `production read                   p50 ${production.p50.toFixed(1)} ms   p99 ${production.p99.toFixed(1)} ms   server+db CPU ${production.cpuMs.toFixed(2)} ms a read   ratio ${(production.p50 / baseline.p50).toFixed(1)}`,
  );
  print(
    `the same with include=orders (${counted} orders listed)   p50 ${listed.p50.toFixed(1)} ms   p99 ${listed.p99.toFixed(1)} ms   server+db CPU ${listed.cpuMs.toFixed(2)} ms a read`,
  );
  const totalsOk = wrong.length === 0 && first.products.length === expected.size;
  print(`totals match the generated orders: ${totalsOk ? 'PASS' : `FAIL (${wrong.length} products differ)`}`);
  print(`goal: median under ${GOAL_MS} ms: ${production.p50 < GOAL_MS ? 'PASS' : 'FAIL'}`);
  failed = !totalsOk || production.p50 >= GOAL_MS;
} catch (err) {
  failed = true;
  print(`bench:production failed: ${err.stack ?? err}`);
} finally {
  await server.stop();
}
process.exit(failed ? 1 : 0);
