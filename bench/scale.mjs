// `npm run test:scale`: the production topology (bench/topology.mjs: three instances
// with NODE_ENV=production behind HAProxy, the machine's PostgreSQL, files in s3rver). CUSTOMERS (50)
// customers check out through the proxy for SECONDS (60); instance 2 is SIGKILLed at a third of the run
// and started again at two thirds. Clients retry a failed request with the same Idempotency-Key, as a
// real client does. Meanwhile the admin changes product prices through the proxy, and a guest's event
// stream is open on each instance (one on the instance that dies resumes through the proxy with
// Last-Event-ID). Then: every acknowledged order is in the database exactly once, numbers without gaps
// or duplicates, every stream saw every product change, and each instance's cached product list agrees
// with the database. Before the load, bakery subdomains through the proxy: a shop's host picks it, and a
// client's forged X-Forwarded-Host changes nothing. Prints the figures; exits 1 if any of them is not 0.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { cashCheckout, demoShop, percentile, sleep, withDb } from './lib.mjs';
import { startTopology } from './topology.mjs';

const SECONDS = Number(process.env.SCALE_SECONDS ?? 60);
const CUSTOMERS = Number(process.env.CUSTOMERS ?? 50);
const VICTIM = 1;
const t0 = Date.now();
const stamp = () => `${((Date.now() - t0) / 1000).toFixed(1).padStart(6)} s`;
const print = (s) => process.stdout.write(`${s}\n`);
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const session = () => Array.from(randomBytes(20), (b) => ALNUM[b % ALNUM.length]).join('');

const topo = await startTopology({
  log: (s) => print(`${stamp()}  ${s}`),
  env: {
    RATE_LIMIT_WRITES: '0',
    RATE_LIMIT_PUBLIC_READS: '0',
    CHECKOUT_UNPAID_PER_HOLDER: '0',
    CHECKOUT_UNPAID_PER_PHONE: '0',
    CHECKOUT_UNPAID_PER_ADDRESS: '0',
    CHECKOUT_WINDOW_SHARE_PER_ADDRESS: '0',
  },
});
const base = topo.publicUrl;
let failed = false;
const stats = { requests: 0, retried: 0 };

/** fetch through the proxy, retried with the same request (same Idempotency-Key) until answered. */
async function send(url, init, until) {
  for (let attempt = 0; ; attempt++) {
    stats.requests += 1;
    try {
      const res = await fetch(url, init);
      // 502/503: the proxy had no live instance for it, or the instance was going down: again.
      if (res.status < 500) return { status: res.status, body: await res.json() };
      await res.text();
    } catch {
      // The connection died with its instance.
    }
    if (Date.now() > until) return { status: 0, body: null };
    stats.retried += 1;
    await sleep(Math.min(1000, 50 * 2 ** attempt));
  }
}

/**
 * GET /api/config through the proxy with a Host header of our choosing (fetch cannot set one): its status, and
 * the shop's origin when found.
 */
function configAt(host, forwarded) {
  const { hostname, port } = new URL(base);
  const headers = { host, ...(forwarded ? { 'x-forwarded-host': forwarded } : {}) };
  return new Promise((resolve, reject) => {
    const req = http.get({ hostname, port, path: '/api/config', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () =>
        resolve(res.statusCode === 200 ? `200 ${JSON.parse(body).data.publicUrl}` : String(res.statusCode)),
      );
    });
    req.on('error', reject);
  });
}

/** A guest's event stream of products: opened on `first`, resumed through the proxy with Last-Event-ID. */
function guestStream(first, companyId) {
  const s = { seen: new Set(), resumes: 0, last: null, stop: false, done: null };
  s.done = (async () => {
    let at = first;
    while (!s.stop) {
      const controller = new AbortController();
      s.abort = () => controller.abort();
      try {
        const res = await fetch(`${at}/api/companies/${companyId}/changes?resources=products`, {
          headers: { accept: 'text/event-stream', ...(s.last ? { 'last-event-id': s.last } : {}) },
          signal: controller.signal,
        });
        if (res.status !== 200) throw new Error(`stream ${res.status}`);
        const decoder = new TextDecoder();
        let buf = '';
        for await (const chunk of res.body) {
          buf += decoder.decode(chunk, { stream: true });
          let end;
          while ((end = buf.indexOf('\n\n')) >= 0) {
            const block = buf.slice(0, end);
            buf = buf.slice(end + 2);
            const id = /^id: (\d+)$/m.exec(block)?.[1];
            if (id && /^data: /m.test(block)) {
              s.seen.add(Number(id));
              s.last = id;
            }
          }
        }
      } catch {
        // Its instance died (or we stopped it).
      }
      if (s.stop) break;
      s.resumes += 1;
      at = base;
      await sleep(200);
    }
  })();
  return s;
}

try {
  const { companyId, admin, api, settings, day, products, json } = await demoShop(base);
  const lineOf = (p) => ({ productId: p.id, quantity: Math.min(1000, Math.ceil(settings.minimumOrder / p.price) + 1) });
  const db = (fn) => withDb(topo.databaseUrl, fn);
  const { firstNumber, startPosition } = await db(async (c) => ({
    firstNumber: Number(
      (await c.query('SELECT coalesce(max(number), 1000) AS n FROM orders WHERE company_id = $1', [companyId])).rows[0]
        .n,
    ),
    startPosition: Number((await c.query('SELECT coalesce(max(position), 0) AS p FROM change_log')).rows[0].p),
  }));

  // Bakery subdomains behind HAProxy: the Host passes through and picks the shop, and a client's own
  // X-Forwarded-Host is dropped at the proxy (the instances believe that header from it: TRUST_PROXY).
  const { slug } = await db(
    async (c) => (await c.query('SELECT slug FROM companies WHERE id = $1', [companyId])).rows[0],
  );
  const port = new URL(base).port;
  const hosts = [
    [`${slug}.localhost:${port}`, undefined, `200 http://${slug}.localhost:${port}`],
    [`nadie.localhost:${port}`, undefined, '404'],
    [`127.0.0.1:${port}`, `nadie.localhost:${port}`, `200 ${base}`],
    [`127.0.0.1:${port}`, `${slug}.localhost:${port}`, `200 ${base}`],
  ];
  let wrongHosts = 0;
  for (const [host, forwarded, want] of hosts) {
    const got = await configAt(host, forwarded);
    print(`${stamp()}  Host ${host}${forwarded ? ` + X-Forwarded-Host ${forwarded}` : ''}: ${got}`);
    if (got !== want) {
      print(`${stamp()}  expected ${want}`);
      wrongHosts += 1;
    }
  }

  const streams = topo.nodes.map((n) => guestStream(n.base, companyId));
  await sleep(500);
  print(
    `${stamp()}  ${CUSTOMERS} customers checking out through HAProxy for ${SECONDS} s; 3 guest streams, one an instance`,
  );

  const end = Date.now() + SECONDS * 1000;
  const grace = end + 20_000;
  const acknowledged = new Map(); // cart id → order id
  const refused = [];
  const latencies = [];

  // The admin changes a price every 300 ms: changes every stream must carry.
  const adminWrites = (async () => {
    let n = 0;
    while (Date.now() < end) {
      const p = products[n++ % products.length];
      const key = randomBytes(16).toString('hex');
      const r = await send(
        `${api}/products/${p.id}`,
        {
          method: 'PATCH',
          headers: { ...admin, 'idempotency-key': key },
          body: JSON.stringify({ price: p.price + (n % 2) * 100 }),
        },
        grace,
      );
      if (r.status !== 200) refused.push(`price ${r.status} ${r.body?.code ?? ''}`);
      await sleep(300);
    }
  })();

  const customer = async () => {
    while (Date.now() < end) {
      const s = session();
      const cart = await send(
        `${base}/api/carts`,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-session-id': s,
            'idempotency-key': randomBytes(16).toString('hex'),
          },
          body: JSON.stringify({ companyId, items: [lineOf(products[Math.floor(Math.random() * products.length)])] }),
        },
        grace,
      );
      if (cart.status !== 201) {
        refused.push(`cart ${cart.status} ${cart.body?.code ?? ''}`);
        continue;
      }
      const key = randomBytes(16).toString('hex');
      const started = performance.now();
      const r = await send(
        `${base}/api/carts/${cart.body.data.id}/checkout`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-session-id': s, 'idempotency-key': key },
          body: cashCheckout(day),
        },
        grace,
      );
      latencies.push(performance.now() - started);
      if (r.status === 201) acknowledged.set(cart.body.data.id, r.body.data.id);
      else refused.push(`checkout ${r.status} ${r.body?.code ?? ''}`);
    }
  };

  const chaos = (async () => {
    await sleep((SECONDS * 1000) / 3);
    await topo.kill(VICTIM);
    print(`${stamp()}  app${VICTIM + 1} killed (SIGKILL)`);
    await sleep((SECONDS * 1000) / 3);
    await topo.restart(VICTIM);
    print(`${stamp()}  app${VICTIM + 1} started again and healthy`);
  })();
  await Promise.all([...Array.from({ length: CUSTOMERS }, customer), adminWrites, chaos]);
  print(`${stamp()}  customers stopped`);
  await sleep(2000);
  for (const s of streams) {
    s.stop = true;
    s.abort?.();
  }
  await Promise.all(streams.map((s) => s.done));

  // The database's account.
  const { rows, expected } = await db(async (c) => ({
    rows: (
      await c.query('SELECT id, cart_id, number FROM orders WHERE company_id = $1 AND number > $2 ORDER BY number', [
        companyId,
        firstNumber,
      ])
    ).rows,
    expected: (
      await c.query(
        "SELECT position FROM change_log WHERE company_id = $1 AND resource = 'products' AND position > $2",
        [companyId, startPosition],
      )
    ).rows.map((r) => Number(r.position)),
  }));
  const inDb = new Map(rows.map((r) => [r.cart_id, r]));
  const lost = [...acknowledged].filter(([cart, id]) => inDb.get(cart)?.id !== id).length;
  const perCart = new Map();
  for (const r of rows) perCart.set(r.cart_id, (perCart.get(r.cart_id) ?? 0) + 1);
  const duplicated = [...perCart.values()].filter((n) => n > 1).length;
  const numbers = rows.map((r) => Number(r.number));
  // Numbers taken from the first after the start, one each: the last is the first plus their count.
  const gaps = numbers.length === 0 ? 0 : numbers.at(-1) - firstNumber - new Set(numbers).size;
  const numberDuplicates = numbers.length - new Set(numbers).size;
  const missed = streams.map((s) => expected.filter((p) => !s.seen.has(p)).length);

  // Each instance's cached public product list against the database.
  const truth = await db(
    async (c) =>
      new Map(
        (
          await c.query('SELECT id, price, name FROM products WHERE company_id = $1 AND deleted_at IS NULL', [
            companyId,
          ])
        ).rows.map((r) => [r.id, r]),
      ),
  );
  let disagreements = 0;
  for (const n of topo.nodes) {
    const list = (await json(await fetch(`${n.base}/api/companies/${companyId}/products?per_page=100`))).data;
    for (const p of list) {
      const t = truth.get(p.id);
      if (!t || t.price !== p.price || t.name !== p.name) disagreements += 1;
    }
  }

  latencies.sort((a, b) => a - b);
  print(`requests: ${stats.requests} (${stats.retried} retried with their Idempotency-Key)`);
  print(
    `orders acknowledged: ${acknowledged.size}, in the database: ${rows.length}; checkout p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms`,
  );
  print(`lost ${lost}, duplicated ${duplicated + numberDuplicates}, gaps ${gaps}`);
  print(
    `stream events: ${expected.length} product changes; missed ${missed.join(' / ')} (one stream an instance); resumes ${streams.map((s) => s.resumes).join(' / ')}`,
  );
  print(`cache disagreements: ${disagreements}`);
  if (refused.length > 0) print(`refused: ${refused.length} (${[...new Set(refused)].slice(0, 4).join('; ')})`);
  const written = rows.length - acknowledged.size;
  if (written !== 0) print(`orders written whose answer never came: ${written}`);
  const ok =
    lost === 0 &&
    duplicated + numberDuplicates === 0 &&
    gaps === 0 &&
    missed.every((m) => m === 0) &&
    disagreements === 0 &&
    wrongHosts === 0 &&
    refused.length === 0 &&
    acknowledged.size > 0;
  print(ok ? 'PASS' : 'FAIL');
  if (!ok) failed = true;
} catch (err) {
  print(`error: ${err.stack ?? err}`);
  failed = true;
} finally {
  await topo.stop();
}
if (process.env.RESULTS_FILE) {
  writeFileSync(
    process.env.RESULTS_FILE,
    JSON.stringify({ passed: failed ? 0 : 1, failed: failed ? 1 : 0, skipped: 0 }),
  );
}
process.exit(failed ? 1 : 0);
