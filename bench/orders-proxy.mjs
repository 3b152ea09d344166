// `npm run bench:orders:proxy`: checkouts through HAProxy with three app instances
// against one instance behind the same proxy (bench/topology.mjs: the machine's PostgreSQL, files in
// s3rver, NODE_ENV=production). CUSTOMERS (50) customers make a cart and check it out, again and again,
// for BENCH_SECONDS (20) each; prints orders a second for each layout and the ratio. On this 2-core
// machine the instances, PostgreSQL, HAProxy and the load share the same cores: the ratio says what a
// second instance costs or gains here, not what it gains on machines of their own.
import { randomBytes } from 'node:crypto';
import { cashCheckout, demoShop, percentile } from './lib.mjs';
import { startTopology } from './topology.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CUSTOMERS = Number(process.env.CUSTOMERS ?? 50);
const print = (s) => process.stdout.write(`${s}\n`);
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const session = () => Array.from(randomBytes(20), (b) => ALNUM[b % ALNUM.length]).join('');
const noBounds = {
  RATE_LIMIT_WRITES: '0',
  RATE_LIMIT_PUBLIC_READS: '0',
  CHECKOUT_UNPAID_PER_HOLDER: '0',
  CHECKOUT_UNPAID_PER_PHONE: '0',
  CHECKOUT_UNPAID_PER_ADDRESS: '0',
  CHECKOUT_WINDOW_SHARE_PER_ADDRESS: '0',
};

async function measure(instances) {
  const topo = await startTopology({ instances, env: noBounds, log: () => {} });
  try {
    const base = topo.publicUrl;
    const { companyId, settings, day, products } = await demoShop(base);
    const lineOf = (p) => ({
      productId: p.id,
      quantity: Math.min(1000, Math.ceil(settings.minimumOrder / p.price) + 1),
    });
    const latencies = [];
    let orders = 0;
    let refused = 0;
    const reasons = new Set();
    const end = Date.now() + SECONDS * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CUSTOMERS }, async () => {
        while (Date.now() < end) {
          const s = session();
          const t0 = performance.now();
          const cart = await fetch(`${base}/api/carts`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-session-id': s },
            body: JSON.stringify({ companyId, items: [lineOf(products[Math.floor(Math.random() * products.length)])] }),
          });
          const c = await cart.json().catch(() => null);
          if (cart.status !== 201) {
            refused += 1;
            reasons.add(`cart ${cart.status} ${c?.code ?? ''}`);
            continue;
          }
          const r = await fetch(`${base}/api/carts/${c.data.id}/checkout`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-session-id': s,
              'idempotency-key': randomBytes(16).toString('hex'),
            },
            body: cashCheckout(day),
          });
          await r.text();
          latencies.push(performance.now() - t0);
          if (r.status === 201) orders += 1;
          else {
            refused += 1;
            reasons.add(`checkout ${r.status}`);
          }
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    return {
      rate: orders / seconds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      refused,
      reasons: [...reasons].join('; '),
    };
  } catch (err) {
    for (const n of topo.nodes)
      print(`${n.name} (exit ${n.server.child.exitCode}):\n${n.server.output().slice(-1500)}`);
    print(`haproxy:\n${topo.proxyOutput().slice(-1500)}`);
    throw err;
  } finally {
    await topo.stop();
  }
}

print(`bench:orders through HAProxy — ${CUSTOMERS} customers, ${SECONDS} s a layout, cart + checkout each`);
const one = await measure(1);
const three = await measure(3);
const show = (label, r) =>
  print(
    `${label.padEnd(28)} ${r.rate.toFixed(0).padStart(5)} orders/s   cart+checkout p50 ${r.p50.toFixed(0)} ms   p99 ${r.p99.toFixed(0)} ms   refused ${r.refused}${r.reasons ? ` (${r.reasons})` : ''}`,
  );
show('one instance behind HAProxy', one);
show('three instances', three);
print(`ratio three / one: ${(three.rate / one.rate).toFixed(2)}`);
process.exit(one.refused + three.refused === 0 ? 0 : 1);
