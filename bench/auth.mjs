// `npm run bench:auth`: sign-ins per second and their latency, bounded by argon2id's cost. The baseline
// of the same run is one argon2id verify in this process (the work a sign-in cannot avoid).
// The sign-in limit per address is raised for the run: every request comes from 127.0.0.1.
import autocannon from 'autocannon';
import { hash, verify } from '@node-rs/argon2';
import { freePort, startServer, waitHealthy } from './lib.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 8;

const h = await hash('hornada-demo');
const t0 = performance.now();
const N = 50;
for (let i = 0; i < N; i++) await verify(h, 'hornada-demo');
const verifyMs = (performance.now() - t0) / N;

const port = await freePort();
const server = startServer({
  port,
  env: { SEED_DEMO: 'on', RATE_LIMIT_SIGNIN_ADDRESS: '100000000', LOG_LEVEL: 'warn' },
});
if (!(await waitHealthy(port, 60_000))) throw new Error(`server did not start:\n${server.output()}`);

const result = await autocannon({
  url: `http://127.0.0.1:${port}/api/identity/sign-in`,
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'staff@hornada.test', password: 'hornada-demo' }),
  connections: CONNECTIONS,
  duration: SECONDS,
});
await server.stop();
if (result.non2xx > 0) throw new Error(`${result.non2xx} sign-ins failed`);
process.stdout.write(
  `bench:auth — ${CONNECTIONS} connections, ${SECONDS} s\n` +
    `  argon2id verify in-process: ${verifyMs.toFixed(1)} ms (${(1000 / verifyMs).toFixed(0)}/s on one core)\n` +
    `  sign-ins: ${result.requests.average.toFixed(0)}/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms\n` +
    `  ratio to one core's verify rate: ${(result.requests.average / (1000 / verifyMs)).toFixed(2)}\n`,
);
