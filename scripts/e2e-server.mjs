// Starts the built server for Playwright: a fresh temporary DATA_DIR with the demo seeded, on
// PORT, bound to loopback. SIGTERM/SIGINT are passed on so the embedded PostgreSQL stops cleanly.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// E2E_DATA_DIR (set by e2e/playwright.config.ts): a known place, so a test can reach the app's database the
// way an injected clock would (e.g. to let a link expire); made anew for each run.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'hornada-e2e-'));
if (process.env.E2E_DATA_DIR) {
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
}
// mkdtemp makes it 0700; as root, PostgreSQL runs as "postgres" and must enter it.
chmodSync(dataDir, 0o711);
const port = process.env.PORT ?? '3100';
const child = spawn(process.execPath, [path.join(root, 'apps/server/dist/server.js')], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    SEED_DEMO: 'on',
    HOST: '127.0.0.1',
    PORT: port,
    // The origin the tests reach, so absolute links (canonical, og:image, the sitemap) are followable.
    PUBLIC_URL: process.env.PUBLIC_URL ?? `http://127.0.0.1:${port}`,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    // Every spec places its orders from 127.0.0.1, many with one phone: the bounds on unpaid web orders a
    // day (API-tested in orders-bounds.test.ts) would refuse them part-way through a run.
    CHECKOUT_UNPAID_PER_HOLDER: process.env.CHECKOUT_UNPAID_PER_HOLDER ?? '0',
    CHECKOUT_UNPAID_PER_PHONE: process.env.CHECKOUT_UNPAID_PER_PHONE ?? '0',
    CHECKOUT_UNPAID_PER_ADDRESS: process.env.CHECKOUT_UNPAID_PER_ADDRESS ?? '0',
    CHECKOUT_WINDOW_SHARE_PER_ADDRESS: process.env.CHECKOUT_WINDOW_SHARE_PER_ADDRESS ?? '0',
  },
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});
