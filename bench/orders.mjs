// `npm run bench:orders`: 50 concurrent customers (CUSTOMERS) on the embedded PostgreSQL for 20 s
// (BENCH_SECONDS), each making a cart and checking it out, again and again; one checkout in ten is
// sent twice at once with the same Idempotency-Key (a double click) and must give one order. Before it,
// the baseline of this run: the same customers only making carts (a plain write on the same server).
// Prints orders a second, checkout p50/p99, the ratio to the baseline, and the count of orders lost
// (a 201 whose order is not in the database) or duplicated (two orders for one cart or one key, or a
// number taken twice or skipped): both must be 0. Goal: ≥ 300 orders a second. Then the online run
//: the same customers checking out with online payment, each order followed by the gateway's
// signed `transaction.updated` event (one in ten sent twice at once, as a retry racing the first):
// orders paid a second, and 0 lost (an approved event whose order is not paid) and 0 paid twice (two
// history entries of one payment).
import { createHash, randomBytes } from 'node:crypto';
import {
  cpuSecondsOf,
  databaseUrlOf,
  demoShop,
  freePort,
  percentile,
  startServer,
  waitHealthy,
  withDb,
} from './lib.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CUSTOMERS = Number(process.env.CUSTOMERS ?? 50);
const GOAL_RPS = 300;
const print = (s) => process.stdout.write(`${s}\n`);
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const session = () => Array.from(randomBytes(20), (b) => ALNUM[b % ALNUM.length]).join('');
const EVENTS_SECRET = `test_events_${randomBytes(16).toString('hex')}`;
const sha256 = (text) => createHash('sha256').update(text).digest('hex');

/** The gateway's `transaction.updated` event for an approved transaction, signed as docs/design.md §5 says. */
function approvedEvent(reference, amountInCents) {
  const transaction = {
    id: `bench-${randomBytes(8).toString('hex')}`,
    reference,
    amount_in_cents: amountInCents,
    currency: 'COP',
    status: 'APPROVED',
  };
  const timestamp = Math.floor(Date.now() / 1000);
  // Every field the server acts on: Wompi's three alone would make it ask the gateway about
  // a transaction it never made.
  const properties = [
    'transaction.id',
    'transaction.status',
    'transaction.amount_in_cents',
    'transaction.reference',
    'transaction.currency',
  ];
  const t = transaction;
  const checksum = sha256(
    `${t.id}${t.status}${t.amount_in_cents}${t.reference}${t.currency}${timestamp}${EVENTS_SECRET}`,
  );
  return {
    event: 'transaction.updated',
    data: { transaction },
    environment: 'test',
    signature: { properties, checksum },
    timestamp,
  };
}

const port = await freePort();
const server = startServer({
  port,
  env: {
    SEED_DEMO: 'on',
    LOG_LEVEL: 'info',
    RATE_LIMIT_WRITES: '0',
    // Every event of the bench comes from 127.0.0.1.
    RATE_LIMIT_PAYMENT_EVENTS: '0',
    // One address and one phone place every order here: the bounds on unpaid orders would refuse them.
    CHECKOUT_UNPAID_PER_HOLDER: '0',
    CHECKOUT_UNPAID_PER_PHONE: '0',
    CHECKOUT_UNPAID_PER_ADDRESS: '0',
    CHECKOUT_WINDOW_SHARE_PER_ADDRESS: '0',
    // Known keys for the sandbox gateway, so the bench signs the gateway's events (never used elsewhere).
    WOMPI_PUBLIC_KEY: `pub_test_bench_${randomBytes(8).toString('hex')}`,
    WOMPI_INTEGRITY_SECRET: `test_integrity_${randomBytes(16).toString('hex')}`,
    WOMPI_EVENTS_SECRET: EVENTS_SECRET,
    WOMPI_PRIVATE_KEY: `prv_test_bench_${randomBytes(16).toString('hex')}`,
  },
});
let failed = false;
try {
  if (!(await waitHealthy(port, 300_000))) throw new Error(`Hornada did not start:\n${server.output()}`);
  const base = `http://127.0.0.1:${port}`;
  // The demo windows hold 20–25 orders: the bench takes thousands, so the admin lifts the capacity.
  const { companyId, settings, day, products } = await demoShop(base);
  const lineOf = (p) => ({ productId: p.id, quantity: Math.min(1000, Math.ceil(settings.minimumOrder / p.price) + 1) });

  const newCart = async () => {
    const s = session();
    const p = products[Math.floor(Math.random() * products.length)];
    const res = await fetch(`${base}/api/carts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-session-id': s },
      body: JSON.stringify({ companyId, items: [lineOf(p)] }),
    });
    const body = await res.json();
    if (res.status !== 201) throw new Error(`cart: ${res.status} ${JSON.stringify(body)}`);
    return { id: body.data.id, session: s };
  };

  /** CUSTOMERS loops for SECONDS, each running `step` again and again; latencies of what it times. */
  async function phase(step) {
    const latencies = [];
    let done = 0;
    const cpu0 = cpuSecondsOf(server.child.pid);
    const end = Date.now() + SECONDS * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CUSTOMERS }, async () => {
        while (Date.now() < end) {
          const n = await step(latencies);
          done += n;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const cpuMs = ((cpuSecondsOf(server.child.pid) - cpu0) * 1000) / Math.max(done, 1);
    latencies.sort((a, b) => a - b);
    return { rate: done / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), done, cpuMs };
  }

  print(`bench:orders — ${CUSTOMERS} customers, ${SECONDS} s a phase, embedded PostgreSQL, day ${day.date}`);
  const carts = await phase(async (lat) => {
    const t0 = performance.now();
    await newCart();
    lat.push(performance.now() - t0);
    return 1;
  });

  const placed = new Map(); // cart id → order id
  const refused = [];
  let duplicated = 0;
  const firstNumber = await withDb(databaseUrlOf(server), async (c) => {
    const { rows } = await c.query('SELECT coalesce(max(number), 1000) AS n FROM orders WHERE company_id = $1', [
      companyId,
    ]);
    return Number(rows[0].n);
  });
  const checkoutBody = (paymentMethod) =>
    JSON.stringify({
      contact: { name: 'Cliente de prueba', phone: '300 000 0000' },
      fulfillment: 'delivery',
      address: { line: 'Calle 45 # 13-20', city: 'Bogotá' },
      dueDate: day.date,
      window: day.windows[0].id,
      paymentMethod,
    });
  const orders = await phase(async (lat) => {
    const cart = await newCart();
    const key = randomBytes(16).toString('hex');
    const body = checkoutBody('cash');
    const send = async () => {
      const t0 = performance.now();
      const res = await fetch(`${base}/api/carts/${cart.id}/checkout`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-session-id': cart.session, 'idempotency-key': key },
        body,
      });
      const out = await res.json();
      lat.push(performance.now() - t0);
      return { status: res.status, out };
    };
    const twice = Math.random() < 0.1;
    const answers = await Promise.all(twice ? [send(), send()] : [send()]);
    const ids = new Set();
    for (const a of answers) {
      if (a.status === 201) ids.add(a.out.data.id);
      else refused.push(`${a.status} ${a.out.code}`);
    }
    if (ids.size > 1) duplicated += ids.size - 1;
    if (ids.size === 1) placed.set(cart.id, [...ids][0]);
    return ids.size === 1 ? 1 : 0;
  });

  // What the database holds: every acknowledged order, once, numbered on from the first without a gap.
  const check = await withDb(databaseUrlOf(server), async (c) => {
    const { rows } = await c.query(
      `SELECT id, cart_id, number FROM orders WHERE company_id = $1 AND number > $2 ORDER BY number`,
      [companyId, firstNumber],
    );
    return rows;
  });
  const byCart = new Map();
  for (const r of check) byCart.set(r.cart_id, (byCart.get(r.cart_id) ?? 0) + 1);
  const lost = [...placed].filter(([cart, id]) => !check.some((r) => r.cart_id === cart && r.id === id)).length;
  duplicated += [...byCart.values()].filter((n) => n > 1).length;
  const numbers = check.map((r) => r.number);
  const gaps = numbers.length === 0 ? 0 : numbers.at(-1) - firstNumber - numbers.length;
  const unacknowledged = check.length - placed.size;

  const ratio = orders.rate / carts.rate;
  print(
    `baseline: carts only              ${carts.rate.toFixed(0).padStart(6)} /s   p50 ${carts.p50.toFixed(1)} ms   p99 ${carts.p99.toFixed(1)} ms   server+db CPU ${carts.cpuMs.toFixed(2)} ms a cart`,
  );
  print(
    `checkout (cart + order)           ${orders.rate.toFixed(0).padStart(6)} orders/s   checkout p50 ${orders.p50.toFixed(1)} ms   p99 ${orders.p99.toFixed(1)} ms   ratio ${ratio.toFixed(2)}   server+db CPU ${orders.cpuMs.toFixed(2)} ms an order (cart included)`,
  );
  print(
    `orders: ${placed.size} acknowledged, ${check.length} in the database, lost ${lost}, duplicated ${duplicated}, number gaps ${gaps}, refused ${refused.length}${refused.length ? ` (${[...new Set(refused)].slice(0, 3).join('; ')})` : ''}, written but unanswered ${unacknowledged}`,
  );
  const ok = lost === 0 && duplicated === 0 && gaps === 0 && unacknowledged === 0 && refused.length === 0;
  print(`goal: lost and duplicated 0: ${ok ? 'PASS' : 'FAIL'}`);
  print(
    `goal: ≥ ${GOAL_RPS} orders a second: ${orders.rate >= GOAL_RPS ? 'PASS' : 'MISS'} (${orders.rate.toFixed(0)})`,
  );
  if (!ok) failed = true;

  // The online run: checkout with online payment, then the gateway's approval (sometimes twice at once).
  const approved = new Map(); // order id → its reference
  const eventErrors = [];
  const online = await phase(async (lat) => {
    const cart = await newCart();
    const t0 = performance.now();
    const res = await fetch(`${base}/api/carts/${cart.id}/checkout`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-session-id': cart.session,
        'idempotency-key': randomBytes(16).toString('hex'),
      },
      body: checkoutBody('online'),
    });
    const out = await res.json();
    if (res.status !== 201) {
      eventErrors.push(`checkout ${res.status} ${out.code}`);
      return 0;
    }
    const event = JSON.stringify(approvedEvent(out.data.payment.reference, out.data.total * 100));
    const deliver = () =>
      fetch(`${base}/api/payments/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: event,
      }).then(async (r) => {
        await r.arrayBuffer();
        if (r.status !== 200) eventErrors.push(`event ${r.status}`);
      });
    await Promise.all(Math.random() < 0.1 ? [deliver(), deliver()] : [deliver()]);
    lat.push(performance.now() - t0);
    approved.set(out.data.id, out.data.payment.reference);
    return 1;
  });
  const paid = await withDb(databaseUrlOf(server), async (c) => {
    const { rows } = await c.query(
      `SELECT id, payment_status, status,
              (SELECT count(*) FROM jsonb_array_elements(history) h
                WHERE h->>'field' = 'paymentStatus' AND h->>'to' = 'paid')::int AS paid_entries
         FROM orders WHERE id = ANY($1::text[])`,
      [[...approved.keys()]],
    );
    return rows;
  });
  // Paid, confirmed, and its payment's move to paid in history once (0 entries would be a silent change).
  const notPaid =
    approved.size -
    paid.filter((r) => r.payment_status === 'paid' && r.status === 'confirmed' && r.paid_entries > 0).length;
  const paidTwice = paid.filter((r) => r.paid_entries > 1).length;
  print(
    `online (cart + order + event)     ${online.rate.toFixed(0).padStart(6)} orders paid/s   p50 ${online.p50.toFixed(1)} ms   p99 ${online.p99.toFixed(1)} ms   server+db CPU ${online.cpuMs.toFixed(2)} ms an order (cart included)`,
  );
  print(
    `online: ${approved.size} approved, lost ${notPaid} (approved, not paid and confirmed), paid twice ${paidTwice}, errors ${eventErrors.length}${eventErrors.length ? ` (${[...new Set(eventErrors)].slice(0, 3).join('; ')})` : ''}`,
  );
  const onlineOk = notPaid === 0 && paidTwice === 0 && eventErrors.length === 0;
  print(`goal: online lost and paid twice 0: ${onlineOk ? 'PASS' : 'FAIL'}`);
  if (!onlineOk) failed = true;
} catch (err) {
  failed = true;
  print(`bench:orders failed: ${err.stack ?? err}`);
} finally {
  await server.stop();
}
process.exit(failed ? 1 : 0);
