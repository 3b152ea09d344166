// Shared by the benchmarks and the crash test: start the built server as a child process, find its
// database, and sign an id token for a user made directly in that database. Loopback only.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importPKCS8, SignJWT } from 'jose';
import pg from 'pg';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A temporary DATA_DIR the "postgres" user can enter (mkdtemp makes it 0700). */
export function tempDir(prefix) {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  chmodSync(dir, 0o711);
  return dir;
}

export function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

export async function waitHealthy(port, ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return true;
    } catch {
      /* not up yet */
    }
    await sleep(25);
  }
  return false;
}

/**
 * Starts apps/server/dist/server.js. `dataDir` defaults to a new temporary directory (removed by
 * stop()); `env` adds variables (DATABASE_URL '' means the embedded PostgreSQL).
 */
/** Node flags for the server under test, e.g. BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' to profile it. */
const serverNodeArgs = () => (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);

export function startServer({ port, dataDir, env = {} }) {
  const ownDir = !dataDir;
  const dir = dataDir ?? tempDir('hornada-bench-');
  const child = spawn(process.execPath, [...serverNodeArgs(), path.join(root, 'apps/server/dist/server.js')], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise((r) => child.on('exit', (code, signal) => r({ code, signal })));
  return {
    child,
    exited,
    dataDir: dir,
    port,
    output: () => out,
    async stop() {
      child.kill('SIGTERM');
      const result = await exited;
      if (ownDir) rmSync(dir, { recursive: true, force: true });
      return result;
    },
  };
}

/** The database the server uses: DATABASE_URL, or the embedded one whose port it logged. */
export function databaseUrlOf(server, databaseUrl) {
  if (databaseUrl) return databaseUrl;
  const m = /"port":(\d+)[^\n]*embedded PostgreSQL started/.exec(server.output());
  if (!m) throw new Error(`no embedded port in the log:\n${server.output()}`);
  const password = readFileSync(path.join(server.dataDir, 'pg-password'), 'utf8').trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${m[1]}/hornada`;
}

/** The machine's PostgreSQL (trust auth), where scratch databases are made unless DATABASE_URL names another. */
export const MACHINE_PG = 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * A new empty database on the server of `serverUrl`: its URL, and drop() (connections to it are ended).
 * Throws when the server cannot be reached.
 */
export async function scratchDatabase(serverUrl, prefix) {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await withDb(serverUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withDb(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).catch(() => {}),
  };
}

/** Runs SQL on the server's database. */
export async function withDb(url, fn) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Makes a user row directly (sign-in is not needed to measure the API). */
export async function insertUser(client, { uid, companyId, role = 'company_admin' }) {
  const now = new Date();
  await client.query(
    'INSERT INTO users (id, company_id, email, name, role, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (id) DO NOTHING',
    [uid, companyId, `${uid}@bench.test`, uid, role, now],
  );
}

/** An id token for `uid`, signed with the server's development key; issuer follows the port. */
export async function signToken(server, uid) {
  const key = await importPKCS8(readFileSync(path.join(server.dataDir, 'keys/jwt-private.pem'), 'utf8'), 'ES256');
  return new SignJWT({ sub: uid })
    .setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
    .setIssuer(`http://localhost:${server.port}`)
    .setAudience('hornada')
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(key);
}

/** Resident memory of a process, in bytes (Linux). */
export function rssOf(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

/**
 * Every process's parent and CPU ticks (Linux): user, system, and what it has reaped of its children
 * (a child that ended is counted there once its parent waited for it).
 */
function processStats() {
  const stats = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Fields after the command name (which may hold spaces): state ppid … utime(14) stime(15) cutime cstime.
      const raw = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const f = raw.slice(raw.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(entry), {
        ppid: Number(f[1]),
        user: Number(f[11]),
        system: Number(f[12]),
        reaped: Number(f[13]) + Number(f[14]),
      });
    } catch {
      // The process ended meanwhile.
    }
  }
  return stats;
}

/** Whether `p` is `pid` or below it. */
const inTree = (stats, pid, p) => {
  for (let x = p, hops = 0; x > 1 && hops < 64; x = stats.get(x)?.ppid ?? 0, hops++) if (x === pid) return true;
  return false;
};

/**
 * CPU seconds (user + system) used so far by a process and its descendants still running (Linux): the
 * server and its embedded PostgreSQL. A figure that holds on a busy machine, where rates do not.
 */
export function cpuSecondsOf(pid) {
  const stats = processStats();
  let ticks = 0;
  for (const [p, s] of stats) if (inTree(stats, pid, p)) ticks += s.user + s.system;
  return ticks / 100; // USER_HZ is 100 on Linux
}

/**
 * CPU seconds of a process alone (`own`, `kernel` the system part of it) and of every process below it
 * (`below`: the embedded PostgreSQL), counting what those have reaped of their own children, so the figure
 * does not drop when a backend ends.
 */
export function cpuSplitOf(pid) {
  const stats = processStats();
  let below = 0;
  for (const [p, s] of stats) if (p !== pid && inTree(stats, pid, p)) below += s.user + s.system + s.reaped;
  const own = stats.get(pid);
  return { own: own ? (own.user + own.system) / 100 : 0, kernel: own ? own.system / 100 : 0, below: below / 100 };
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** The demo bakery's id and its admin's bearer header (a server started with SEED_DEMO=on). */
export async function demoAdmin(base) {
  const json = async (res) => {
    const body = await res.json();
    if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(body)}`);
    return body;
  };
  const companyId = (await json(await fetch(`${base}/api/config`))).data.companyId;
  const signIn = await json(
    await fetch(`${base}/api/identity/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@hornada.test', password: 'hornada-demo' }),
    }),
  );
  return { companyId, headers: { authorization: `Bearer ${signIn.data.idToken}` } };
}

/**
 * The demo bakery ready for a load of checkouts (a server started with SEED_DEMO=on): its admin signed
 * in, the delivery windows' capacity lifted (the demo's hold 20–25 orders; a bench places thousands),
 * the first delivery day and the products.
 */
export async function demoShop(base) {
  const json = async (res) => {
    const body = await res.json();
    if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(body)}`);
    return body;
  };
  const { companyId, headers } = await demoAdmin(base);
  const admin = { ...headers, 'content-type': 'application/json' };
  const api = `${base}/api/companies/${companyId}`;
  const settings = (await json(await fetch(`${api}/settings`, { headers: admin }))).data;
  await json(
    await fetch(`${api}/settings`, {
      method: 'PATCH',
      headers: admin,
      body: JSON.stringify({ deliveryWindows: settings.deliveryWindows.map((w) => ({ ...w, capacity: null })) }),
    }),
  );
  const [day] = (await json(await fetch(`${api}/delivery-days?days=7`))).data;
  const products = (await json(await fetch(`${api}/products?per_page=50`))).data;
  return { companyId, admin, api, settings, day, products, json };
}

/** A guest's checkout body: cash, delivered on `day`'s first window. */
export function cashCheckout(day) {
  return JSON.stringify({
    contact: { name: 'Cliente de prueba', phone: '300 000 0000' },
    fulfillment: 'delivery',
    address: { line: 'Calle 45 # 13-20', city: 'Bogotá' },
    dueDate: day.date,
    window: day.windows[0].id,
    paymentMethod: 'cash',
  });
}
