// `npm run bench:live`: BENCH_SUBSCRIBERS (500; the goal is 5,000) subscribers on one instance, 90%
// guests and 10% signed-in staff, all on the product stream; 200 changes made through the API one after
// another. Prints, over every delivery:
//  - commit→delivery: from the record's updatedAt (stamped by the server in the transaction, just
//    before COMMIT, same machine clock) to the subscriber reading the event off its socket;
//  - send→delivery: from the write request being sent (an upper bound that adds the HTTP round);
//  - the server's own fan-out per event (its log at shutdown): from the change notification arriving
//    to the last write to a subscriber's socket, and from the log row in hand to that write;
//  - the CPU time the server, its PostgreSQL and this client used while the changes went out, so that
//    what the client's reading adds to the latency can be told from the server's fan-out;
//  - duplicates and missing deliveries per subscriber, the server's memory per subscriber, and a goal
//    check (p99 commit→delivery < 100 ms);
//  - then the floor (bench/live-floor.mjs, BENCH_LIVE_FLOOR=0 leaves it out): plain Node writing a
//    buffer of the same size to as many sockets at the same pace, read the same way, so that what the
//    machine costs (on loopback a write also carries the reader's TCP receive work) can be told from what
//    the app adds.
//
// The subscribers are raw sockets read by one process as cheaply as Node allows (a shared read buffer,
// no HTTP client, no stream objects, no string per read): a fleet of phones reads each stream on its own
// processor, and this client must not be what is measured. Each read is stamped when it is taken off the
// socket, before the event in it is looked at.
import { fork } from 'node:child_process';
import { rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import {
  cpuSplitOf,
  databaseUrlOf,
  freePort,
  insertUser,
  percentile,
  root,
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
/** Connections opened at a time (a burst of thousands would overflow the listen backlog). */
const OPENING = 100;

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

// What the subscribers saw. received[i * CHANGES + n]: times subscriber i got change n.
const received = new Uint8Array(SUBSCRIBERS * CHANGES);
const commitAll = new Float64Array(SUBSCRIBERS * CHANGES);
const commitGuest = new Float64Array(SUBSCRIBERS * CHANGES);
const commitStaff = new Float64Array(STAFF * CHANGES);
const sendLat = new Float64Array(SUBSCRIBERS * CHANGES);
let nAll = 0;
let nGuest = 0;
let nStaff = 0;
let nSend = 0;
let deliveries = 0;
let bytesRead = 0;
const sentAt = new Float64Array(CHANGES).fill(-1);

const HEAD_END = Buffer.from('\r\n\r\n');
const EVENT_END = Buffer.from('\n\n');
const NAME = Buffer.from('"name":"bench-');
const UPDATED = Buffer.from('"updatedAt":"');
/** One read buffer for every socket: each read is handled before the next one fills it. */
const readBuffer = Buffer.allocUnsafe(256 * 1024);

/** One event block [from, to) of subscriber `st`, read at `now` (epoch ms) / `nowPerf`. */
function onEvent(st, data, from, to, now, nowPerf) {
  const k = data.indexOf(NAME, from);
  if (k < 0 || k >= to) return;
  let n = 0;
  for (let j = k + NAME.length; data[j] >= 48 && data[j] <= 57; j++) n = n * 10 + data[j] - 48;
  if (n >= CHANGES) return;
  deliveries++;
  const seen = received[st.i * CHANGES + n]++;
  if (seen > 0) return;
  const u = data.indexOf(UPDATED, from);
  if (u >= 0 && u < to) {
    const ms = now - Date.parse(data.toString('latin1', u + UPDATED.length, u + UPDATED.length + 24));
    commitAll[nAll++] = ms;
    if (st.staff) commitStaff[nStaff++] = ms;
    else commitGuest[nGuest++] = ms;
  }
  if (sentAt[n] >= 0) sendLat[nSend++] = nowPerf - sentAt[n];
}

/** A read of `nread` bytes on subscriber `st`'s socket. */
function onRead(st, nread, buf) {
  bytesRead += nread;
  const now = Date.now();
  const nowPerf = performance.now();
  let data = buf.subarray(0, nread);
  if (st.rest) {
    data = Buffer.concat([st.rest, data]);
    st.rest = null;
  }
  let pos = 0;
  if (st.head) {
    const h = data.indexOf(HEAD_END);
    if (h < 0) {
      st.rest = Buffer.from(data);
      return;
    }
    const status = data.toString('latin1', 0, 12);
    if (status !== 'HTTP/1.1 200') return st.fail(new Error(`subscriber ${st.i}: ${data.toString('latin1', 0, h)}`));
    st.head = false;
    pos = h + 4;
    st.opened();
  }
  for (;;) {
    const end = data.indexOf(EVENT_END, pos);
    if (end < 0) break;
    onEvent(st, data, pos, end, now, nowPerf);
    pos = end + 2;
  }
  // What is left is the chunk's closing CRLF, or the start of an event cut by the read: kept (copied, the
  // read buffer is shared) only in the second case.
  const left = data.length - pos;
  if (left > 2 || (left > 0 && data[pos] !== 13)) st.rest = Buffer.from(data.subarray(pos));
}

let sockets = [];
/** Subscriber `i` on the app (its stream request), or on the floor's `floorPort` (a bare socket). */
function subscribe(i, floorPort) {
  return new Promise((resolve, reject) => {
    const staff = i < STAFF;
    const st = { i, staff, head: !floorPort, rest: null, opened: resolve, fail: reject };
    const sock = net.connect({
      host: '127.0.0.1',
      port: floorPort ?? port,
      onread: { buffer: readBuffer, callback: (nread, buf) => void onRead(st, nread, buf) },
    });
    sock.setNoDelay(true);
    sock.on('error', reject);
    sock.on('connect', () => {
      if (floorPort) return resolve();
      sock.write(
        `GET /api/companies/${companyId}/changes?resources=products HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
          `Accept: text/event-stream\r\n${staff ? `Authorization: Bearer ${staffTokens[i]}\r\n` : ''}\r\n`,
      );
    });
    sockets.push(sock);
  });
}

async function subscribeAll(floorPort) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(OPENING, SUBSCRIBERS) }, async () => {
      while (next < SUBSCRIBERS) await subscribe(next++, floorPort);
    }),
  );
}

await sleep(500);
const rssBefore = rssOf(server.child.pid);
await subscribeAll();
await sleep(1000);
const rssAfter = rssOf(server.child.pid);

const cpu0 = { ...cpuSplitOf(server.child.pid), client: process.cpuUsage() };
const started = performance.now();
for (let n = 0; n < CHANGES; n++) {
  sentAt[n] = performance.now();
  const r = await fetch(`http://127.0.0.1:${port}/api/companies/${companyId}/products`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: `bench-${n}`, price: 1000 }),
  });
  if (r.status !== 201) throw new Error(`write ${n}: ${r.status} ${await r.text()}`);
}
const writeSeconds = (performance.now() - started) / 1000;
const expected = SUBSCRIBERS * CHANGES;
const until = Date.now() + 20_000;
while (nAll < expected && Date.now() < until) await sleep(50);
const wallSeconds = (performance.now() - started) / 1000;
const clientCpu = process.cpuUsage(cpu0.client);
const cpu1 = cpuSplitOf(server.child.pid);
const serverCpu = cpu1.own - cpu0.own;
const serverKernelCpu = cpu1.kernel - cpu0.kernel;
const pgCpu = cpu1.below - cpu0.below;
// A little longer, so a late duplicate would show.
await sleep(500);

for (const s of sockets) s.destroy();
sockets = [];
await server.stop();
const fanoutLine = server
  .output()
  .split('\n')
  .find((l) => l.includes('"msg":"live fan-out"'));
const fanout = fanoutLine ? JSON.parse(fanoutLine).fanout : null;
rmSync(dataDir, { recursive: true, force: true });

let duplicates = 0;
let missing = 0;
let subscribersWithDuplicates = 0;
let subscribersMissing = 0;
for (let i = 0; i < SUBSCRIBERS; i++) {
  let dup = 0;
  let miss = 0;
  for (let n = 0; n < CHANGES; n++) {
    const c = received[i * CHANGES + n];
    if (c === 0) miss++;
    else dup += c - 1;
  }
  duplicates += dup;
  missing += miss;
  if (dup > 0) subscribersWithDuplicates++;
  if (miss > 0) subscribersMissing++;
}
const sorted = (a, n) => a.slice(0, n).sort();
const all = sorted(commitAll, nAll);
const fmt = (list) =>
  `p50 ${percentile(list, 50).toFixed(1)} ms, p99 ${percentile(list, 99).toFixed(1)} ms, max ${(list.at(-1) ?? 0).toFixed(1)} ms`;
const fmtSpread = (s) => `p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms, max ${s.max.toFixed(1)} ms`;
const p99 = percentile(all, 99);
const pass = missing === 0 && duplicates === 0 && p99 < GOAL_P99_MS;
const clientSeconds = (clientCpu.user + clientCpu.system) / 1e6;
const share = (s) => `${s.toFixed(1)} s (${Math.round((100 * s) / wallSeconds)}% of a core)`;
process.stdout.write(
  `bench:live — ${SUBSCRIBERS} subscribers (${SUBSCRIBERS - STAFF} guests, ${STAFF} staff), ${CHANGES} changes in ${writeSeconds.toFixed(1)} s\n` +
    `  delivered ${deliveries} of ${expected}: missing ${missing} (${subscribersMissing} subscribers), duplicates ${duplicates} (${subscribersWithDuplicates} subscribers)\n` +
    `  commit→delivery ${fmt(all)}\n` +
    `    guests ${fmt(sorted(commitGuest, nGuest))}; staff ${fmt(sorted(commitStaff, nStaff))}\n` +
    `  send→delivery   ${fmt(sorted(sendLat, nSend))}\n` +
    (fanout
      ? `  server fan-out per event (${fanout.events} events, up to ${fanout.maxStreams} streams): notification→last write ${fmtSpread(fanout.heardToLastWrite)}; log row→last write ${fmtSpread(fanout.readToLastWrite)}\n`
      : '  server fan-out: not in the server log\n') +
    `  CPU over the ${wallSeconds.toFixed(1)} s of changes: server ${share(serverCpu)} (${serverKernelCpu.toFixed(1)} s of it in the kernel: socket writes), its PostgreSQL ${share(pgCpu)}, this client ${share(clientSeconds)}\n` +
    `  server memory per subscriber: ${((rssAfter - rssBefore) / SUBSCRIBERS / 1024).toFixed(1)} KiB (RSS ${(rssBefore / 1048576).toFixed(0)} → ${(rssAfter / 1048576).toFixed(0)} MiB)\n` +
    `goal: p99 commit→delivery ${p99.toFixed(1)} ms (< ${GOAL_P99_MS} ms), none missing or duplicated: ${pass ? 'PASS' : 'MISS'}\n`,
);

// The floor: the same reading of the same number of sockets, fed by plain Node writing one buffer of the
// same size to each at the same pace (bench/live-floor.mjs). BENCH_LIVE_FLOOR=0 leaves it out.
if (process.env.BENCH_LIVE_FLOOR !== '0') {
  const eventBytes = Math.round(bytesRead / Math.max(deliveries, 1));
  received.fill(0);
  sentAt.fill(-1);
  nAll = nGuest = nStaff = nSend = deliveries = 0;
  const floor = fork(path.join(root, 'bench/live-floor.mjs'));
  const reply = () => new Promise((resolve) => floor.once('message', resolve));
  const { port: floorPort } = await reply();
  await subscribeAll(floorPort);
  const client0 = process.cpuUsage();
  const done = reply();
  floor.send({ streams: SUBSCRIBERS, rounds: CHANGES, intervalMs: (writeSeconds * 1000) / CHANGES, eventBytes });
  const result = await done;
  const floorUntil = Date.now() + 20_000;
  while (nAll < expected && Date.now() < floorUntil) await sleep(50);
  const client = process.cpuUsage(client0);
  for (const s of sockets) s.destroy();
  const perEvent = (seconds) => `${((seconds * 1000) / CHANGES).toFixed(1)} ms`;
  process.stdout.write(
    `floor — plain Node writing one ${eventBytes}-byte buffer to each of ${SUBSCRIBERS} sockets per event, at the same pace, read the same way:\n` +
      `  stamp→read ${fmt(sorted(commitAll, nAll))} (${nAll} of ${expected} read)\n` +
      `  its fan-out per event ${fmt(result.fanout.sort((a, b) => a - b))}\n` +
      `  CPU per event: writer ${perEvent(result.cpuSeconds)} (${perEvent(result.kernelSeconds)} in the kernel), this client ${perEvent((client.user + client.system) / 1e6)}; ` +
      `the app's server above: ${perEvent(serverCpu)} (${perEvent(serverKernelCpu)} in the kernel)\n`,
  );
}
process.exit(missing === 0 && duplicates === 0 ? 0 : 1);
