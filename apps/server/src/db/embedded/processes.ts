import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The postmaster as a process (docs/design.md §1): alive or a zombie, its start time, a leftover stopped. */

export function isAlive(pid: number): boolean {
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
export function startTicks(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
export async function stopLeftover(pgDir: string, log: (m: string) => void): Promise<void> {
  const pid = postmasterPid(pgDir);
  if (!pid || !isAlive(pid) || !isOurPostmaster(pid, pgDir)) return;
  log(`stopping a PostgreSQL left running by a previous server (pid ${pid})`);
  process.kill(pid, 'SIGINT');
  if (await waitGone(pid, 10_000)) return;
  process.kill(pid, 'SIGKILL');
  await waitGone(pid, 5_000);
}
