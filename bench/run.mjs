// `npm run bench`: builds if stale, then runs every benchmark in turn. Each prints ratios against a
// baseline measured in the same run (this machine is noisy; absolute times mean little).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const benches = ['api.mjs', 'live.mjs', 'auth.mjs'];
let ok = spawnSync('node', [path.join(root, 'scripts/build.mjs'), '--if-stale'], { stdio: 'inherit' }).status === 0;
for (const b of benches) {
  if (!ok) break;
  ok = spawnSync('node', [path.join(root, 'bench', b)], { stdio: 'inherit', cwd: root }).status === 0;
}
process.exit(ok ? 0 : 1);
