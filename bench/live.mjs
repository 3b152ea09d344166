// `npm run bench:live`: 500 subscribers on one instance (guests on the public product stream), 200
// changes made through the API one after another. Prints p50/p99 from the write being sent (an upper
// bound of its commit) to delivery at every subscriber, and the server's memory per subscriber.
import {
  freePort,
  percentile,
  rssOf,
  signToken,
  sleep,
  startServer,
  waitHealthy,
  withDb,
  databaseUrlOf,
  insertUser,
} from './lib.mjs';
import http from 'node:http';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 500);
const CHANGES = Number(process.env.BENCH_CHANGES ?? 200);

const port = await freePort();
const server = startServer({ port, env: { SEED_DEMO: 'on', LOG_LEVEL: 'info', RATE_LIMIT_WRITES: '0' } });
if (!(await waitHealthy(port, 60_000))) throw new Error(`server did not start:\n${server.output()}`);
const { data: config } = await (await fetch(`http://127.0.0.1:${port}/api/config`)).json();
const companyId = config.companyId;
await withDb(databaseUrlOf(server), (c) => insertUser(c, { uid: 'bench-admin', companyId }));
const token = await signToken(server, 'bench-admin');

// A plain http agent with enough sockets: one connection per subscriber, as browsers would have.
const agent = new http.Agent({ keepAlive: false, maxSockets: SUBSCRIBERS + 10 });
const latencies = [];
const sentAt = new Map();
let opened = 0;
const received = new Map();

await sleep(500);
const rssBefore = rssOf(server.child.pid);
const sockets = [];
await new Promise((resolve, reject) => {
  for (let i = 0; i < SUBSCRIBERS; i++) {
    const req = http.get(
      { host: '127.0.0.1', port, path: `/api/companies/${companyId}/changes?resources=products`, agent },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`subscriber ${i}: ${res.statusCode}`));
        sockets.push(res);
        if (++opened === SUBSCRIBERS) resolve();
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          buf += chunk;
          let idx;
          while ((idx = buf.indexOf('\n\n')) >= 0) {
            const block = buf.slice(0, idx);
            buf = buf.slice(idx + 2);
            const m = /"name":"bench-(\d+)"/.exec(block);
            if (!m) continue;
            const n = Number(m[1]);
            const t0 = sentAt.get(n);
            if (t0 !== undefined) latencies.push(performance.now() - t0);
            received.set(n, (received.get(n) ?? 0) + 1);
          }
        });
      },
    );
    req.on('error', reject);
  }
});
await sleep(1000);
const rssAfter = rssOf(server.child.pid);

const started = performance.now();
for (let n = 0; n < CHANGES; n++) {
  sentAt.set(n, performance.now());
  const r = await fetch(`http://127.0.0.1:${port}/api/companies/${companyId}/products`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: `bench-${n}`, price: 1000 }),
  });
  if (r.status !== 201) throw new Error(`write ${n}: ${r.status} ${await r.text()}`);
}
const until = Date.now() + 10_000;
while (latencies.length < SUBSCRIBERS * CHANGES && Date.now() < until) await sleep(50);
const writeSeconds = (performance.now() - started) / 1000;

for (const s of sockets) s.destroy();
await server.stop();

latencies.sort((a, b) => a - b);
const missing = SUBSCRIBERS * CHANGES - latencies.length;
process.stdout.write(
  `bench:live — ${SUBSCRIBERS} subscribers, ${CHANGES} changes in ${writeSeconds.toFixed(1)} s\n` +
    `  delivered ${latencies.length} of ${SUBSCRIBERS * CHANGES} (missing ${missing})\n` +
    `  send→delivery p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${(latencies.at(-1) ?? 0).toFixed(1)} ms (goal p99 < 100 ms)\n` +
    `  server memory per subscriber: ${((rssAfter - rssBefore) / SUBSCRIBERS / 1024).toFixed(1)} KiB (RSS ${(rssBefore / 1048576).toFixed(0)} → ${(rssAfter / 1048576).toFixed(0)} MiB)\n`,
);
process.exit(missing === 0 ? 0 : 1);
