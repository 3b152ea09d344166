import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isAlive, startTicks, sleep } from './processes';
import { EmbeddedPgError, errCode } from './error';

/** The lock file of our own on DATA_DIR (docs/design.md §1): a second app refused, a killed app's lock taken over. */

interface Lock {
  pid: number;
  startedAt: string | null;
}

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
export async function takeLock(dataDir: string): Promise<{ file: string; content: string }> {
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
export async function releaseLock(lock: { file: string; content: string }): Promise<void> {
  const now = await readFile(lock.file, 'utf8').catch(() => null);
  if (now === lock.content) await rm(lock.file, { force: true });
}
