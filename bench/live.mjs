// `npm run bench:live`: 500 subscribers on one instance (450 guests and 50 signed-in staff, whose role
// the feed reads on every event), all on the product stream; 200 changes made through the API one
// after another. Prints, over every delivery:
//  - commit→delivery: from the record's updatedAt (stamped by the server in the transaction, just
//    before COMMIT, same machine clock) to the subscriber reading the event;
//  - send→delivery: from the write request being sent (an upper bound that adds the HTTP round);
//  - duplicates and missing deliveries per subscriber, the server's memory per subscriber, and a goal
//    check (p99 commit→delivery < 100 ms).
import { rmSync } from 'node:fs';
import http from 'node:http';
import {
  databaseUrlOf,
  freePort,
  insertUser,
  percentile,
  rssOf,
  signToken,
  sleep,
  startServer,
  tempDir,
  waitHealthy,
  withDb,
} from './lib.mjs';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 500);
const STAFF = Math.min(SUBSCRIBERS, Number(process.env.BENCH_STAFF_SUBSCRIBERS ?? Math.round(SUBSCRIBERS / 10)));
const CHANGES = Number(process.env.BENCH_CHANGES ?? 200);
const GOAL_P99_MS = 100;

const port = await freePort();
// Every guest subscriber comes from 127.0.0.1: the per-address stream cap is raised to this load.
const env = {
  SEED_DEMO: 'on',
  LOG_LEVEL: 'info',
  RATE_LIMIT_WRITES: '0',
  LIVE_STREAMS_PER_ADDRESS: String(SUBSCRIBERS),
};
// Seed in a first run, measure in a second on the same data: drawing the demo pictures leaves memory
// behind that the measured run would otherwise give back while subscribers connect.
const dataDir = tempDir('hornada-bench-live-');
const seeding = startServer({ port, dataDir, env });
if (!(await waitHealthy(port, 60_000))) throw new Error(`server did not start:\n${seeding.output()}`);
await seeding.stop();
const server = startServer({ port, dataDir, env });
if (!(await waitHealthy(port, 60_000))) throw new Error(`server did not start:\n${server.output()}`);
const { data: config } = await (await fetch(`http://127.0.0.1:${port}/api/config`)).json();
const companyId = config.companyId;
const staffIds = Array.from({ length: STAFF }, (_, i) => `bench-staff-${i}`);
await withDb(databaseUrlOf(server), async (c) => {
  await insertUser(c, { uid: 'bench-admin', companyId });
  for (const uid of staffIds) await insertUser(c, { uid, companyId, role: 'company_staff' });
});
const token = await signToken(server, 'bench-admin');
const staffTokens = await Promise.all(staffIds.map((uid) => signToken(server, uid)));

// A plain http agent with enough sockets: one connection per subscriber, as browsers would have.
const agent = new http.Agent({ keepAlive: false, maxSockets: SUBSCRIBERS + 10 });
/** Per delivery: [commit→delivery, send→delivery] in ms, and whether the subscriber is staff. */
const commitLatencies = { all: [], guest: [], staff: [] };
const sendLatencies = [];
const sentAt = new Map();
/** received[i]: change number → times subscriber i got it. */
const received = Array.from({ length: SUBSCRIBERS }, () => new Map());
let deliveries = 0;
let opened = 0;

await sleep(500);
const rssBefore = rssOf(server.child.pid);
const sockets = [];
await new Promise((resolve, reject) => {
  for (let i = 0; i < SUBSCRIBERS; i++) {
    const staff = i < STAFF;
    const headers = staff ? { authorization: `Bearer ${staffTokens[i]}` } : {};
    const req = http.get(
      { host: '127.0.0.1', port, path: `/api/companies/${companyId}/changes?resources=products`, agent, headers },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`subscriber ${i}: ${res.statusCode}`));
        sockets.push(res);
        if (++opened === SUBSCRIBERS) resolve();
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          const now = Date.now();
          const nowPerf = performance.now();
          buf += chunk;
          let idx;
          while ((idx = buf.indexOf('\n\n')) >= 0) {
            const block = buf.slice(0, idx);
            buf = buf.slice(idx + 2);
            const m = /"name":"bench-(\d+)"/.exec(block);
            if (!m) continue;
            const n = Number(m[1]);
            deliveries++;
            const seen = received[i].get(n) ?? 0;
            received[i].set(n, seen + 1);
            if (seen > 0) continue;
            const stamp = /"updatedAt":"([^"]+)"/.exec(block);
            if (stamp) {
              const ms = now - Date.parse(stamp[1]);
              commitLatencies.all.push(ms);
              (staff ? commitLatencies.staff : commitLatencies.guest).push(ms);
            }
            const t0 = sentAt.get(n);
            if (t0 !== undefined) sendLatencies.push(nowPerf - t0);
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
const writeSeconds = (performance.now() - started) / 1000;
const expected = SUBSCRIBERS * CHANGES;
const until = Date.now() + 10_000;
while (commitLatencies.all.length < expected && Date.now() < until) await sleep(50);
// A little longer, so a late duplicate would show.
await sleep(500);

for (const s of sockets) s.destroy();
await server.stop();
rmSync(dataDir, { recursive: true, force: true });

let duplicates = 0;
let missing = 0;
let subscribersWithDuplicates = 0;
let subscribersMissing = 0;
for (const map of received) {
  let dup = 0;
  for (const count of map.values()) if (count > 1) dup += count - 1;
  const miss = CHANGES - map.size;
  duplicates += dup;
  missing += miss;
  if (dup > 0) subscribersWithDuplicates++;
  if (miss > 0) subscribersMissing++;
}
for (const list of [commitLatencies.all, commitLatencies.guest, commitLatencies.staff, sendLatencies]) {
  list.sort((a, b) => a - b);
}
const fmt = (list) =>
  `p50 ${percentile(list, 50).toFixed(1)} ms, p99 ${percentile(list, 99).toFixed(1)} ms, max ${(list.at(-1) ?? 0).toFixed(1)} ms`;
const p99 = percentile(commitLatencies.all, 99);
const pass = missing === 0 && duplicates === 0 && p99 < GOAL_P99_MS;
process.stdout.write(
  `bench:live — ${SUBSCRIBERS} subscribers (${SUBSCRIBERS - STAFF} guests, ${STAFF} staff), ${CHANGES} changes in ${writeSeconds.toFixed(1)} s\n` +
    `  delivered ${deliveries} of ${expected}: missing ${missing} (${subscribersMissing} subscribers), duplicates ${duplicates} (${subscribersWithDuplicates} subscribers)\n` +
    `  commit→delivery ${fmt(commitLatencies.all)}\n` +
    `    guests ${fmt(commitLatencies.guest)}; staff ${fmt(commitLatencies.staff)}\n` +
    `  send→delivery   ${fmt(sendLatencies)}\n` +
    `  server memory per subscriber: ${((rssAfter - rssBefore) / SUBSCRIBERS / 1024).toFixed(1)} KiB (RSS ${(rssBefore / 1048576).toFixed(0)} → ${(rssAfter / 1048576).toFixed(0)} MiB)\n` +
    `goal: p99 commit→delivery ${p99.toFixed(1)} ms (< ${GOAL_P99_MS} ms), none missing or duplicated: ${pass ? 'PASS' : 'MISS'}\n`,
);
process.exit(missing === 0 && duplicates === 0 ? 0 : 1);
