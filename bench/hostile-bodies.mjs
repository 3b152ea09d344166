// `npm run bench -- hostile-bodies`: how long the server takes to refuse a hostile JSON body of close to
// its 1 MB limit (a megabyte of nested arrays, of nested objects, 100,000 unknown keys) sent to sign-in
// and to a product PATCH, and the slowest /api/health answer asked every 25 ms meanwhile. The functional
// tests assert what is refused and why (apps/server/test/api/body-limits.test.ts) and what makes it cheap by
// count (json-body.test.ts); the time is this figure, against the goal of under a second each.
import { demoAdmin, freePort, startServer, waitHealthy } from './lib.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const GOAL_MS = 1000;
/** MAX_BODY_BYTES of packages/domain (constants.ts): the server's body limit. */
const MAX_BODY_BYTES = 1_048_576;

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = startServer({ port, env: { SEED_DEMO: 'on', LOG_LEVEL: 'warn' } });
if (!(await waitHealthy(port, 60_000))) throw new Error(`server did not start:\n${server.output()}`);

try {
  const { companyId, headers } = await demoAdmin(base);
  const products = await (await fetch(`${base}/api/companies/${companyId}/products?per_page=1`, { headers })).json();
  const productUrl = `/api/companies/${companyId}/products/${products.data[0].id}`;

  const arrays = (depth) => '['.repeat(depth) + ']'.repeat(depth);
  const objects = (depth) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
  const unknownKeys = () => `{${Array.from({ length: 100_000 }, (_, i) => `"x${i.toString(36)}":0`).join(',')}}`;
  const bodies = [
    ['~1 MB of nested arrays', arrays(Math.floor((MAX_BODY_BYTES - 100) / 2))],
    ['~1 MB of nested objects', objects(Math.floor((MAX_BODY_BYTES - 100) / 6))],
    ['100,000 unknown keys', unknownKeys()],
  ];
  const targets = [
    ['sign-in', 'POST', '/api/identity/sign-in', {}],
    ['product PATCH', 'PATCH', productUrl, headers],
  ];

  let worst = 0;
  let worstHealth = 0;
  process.stdout.write(`bench:hostile-bodies — best of ${ROUNDS} rounds each\n`);
  for (const [target, method, url, auth] of targets) {
    for (const [name, body] of bodies) {
      let best = Infinity;
      let health = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const probes = [];
        const probe = async () => {
          const t0 = performance.now();
          await (await fetch(`${base}/api/health`)).text();
          health = Math.max(health, performance.now() - t0);
        };
        const timer = setInterval(() => probes.push(probe()), 25);
        const t0 = performance.now();
        const res = await fetch(`${base}${url}`, {
          method,
          body,
          headers: { 'content-type': 'application/json', ...auth },
        });
        await res.text();
        best = Math.min(best, performance.now() - t0);
        clearInterval(timer);
        await Promise.all(probes);
        if (res.status !== 400) throw new Error(`${name} to ${target}: ${res.status}, not 400`);
      }
      worst = Math.max(worst, best);
      worstHealth = Math.max(worstHealth, health);
      const asked = health > 0 ? `slowest health ${health.toFixed(0)} ms` : 'answered before a health probe was due';
      process.stdout.write(`  ${name} to ${target}: ${best.toFixed(0)} ms (${asked})\n`);
    }
  }
  process.stdout.write(
    `  goal: each refused in under ${GOAL_MS} ms: ${worst < GOAL_MS ? 'met' : 'missed'} (slowest ${worst.toFixed(0)} ms, ` +
      `health at most ${worstHealth.toFixed(0)} ms)\n`,
  );
  if (worst >= GOAL_MS) process.exitCode = 1;
} finally {
  await server.stop();
}
