// `npm run test:crash`: 30 rounds of start → continuous writes through the API → SIGKILL of the Node
// process at a random moment → start again, on one DATA_DIR with the embedded PostgreSQL. Every third
// round first kills the postmaster under the writers: the server must restart it and answer
// /api/health again within 10 s (writes refused meanwhile are not confirmed, so not counted).
// Passes when every write the API confirmed (2xx) is there at the end, every restart answers
// /api/health within 10 s, and no postgres process of that directory is left after a clean stop.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import {
  databaseUrlOf,
  freePort,
  insertUser,
  signToken,
  sleep,
  startServer,
  tempDir,
  waitHealthy,
  withDb,
} from './lib.mjs';

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 30);
const WRITERS = 4;
const dataDir = tempDir('hornada-crash-');
const companyId = 'crash-co';
const uid = 'crash-admin';

function postgresOfDir() {
  try {
    return execFileSync('pgrep', ['-f', `${dataDir}/pg`], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean);
  } catch {
    return [];
  }
}

async function prepare(server) {
  await withDb(databaseUrlOf(server), async (client) => {
    const now = new Date();
    await client.query('INSERT INTO companies (id, name, created_at, updated_at) VALUES ($1, $2, $3, $3)', [
      companyId,
      'Crash',
      now,
    ]);
    await client.query('INSERT INTO settings (company_id, data, updated_at) VALUES ($1, $2, $3)', [
      companyId,
      JSON.stringify({ marketName: 'Crash', timeZone: 'America/Bogota' }),
      now,
    ]);
    await insertUser(client, { uid, companyId });
  });
}

const confirmed = new Set();
const healthTimes = [];
const pgRestarts = [];
const problems = [];
let seq = 0;

process.stdout.write(`crash test: ${ROUNDS} rounds on ${dataDir}\n`);
for (let round = 1; round <= ROUNDS; round++) {
  const port = await freePort();
  const started = Date.now();
  const server = startServer({ port, dataDir, env: { SEED_DEMO: 'off', RATE_LIMIT_WRITES: '0' } });
  if (!(await waitHealthy(port, 10_000))) {
    problems.push(`round ${round}: /api/health did not answer within 10 s\n${server.output().slice(-3000)}`);
    server.child.kill('SIGKILL');
    break;
  }
  healthTimes.push(Date.now() - started);
  if (round === 1) await prepare(server);
  const token = await signToken(server, uid);

  let stop = false;
  let pgDown = false;
  const writer = async () => {
    while (!stop) {
      const name = `w-${round}-${++seq}`;
      try {
        const r = await fetch(`http://127.0.0.1:${port}/api/companies/${companyId}/brands`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ name }),
        });
        if (r.status === 201) confirmed.add((await r.json()).data.id);
        else if (!stop && !pgDown) problems.push(`round ${round}: write answered ${r.status} ${await r.text()}`);
      } catch {
        // The process was killed mid-request: that write was never confirmed.
      }
    }
  };
  const writers = Array.from({ length: WRITERS }, writer);
  await sleep(200 + Math.random() * 1300);
  if (round % 3 === 0) {
    // The postmaster dies under the writers; the server restarts it and writes go through again.
    pgDown = true;
    const pid = Number(readFileSync(`${dataDir}/pg/postmaster.pid`, 'utf8').split('\n')[0]);
    const killed = Date.now();
    process.kill(pid, 'SIGKILL');
    await sleep(100);
    if (!(await waitHealthy(port, 10_000))) {
      problems.push(`round ${round}: /api/health did not answer within 10 s of killing the postmaster`);
    } else {
      pgRestarts.push(Date.now() - killed);
      await sleep(300);
      pgDown = false;
      await sleep(200 + Math.random() * 500);
    }
  }
  server.child.kill('SIGKILL');
  await server.exited;
  stop = true;
  await Promise.all(writers);
  if (problems.length > 0) break;
}

// Final start: read everything back through the API, then stop cleanly.
let lost = 0;
const port = await freePort();
const last = startServer({ port, dataDir, env: { SEED_DEMO: 'off', RATE_LIMIT_WRITES: '0' } });
if (await waitHealthy(port, 10_000)) {
  const token = await signToken(last, uid);
  const present = new Set();
  for (let page = 1; ; page++) {
    const r = await fetch(`http://127.0.0.1:${port}/api/companies/${companyId}/brands?per_page=1000&page=${page}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = await r.json();
    for (const b of body.data) present.add(b.id);
    if (page * 1000 >= body.total) break;
  }
  for (const id of confirmed) if (!present.has(id)) lost++;
} else {
  problems.push('final start: /api/health did not answer within 10 s');
}
last.child.kill('SIGTERM');
const exit = await last.exited;
if (exit.code !== 0) problems.push(`clean stop exited with ${JSON.stringify(exit)}\n${last.output().slice(-2000)}`);
await sleep(500);
const leftovers = postgresOfDir();
if (leftovers.length > 0) problems.push(`postgres processes left after the clean stop: ${leftovers.join(', ')}`);

healthTimes.sort((a, b) => a - b);
const median = healthTimes[Math.floor(healthTimes.length / 2)] ?? 0;
process.stdout.write(
  `rounds: ${healthTimes.length}/${ROUNDS}, confirmed writes: ${confirmed.size}, lost writes: ${lost}\n` +
    `restart to healthy: median ${median} ms, max ${healthTimes.at(-1) ?? 0} ms\n` +
    `postmaster killed under load: ${pgRestarts.length} times, healthy again after max ${Math.max(0, ...pgRestarts)} ms\n`,
);
for (const p of problems) process.stdout.write(`problem: ${p}\n`);
const pass = problems.length === 0 && lost === 0 && healthTimes.length === ROUNDS && confirmed.size > 0;
rmSync(dataDir, { recursive: true, force: true });
if (process.env.RESULTS_FILE) {
  writeFileSync(process.env.RESULTS_FILE, JSON.stringify({ passed: pass ? 1 : 0, failed: pass ? 0 : 1, skipped: 0 }));
}
process.stdout.write(`${pass ? 1 : 0} passed, ${pass ? 0 : 1} failed\n`);
process.exit(pass ? 0 : 1);
