// `npm run test:crash [-- --rounds N] [-- --server]`: N rounds (30 by default, CRASH_ROUNDS too) on one
// database while four writers insert, rename and delete brands through the API without pause. Each
// round SIGKILLs the PostgreSQL postmaster under the writers and times its recovery (until /api/health,
// which asks the database, answers again); every other round then SIGKILLs the Node process as well and
// starts it again on the same DATA_DIR.
//
// Embedded (default): the app's own PostgreSQL under DATA_DIR, which the server restarts itself.
// --server: a PostgreSQL cluster of the machine's own binaries (Debian's, /usr/lib/postgresql/N) in a
// temporary directory on a free port, given as DATABASE_URL; after each kill the test starts it again
// with pg_ctl, as a service manager would, and the app reconnects.
//
// Passes when every write the API confirmed (2xx) is there at the end as confirmed (a write whose answer
// was lost may or may not be); the change log, replayed, gives exactly the rows of the table (no write
// missing from it, no entry without its write); every recovery answers within 15 s; and no postgres
// process of the directory is left after a clean stop. Prints lost writes, the slowest recovery and the
// median.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  databaseUrlOf,
  freePort,
  insertUser,
  percentile,
  signToken,
  sleep,
  startServer,
  tempDir,
  waitHealthy,
  withDb,
} from './lib.mjs';

const { values: args } = parseArgs({
  options: { rounds: { type: 'string' }, server: { type: 'boolean', default: false } },
  allowPositionals: true,
});
const ROUNDS = Number(args.rounds ?? process.env.CRASH_ROUNDS ?? 30);
const SERVER = args.server;
const WRITERS = 4;
const RECOVERY_MS = 15_000;
const dataDir = tempDir('hornada-crash-');
const companyId = 'crash-co';
const uid = 'crash-admin';

// --- the PostgreSQL whose postmaster is killed -------------------------------------------------------

/** The machine's PostgreSQL binaries (Debian: /usr/lib/postgresql/<major>/bin), newest major first. */
function serverBin() {
  const majors = readdirSync('/usr/lib/postgresql')
    .filter((d) => /^\d+$/.test(d))
    .sort((a, b) => Number(b) - Number(a));
  if (majors.length === 0) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql');
  return `/usr/lib/postgresql/${majors[0]}/bin`;
}

/** Runs a PostgreSQL binary as the "postgres" user when root (the server refuses to run as root). */
function asPostgres(bin, argv) {
  const cmd = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', bin, ...argv]] : [bin, argv];
  return spawnSync(cmd[0], cmd[1], { encoding: 'utf8' });
}

/** Its directory (owned by "postgres" when root): the cluster, its log and its socket. */
const clusterHome = path.join(dataDir, 'server');
const cluster = { dir: path.join(clusterHome, 'data'), log: path.join(clusterHome, 'log'), port: 0, url: '' };

async function startCluster() {
  // A postmaster killed a moment ago leaves backends that still hold its shared memory: retry a while.
  for (let i = 0; i < 60; i++) {
    const r = asPostgres(`${serverBin()}/pg_ctl`, [
      '-D',
      cluster.dir,
      '-l',
      cluster.log,
      '-o',
      `-c listen_addresses=127.0.0.1 -p ${cluster.port} -c unix_socket_directories=${clusterHome} -c fsync=on`,
      '-w',
      '-t',
      '10',
      'start',
    ]);
    if (r.status === 0) return;
    await sleep(250);
  }
  throw new Error(`the PostgreSQL cluster would not start:\n${readFileSync(cluster.log, 'utf8').slice(-2000)}`);
}

async function initCluster() {
  cluster.port = await freePort();
  mkdirSync(clusterHome, { mode: 0o700 });
  if (process.getuid?.() === 0) {
    const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(clusterHome, id('-u'), id('-g'));
  }
  const r = asPostgres(`${serverBin()}/initdb`, ['-D', cluster.dir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  if (r.status !== 0) throw new Error(`initdb failed: ${r.stderr}`);
  await startCluster();
  cluster.url = `postgres://postgres@127.0.0.1:${cluster.port}/postgres`;
}

const pgDir = () => (SERVER ? cluster.dir : `${dataDir}/pg`);

function postgresOfDir() {
  try {
    return execFileSync('pgrep', ['-f', pgDir()], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

// --- the app -----------------------------------------------------------------------------------------

async function prepare(url) {
  await withDb(url, async (client) => {
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

const env = () => ({
  SEED_DEMO: 'off',
  RATE_LIMIT_WRITES: '0',
  ...(SERVER ? { DATABASE_URL: cluster.url } : {}),
});

/**
 * What the writers know of each brand: the state the API last confirmed, and the one write sent after
 * it whose answer was lost (applied or not: both are right). A writer never touches a brand again after
 * a lost answer, so at most one such write is pending on it.
 */
const model = new Map();
const problems = [];
const recoveries = [];
const counts = { inserts: 0, updates: 0, deletes: 0, unanswered: 0 };
let seq = 0;

function writer(ctx) {
  const mine = [];
  return (async () => {
    while (!ctx.stop) {
      const op = mine.length < 3 || Math.random() < 0.4 ? 'insert' : Math.random() < 0.75 ? 'update' : 'delete';
      const name = `w-${ctx.round}-${++seq}`;
      const id = op === 'insert' ? null : mine[Math.floor(Math.random() * mine.length)];
      const next = op === 'delete' ? { deleted: true } : { name };
      if (id) model.get(id).pending = next;
      const url = `http://127.0.0.1:${ctx.port}/api/companies/${companyId}/brands${id ? `/${id}` : ''}`;
      try {
        const r = await fetch(url, {
          method: op === 'insert' ? 'POST' : op === 'update' ? 'PATCH' : 'DELETE',
          headers: {
            authorization: `Bearer ${ctx.token}`,
            ...(op === 'delete' ? {} : { 'content-type': 'application/json' }),
          },
          body: op === 'delete' ? undefined : JSON.stringify({ name }),
        });
        const body = await r.text();
        if (r.ok) {
          if (op === 'insert') {
            const created = JSON.parse(body).data.id;
            model.set(created, { confirmed: next, pending: null });
            mine.push(created);
          } else {
            model.set(id, { confirmed: next, pending: null });
            if (op === 'delete') mine.splice(mine.indexOf(id), 1);
          }
          counts[`${op}s`] += 1;
        } else {
          if (id) mine.splice(mine.indexOf(id), 1);
          counts.unanswered += 1;
          // Refusals are expected only while PostgreSQL is down or recovering.
          if (!ctx.stop && !ctx.pgDown && r.status !== 503)
            problems.push(`round ${ctx.round}: ${op} answered ${r.status} ${body}`);
        }
      } catch {
        // The process was killed mid-request: never confirmed.
        if (id) mine.splice(mine.indexOf(id), 1);
        counts.unanswered += 1;
      }
    }
  })();
}

function postmasterPid() {
  return Number(readFileSync(path.join(pgDir(), 'postmaster.pid'), 'utf8').split('\n')[0]);
}

// --- the rounds ----------------------------------------------------------------------------------------

process.stdout.write(
  `crash test: ${ROUNDS} rounds, postmaster killed each round, ${SERVER ? `machine's PostgreSQL (${serverBin()})` : 'embedded PostgreSQL'}, on ${dataDir}\n`,
);
if (SERVER) await initCluster();
let server = null;
let port = 0;
for (let round = 1; round <= ROUNDS && problems.length === 0; round++) {
  if (!server) {
    port = await freePort();
    server = startServer({ port, dataDir, env: env() });
    if (!(await waitHealthy(port, RECOVERY_MS))) {
      problems.push(
        `round ${round}: /api/health did not answer within ${RECOVERY_MS} ms\n${server.output().slice(-3000)}`,
      );
      server.child.kill('SIGKILL');
      break;
    }
    if (round === 1) await prepare(databaseUrlOf(server, SERVER ? cluster.url : undefined));
  }
  const ctx = { round, port, token: await signToken(server, uid), stop: false, pgDown: false };
  const writers = Array.from({ length: WRITERS }, () => writer(ctx));
  await sleep(200 + Math.random() * 800);
  // The postmaster dies with inserts, updates and deletes in flight.
  ctx.pgDown = true;
  const killed = Date.now();
  process.kill(postmasterPid(), 'SIGKILL');
  if (SERVER) await startCluster();
  else await sleep(50);
  if (!(await waitHealthy(port, RECOVERY_MS))) {
    problems.push(
      `round ${round}: /api/health did not answer within ${RECOVERY_MS} ms of killing the postmaster\n${server.output().slice(-2000)}`,
    );
  } else {
    recoveries.push(Date.now() - killed);
    // Connections of the pool that died with the postmaster fail once each: then writes go through.
    await sleep(300);
    ctx.pgDown = false;
    await sleep(200 + Math.random() * 400);
  }
  if (round % 2 === 0 || round === ROUNDS) {
    server.child.kill('SIGKILL');
    await server.exited;
    server = null;
  }
  ctx.stop = true;
  await Promise.all(writers);
}
if (server) {
  server.child.kill('SIGKILL');
  await server.exited;
}

// --- the check: a clean start, then the table and the change log read directly -----------------------

let lost = 0;
let logProblems = 0;
let rows = 0;
const lastPort = await freePort();
const last = startServer({ port: lastPort, dataDir, env: env() });
if (await waitHealthy(lastPort, RECOVERY_MS)) {
  await withDb(databaseUrlOf(last, SERVER ? cluster.url : undefined), async (client) => {
    const table = new Map();
    for (const r of (await client.query('SELECT id, name, deleted_at FROM brands WHERE company_id = $1', [companyId]))
      .rows) {
      table.set(r.id, r.deleted_at ? { deleted: true } : { name: r.name });
    }
    rows = table.size;
    const same = (a, b) => !!a && !!b && (a.deleted ? b.deleted === true : !b.deleted && a.name === b.name);
    for (const [id, m] of model) {
      const actual = table.get(id);
      if (!same(actual, m.confirmed) && !same(actual, m.pending)) {
        lost += 1;
        if (lost <= 5)
          problems.push(
            `brand ${id}: confirmed ${JSON.stringify(m.confirmed)}, found ${JSON.stringify(actual ?? null)}`,
          );
      }
    }
    // The change log replayed in order must give the table: every write logged, every entry written.
    const replay = new Map();
    const log = await client.query(
      "SELECT position, changes FROM change_log WHERE company_id = $1 AND resource = 'brands' ORDER BY position",
      [companyId],
    );
    for (const { changes } of log.rows) {
      for (const c of changes) replay.set(c.doc.id, c.type === 'removed' ? { deleted: true } : { name: c.doc.name });
    }
    for (const [id, state] of table) {
      if (!same(replay.get(id), state)) {
        logProblems += 1;
        if (logProblems <= 5)
          problems.push(
            `change log: brand ${id} is ${JSON.stringify(state)}, the log says ${JSON.stringify(replay.get(id) ?? null)}`,
          );
      }
    }
    for (const id of replay.keys()) {
      if (!table.has(id)) {
        logProblems += 1;
        if (logProblems <= 5) problems.push(`change log: brand ${id} logged but not in the table`);
      }
    }
  });
} else {
  problems.push(`final start: /api/health did not answer within ${RECOVERY_MS} ms`);
}
last.child.kill('SIGTERM');
const exit = await last.exited;
if (exit.code !== 0) problems.push(`clean stop exited with ${JSON.stringify(exit)}\n${last.output().slice(-2000)}`);
if (SERVER) asPostgres(`${serverBin()}/pg_ctl`, ['-D', cluster.dir, '-m', 'fast', '-w', 'stop']);
await sleep(500);
const leftovers = postgresOfDir();
if (leftovers.length > 0) problems.push(`postgres processes left after the clean stop: ${leftovers.join(', ')}`);

recoveries.sort((a, b) => a - b);
const confirmedWrites = counts.inserts + counts.updates + counts.deletes;
process.stdout.write(
  `rounds: ${recoveries.length}/${ROUNDS} postmaster kills, ${Math.ceil(ROUNDS / 2)} app kills\n` +
    `confirmed writes: ${confirmedWrites} (${counts.inserts} inserts, ${counts.updates} updates, ${counts.deletes} deletes), ` +
    `unanswered or refused: ${counts.unanswered}; brands in the table: ${rows}\n` +
    `lost writes: ${lost}\n` +
    `change log: ${logProblems === 0 ? 'whole (replayed, it gives the table exactly)' : `${logProblems} disagreements`}\n` +
    `recovery after killing the postmaster (to /api/health answering): median ${percentile(recoveries, 50)} ms, max ${recoveries.at(-1) ?? 0} ms\n`,
);
for (const p of problems) process.stdout.write(`problem: ${p}\n`);
const pass =
  problems.length === 0 && lost === 0 && logProblems === 0 && recoveries.length === ROUNDS && confirmedWrites > 0;
rmSync(dataDir, { recursive: true, force: true });
if (process.env.RESULTS_FILE) {
  writeFileSync(process.env.RESULTS_FILE, JSON.stringify({ passed: pass ? 1 : 0, failed: pass ? 0 : 1, skipped: 0 }));
}
process.stdout.write(`${pass ? 1 : 0} passed, ${pass ? 0 : 1} failed\n`);
process.exit(pass ? 0 : 1);
