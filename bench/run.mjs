// `npm run bench [-- name ...]`: builds if stale, then runs every benchmark in turn (or the ones named,
// e.g. `npm run bench -- api live orders-proxy` for the scale figures). Each prints ratios against a
// baseline measured in the same run (this machine is noisy; absolute times mean little), and the run ends
// with every benchmark's goal and ratio lines side by side. A failing benchmark does not hide the others'
// figures; the run exits non-zero if any failed.
// BENCH_SKIP_PG15=1 lets bench:api leave out an unreachable PostgreSQL 15.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const all = [
  'api',
  'live',
  'auth',
  'orders',
  'orders-proxy',
  'production',
  'reports',
  'web',
  'hostile-bodies',
  'bulk-updates',
];
const named = process.argv.slice(2);
const unknown = named.filter((n) => !all.includes(n));
if (unknown.length > 0) {
  process.stderr.write(`unknown benchmark: ${unknown.join(', ')} (there are: ${all.join(', ')})\n`);
  process.exit(2);
}
const benches = named.length > 0 ? named : all;
/** The lines a summary repeats: a goal check or a ratio, as each benchmark prints them. */
const SUMMARY = /^\s*(goals?\b|ratio\b)/;

const built =
  spawnSync('node', [path.join(root, 'scripts/build.mjs'), '--if-stale'], { stdio: 'inherit' }).status === 0;
if (!built) process.exit(1);

/** Runs one benchmark, its output passed through as it comes; resolves with its exit code and summary lines. */
function runOne(name) {
  return new Promise((resolve) => {
    const child = spawn('node', [path.join(root, 'bench', `${name}.mjs`)], {
      cwd: root,
      stdio: ['inherit', 'pipe', 'inherit'],
    });
    const lines = [];
    let rest = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text) => {
      process.stdout.write(text);
      const parts = (rest + text).split('\n');
      rest = parts.pop() ?? '';
      for (const l of parts) if (SUMMARY.test(l)) lines.push(l.trim());
    });
    child.on('close', (code) => {
      if (SUMMARY.test(rest)) lines.push(rest.trim());
      resolve({ code, lines });
    });
  });
}

const results = [];
for (const name of benches) results.push({ name, ...(await runOne(name)) });
const width = Math.max(...benches.map((b) => b.length));
process.stdout.write(`\nsummary (${new Date().toISOString()}, one run):\n`);
for (const r of results) {
  const lines = r.lines.length > 0 ? r.lines : [r.code === 0 ? 'no goal line' : ''];
  for (const [i, l] of lines.entries())
    process.stdout.write(
      `  ${(i === 0 ? r.name : '').padEnd(width)}  ${l}${i === 0 && r.code !== 0 ? ' [failed]' : ''}\n`,
    );
}
const failed = results.filter((r) => r.code !== 0).map((r) => r.name);
if (failed.length > 0) process.stdout.write(`failed: ${failed.join(', ')}\n`);
process.exit(failed.length === 0 ? 0 : 1);
