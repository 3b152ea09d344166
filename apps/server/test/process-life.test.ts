// The server process and its embedded PostgreSQL: a postmaster killed under load is
// restarted (or the server exits 1 saying why), a bug that escapes every handler stops PostgreSQL and
// exits 1, and a Ctrl-C to the terminal's process group drains requests in flight before the database
// stops. Each test runs src/server.ts as a child process on a DATA_DIR of its own.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importPKCS8, SignJWT } from 'jose';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const dirs: string[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

afterAll(async () => {
  for (const d of dirs) {
    // A failing run may leave a postmaster behind: ours to end (by pid), then the directory.
    for (const pid of postgresOf(d)) process.kill(Number(pid), 'SIGKILL');
    await chmod(path.join(d, 'pg'), 0o700).catch(() => {});
    await rm(d, { recursive: true, force: true });
  }
});

function postgresOf(dir: string): string[] {
  const r = spawnSync('pgrep', ['-f', `${dir}/pg`], { encoding: 'utf8' });
  return r.stdout.trim().split('\n').filter(Boolean);
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const addr = s.address() as net.AddressInfo;
      s.close(() => resolve(addr.port));
    });
  });
}

interface Running {
  child: ChildProcess;
  dir: string;
  port: number;
  base: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  dbUrl: () => Promise<string>;
}

/** Starts src/server.ts (or a fixture that imports it) on a fresh DATA_DIR; resolves once it is listening. */
async function startServer(opts: { entry?: string[]; detached?: boolean } = {}): Promise<Running> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hornada-life-'));
  await chmod(dir, 0o711);
  dirs.push(dir);
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    SEED_DEMO: 'off',
    RATE_LIMIT_WRITES: '0',
  };
  delete env.DATABASE_URL;
  delete env.NODE_ENV;
  const entry = opts.entry ?? [path.join(here, '../src/server.ts')];
  const child = spawn(process.execPath, ['--import', 'tsx', ...entry], {
    env,
    detached: opts.detached ?? false,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.on('exit', (code, signal) => r({ code, signal })),
  );
  // A bound for a hang only: on a busy machine a start (PostgreSQL included) has taken over 60 s.
  const until = Date.now() + 150_000;
  while (!out.includes('Hornada está lista')) {
    if (child.exitCode !== null || Date.now() > until) throw new Error(`the server did not start:\n${out}`);
    await sleep(50);
  }
  return {
    child,
    dir,
    port,
    base: `http://127.0.0.1:${port}`,
    output: () => out,
    exited,
    async dbUrl() {
      const m = /"port":(\d+)[^\n]*embedded PostgreSQL started/.exec(out);
      const password = (await readFile(path.join(dir, 'pg-password'), 'utf8')).trim();
      return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${m![1]}/hornada`;
    },
  };
}

async function withDb<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end().catch(() => {});
  }
}

/** A company with an admin, made directly in the database, and an id token for the admin. */
async function prepare(server: Running): Promise<{ token: string; brands: string }> {
  await withDb(await server.dbUrl(), async (c) => {
    const now = new Date();
    await c.query('INSERT INTO companies (id, name, created_at, updated_at) VALUES ($1, $2, $3, $3)', [
      'life',
      'Life',
      now,
    ]);
    await c.query('INSERT INTO settings (company_id, data, updated_at) VALUES ($1, $2, $3)', [
      'life',
      JSON.stringify({ marketName: 'Life', timeZone: 'America/Bogota' }),
      now,
    ]);
    await c.query(
      'INSERT INTO users (id, company_id, email, name, role, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)',
      ['life-admin', 'life', 'admin@life.test', 'Admin', 'company_admin', now],
    );
  });
  const key = await importPKCS8(readFileSync(path.join(server.dir, 'keys/jwt-private.pem'), 'utf8'), 'ES256');
  const token = await new SignJWT({ sub: 'life-admin' })
    .setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
    .setIssuer(`http://localhost:${server.port}`)
    .setAudience('hornada')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(key);
  return { token, brands: `${server.base}/api/companies/life/brands` };
}

function postmasterPid(dir: string): number {
  return Number(readFileSync(path.join(dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

/** Requests in a loop until stopped: the statuses answered, and how many got no answer at all. */
function load(url: string, init: RequestInit | (() => RequestInit) = {}, loops = 4) {
  const statuses: number[] = [];
  let failures = 0;
  let stop = false;
  const loop = async () => {
    while (!stop) {
      try {
        const r = await fetch(url, typeof init === 'function' ? init() : init);
        await r.arrayBuffer();
        statuses.push(r.status);
      } catch {
        failures++;
        await sleep(20);
      }
    }
  };
  const running = Promise.all(Array.from({ length: loops }, loop));
  return {
    statuses,
    failures: () => failures,
    async stop() {
      stop = true;
      await running;
    },
  };
}

describe('the server process and its embedded PostgreSQL', () => {
  it('restarts a PostgreSQL killed under load and serves again, with the data', async () => {
    const server = await startServer();
    const { token, brands } = await prepare(server);
    const auth = { authorization: `Bearer ${token}` };
    const health = load(`${server.base}/api/health`);
    const reads = load(brands, { headers: auth });
    // Writes too: a connection lost inside a transaction must fail that request, not the process.
    let n = 0;
    const writes = load(brands, () => ({
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Marca ${++n}` }),
    }));
    // Load is flowing before the kill (on a busy machine the first answers can take a while).
    const flowing = () => reads.statuses.includes(200) && writes.statuses.includes(201);
    for (const started = Date.now(); !flowing() && Date.now() - started < 10_000;) await sleep(50);
    expect(reads.statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
    expect(writes.statuses.filter((s) => s === 201).length).toBeGreaterThan(0);

    process.kill(postmasterPid(server.dir), 'SIGKILL');
    const killed = Date.now();
    const seenAfter = health.statuses.length;
    // Serves again: /api/health answers 200 (it reads the database) within 20 s of the kill.
    let back = false;
    while (!back && Date.now() - killed < 20_000) {
      await sleep(100);
      back = health.statuses.slice(seenAfter).some((s, i, a) => s === 200 && a.slice(i).every((x) => x === 200));
      back &&= health.statuses.length > seenAfter + 5;
    }
    await health.stop();
    await reads.stop();
    await writes.stop();
    expect(back, server.output().slice(-3000)).toBe(true);
    expect(server.child.exitCode).toBeNull();
    expect(server.output()).toMatch(/stopped unexpectedly \(killed by SIGKILL\); restarting it/);

    // Writes and reads go through as before the kill.
    const made = await fetch(brands, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Después del golpe' }),
    });
    expect(made.status, `${await made.clone().text()}\n${server.output().slice(-3000)}`).toBe(201);
    const list = (await (await fetch(brands, { headers: auth })).json()) as { data: { name: string }[] };
    expect(list.data.map((b) => b.name)).toContain('Después del golpe');

    server.child.kill('SIGTERM');
    expect(await server.exited, server.output().slice(-4000)).toEqual({ code: 0, signal: null });
    expect(postgresOf(server.dir)).toEqual([]);
  }, 300_000);

  it('exits 1 saying why when a killed PostgreSQL cannot be started again', async () => {
    const server = await startServer();
    const health = load(`${server.base}/api/health`);
    await sleep(300);
    // Its directory made unusable, then the postmaster killed: every restart fails.
    await chmod(path.join(server.dir, 'pg'), 0o000);
    process.kill(postmasterPid(server.dir), 'SIGKILL');
    const result = await Promise.race([server.exited, sleep(90_000).then(() => 'still running')]);
    await health.stop();
    await chmod(path.join(server.dir, 'pg'), 0o700);
    expect(result, server.output().slice(-3000)).toEqual({ code: 1, signal: null });
    expect(server.output()).toMatch(
      /Hornada se detiene: The embedded PostgreSQL in \S+ stopped unexpectedly \(killed by SIGKILL\) and could not be started again/,
    );
    expect(postgresOf(server.dir)).toEqual([]);
    await expect(readFile(path.join(server.dir, 'hornada.lock'))).rejects.toThrow();
  }, 300_000);

  it('on an uncaught exception or unhandled rejection: logs it, stops PostgreSQL, exits 1', async () => {
    for (const [how, said] of [
      ['exception', /Hornada se detiene: uncaught exception: fixture: an exception nobody catches/],
      ['rejection', /Hornada se detiene: unhandled rejection: fixture: a rejection nobody handles/],
    ] as const) {
      const server = await startServer({ entry: [path.join(here, 'fixtures/fail-server.ts'), how] });
      expect(postgresOf(server.dir).length).toBeGreaterThan(0);
      server.child.kill('SIGUSR2');
      // A bound for a hang only: on a busy machine stopping PostgreSQL alone has taken over 30 s.
      const result = await Promise.race([server.exited, sleep(90_000).then(() => 'still running')]);
      expect(result, server.output().slice(-3000)).toEqual({ code: 1, signal: null });
      expect(server.output()).toMatch(said);
      expect(server.output()).toMatch(/"level":60/); // logged as fatal, with the error
      expect(postgresOf(server.dir)).toEqual([]);
    }
  }, 300_000);

  it('on Ctrl-C to its process group, drains requests in flight before PostgreSQL stops', async () => {
    // Its own process group, as `npm start` in a terminal: the signal goes to the whole group.
    const server = await startServer({ detached: true });
    const { token, brands } = await prepare(server);
    const auth = { authorization: `Bearer ${token}` };
    const dbUrl = await server.dbUrl();
    // Requests held in flight: brands is locked, so every list waits in PostgreSQL. Each asks a page size of
    // its own: the signed-in read cache answers one query to reads of the same list that miss together.
    const locker = new pg.Client({ connectionString: dbUrl });
    locker.on('error', () => {});
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE brands IN ACCESS EXCLUSIVE MODE');
    const held = Array.from({ length: 6 }, (_, i) =>
      fetch(`${brands}?per_page=${20 + i}`, { headers: auth }).then(
        (r) => r.status,
        (err: Error) => `no answer: ${err.message}`,
      ),
    );
    const health = load(`${server.base}/api/health`, {}, 2);
    const waiting = async () =>
      withDb(dbUrl, async (c) => {
        const r = await c.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'");
        return (r.rows[0] as { n: number }).n;
      });
    const until = Date.now() + 15_000;
    while ((await waiting()) < 6 && Date.now() < until) await sleep(50);
    expect(await waiting()).toBe(6);

    process.kill(-server.child.pid!, 'SIGINT');
    await sleep(1_000);
    // Listening has stopped while the held requests are still waiting.
    await expect(fetch(`${server.base}/api/health`, { headers: { connection: 'close' } })).rejects.toThrow();
    await locker.query('COMMIT').catch(() => {});
    await locker.end().catch(() => {});
    expect(await Promise.all(held)).toEqual([200, 200, 200, 200, 200, 200]);
    const result = await Promise.race([server.exited, sleep(30_000).then(() => 'still running')]);
    await health.stop();
    expect(result, server.output().slice(-3000)).toEqual({ code: 0, signal: null });
    // Whatever was answered during the stop was a success; the rest found the connection closed.
    expect(health.statuses.filter((s) => s !== 200)).toEqual([]);
    expect(health.statuses.length).toBeGreaterThan(0);
    expect(postgresOf(server.dir)).toEqual([]);
  }, 300_000);
});
