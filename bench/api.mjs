// `npm run bench:api`: autocannon, 50 connections, 10 s each (BENCH_SECONDS to change), against
//  1. a bare Fastify route serving the same JSON from memory (the baseline of this run), and
//  2. Hornada's public product list (20 items) on the embedded PostgreSQL and on DATABASE_URL's
//     server (default: this machine's PostgreSQL 15 at 127.0.0.1:5432, a fresh database),
// then the same with If-None-Match (304s). Prints req/s, p50, p99 and the ratio to the baseline.
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import pg from 'pg';
import { freePort, startServer, waitHealthy } from './lib.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const PG15 = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function startHornada(env) {
  const port = await freePort();
  const server = startServer({ port, env: { SEED_DEMO: 'on', LOG_LEVEL: 'warn', ...env } });
  if (!(await waitHealthy(port, 60_000))) throw new Error(`Hornada did not start:\n${server.output()}`);
  const config = await (await fetch(`http://127.0.0.1:${port}/api/config`)).json();
  const url = `http://127.0.0.1:${port}/api/companies/${config.data.companyId}/products?per_page=20`;
  const etag = (await fetch(url)).headers.get('etag');
  return { url, etag, stop: () => server.stop() };
}

/** Measures after a 2 s warm-up (JIT, caches, connection pools), so each target starts equal. */
async function run(url, headers = {}, expectStatus = 200) {
  await once(url, headers, expectStatus, 2);
  return once(url, headers, expectStatus, SECONDS);
}

function once(url, headers, expectStatus, duration) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration, headers }, (err, r) => {
      if (err) return reject(err);
      const ok = r[`${Math.floor(expectStatus / 100)}xx`];
      if (r.errors > 0 || ok < r.requests.total * 0.999)
        return reject(new Error(`${url}: ${r.errors} errors, ${ok}/${r.requests.total} ${expectStatus}`));
      resolve({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 });
    });
  });
}

const line = (name, r, base) =>
  `${name.padEnd(52)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${String(r.p50).padStart(3)} ms   p99 ${String(r.p99).padStart(4)} ms   ratio ${(r.rps / base.rps).toFixed(2)}`;
const print = (s) => process.stdout.write(`${s}\n`);

const embedded = await startHornada({ DATABASE_URL: '' });
const body = await (await fetch(embedded.url)).text();
const bare = Fastify();
bare.get('/products', (_req, reply) => reply.type('application/json').send(body));
await bare.listen({ port: 0, host: '127.0.0.1' });
const bareUrl = `http://127.0.0.1:${bare.server.address().port}/products`;

print(`bench:api — ${CONNECTIONS} connections, ${SECONDS} s each, ${body.length} bytes a response`);
const baseline = await run(bareUrl);
print(line('bare Fastify (memory)', baseline, baseline));
/** The public list of one running Hornada: a full read, then a revalidation that gets 304. */
async function measure(label, target) {
  print(line(`Hornada, ${label}`, await run(target.url), baseline));
  const notModified = await run(target.url, { 'if-none-match': target.etag }, 304);
  print(line(`Hornada, ${label}, If-None-Match (304)`, notModified, baseline));
  await target.stop();
}

await measure('embedded PostgreSQL', embedded);

const dbName = `hornada_bench_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: PG15 });
try {
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
} catch (err) {
  print(`PostgreSQL 15 left out: ${err.message} (${PG15})`);
  await bare.close();
  process.exit(0);
}
const url = new URL(PG15);
url.pathname = `/${dbName}`;
await measure('PostgreSQL 15', await startHornada({ DATABASE_URL: url.toString() }));
await admin.query(`DROP DATABASE ${dbName} WITH (FORCE)`);
await admin.end();
await bare.close();
