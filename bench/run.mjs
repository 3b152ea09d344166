// `npm run bench`: builds if stale, then runs every benchmark in turn. Each prints ratios against a
// baseline measured in the same run (this machine is noisy; absolute times mean little). A failing
// benchmark does not hide the others' figures; the run exits non-zero if any failed.
// BENCH_SKIP_PG15=1 lets bench:api leave out an unreachable PostgreSQL 15.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const benches = [
  'api.mjs',
  'live.mjs',
  'auth.mjs',
  'orders.mjs',
  'orders-proxy.mjs',
  'production.mjs',
  'reports.mjs',
  'web.mjs',
];
const built =
  spawnSync('node', [path.join(root, 'scripts/build.mjs'), '--if-stale'], { stdio: 'inherit' }).status === 0;
if (!built) process.exit(1);
const failed = benches.filter(
  (b) => spawnSync('node', [path.join(root, 'bench', b)], { stdio: 'inherit', cwd: root }).status !== 0,
);
if (failed.length > 0) process.stdout.write(`failed: ${failed.join(', ')}\n`);
process.exit(failed.length === 0 ? 0 : 1);
