import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { appPort, oidcPort, workers } from './support/apps';
import { offsetFor } from './support/clock';
import { e2eDataDir } from './support/database';

/**
 * Playwright in Debian's Chromium (never a downloaded browser). Each worker has an app of its own
 * (support/apps.ts: E2E_WORKERS of them, on E2E_PORT, E2E_PORT + 1, …; 3100 by default), run from the
 * build with the demo seeded in a fresh temporary DATA_DIR: `node scripts/e2e-server.mjs` from the
 * repository root; ready when GET /api/health answers 2xx; stopped with SIGTERM (it must pass that on so
 * the embedded PostgreSQL stops cleanly).
 *
 * Without /usr/bin/chromium the suite is left out with a printed reason (one skipped placeholder, no
 * server started), unless REQUIRE_E2E=1 makes that a failure (docs/design.md §8).
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const chromium = '/usr/bin/chromium';
/**
 * Debian's old headless shell (package chromium-headless-shell, the same engine without the browser's UI
 * layer), when installed: a quarter less time for the same pages and screenshots, measured here side by side
 * (12.4 s against 16.9 s for twelve page loads and full-page screenshots). Chromium itself otherwise.
 */
const headlessShell = '/usr/bin/chromium-headless-shell';
const browser = existsSync(headlessShell) ? headlessShell : chromium;
const hasChromium = existsSync(browser);
/**
 * Google sign-in against a local OpenID Connect issuer (support/oidc-issuer.ts), started beside each app on
 * 127.0.0.1 (support/apps.ts: the app's port + 1000 by default); the app gets the GOOGLE_* variables.
 */
function googleEnv(index: number) {
  return {
    GOOGLE_OIDC_ISSUER: `http://127.0.0.1:${oidcPort(index)}`,
    GOOGLE_CLIENT_ID: 'hornada-e2e',
    GOOGLE_CLIENT_SECRET: 'hornada-e2e-secret-0123456789abcdef',
  };
}

// E2E_NOW: the suite as if it were another day and hour (support/clock.ts). Computed once, in the runner; the
// workers (which load this file again) and the app inherit it.
if (process.env.HORNADA_CLOCK_OFFSET_MS === undefined) {
  const offset = offsetFor(process.env.E2E_NOW);
  if (offset !== null) {
    process.env.HORNADA_CLOCK_OFFSET_MS = String(offset);
    console.log(`e2e: as if it were ${new Date(Date.now() + offset).toISOString()} (E2E_NOW=${process.env.E2E_NOW})`);
  }
}
const clockEnv: Record<string, string> = process.env.HORNADA_CLOCK_OFFSET_MS
  ? { HORNADA_CLOCK_OFFSET_MS: process.env.HORNADA_CLOCK_OFFSET_MS }
  : {};

if (!hasChromium) {
  if (process.env.REQUIRE_E2E === '1')
    throw new Error(`e2e: ${chromium} is missing and REQUIRE_E2E=1 (apt-get install -y chromium)`);
  // The config loads again in each worker: say it once.
  if (!process.env.TEST_WORKER_INDEX)
    console.log(`e2e skipped: ${chromium} not installed (apt-get install -y chromium)`);
}

export default defineConfig({
  testDir: here,
  // "No tests found" would exit 1: without a browser, run a placeholder that skips with the reason.
  testMatch: hasChromium ? '**/*.spec.ts' : 'chromium-missing.ts',
  outputDir: path.join(here, 'test-results'),
  // One worker per app (support/apps.ts): each journey file runs on one worker against that worker's app.
  workers,
  // In CI one retry: a journey that fails twice fails the run; one that passes on its retry is reported as
  // flaky in the list (a two-core machine under the whole suite misses a 30 s budget now and then).
  retries: process.env.CI ? 1 : 0,
  // CI's machine may be slower than a developer's: budgets there are wider (a journey that waits for what
  // never comes fails all the same, later), since a journey passing only on its retry fails the run.
  timeout: process.env.CI ? 45_000 : 30_000,
  expect: { timeout: process.env.CI ? 10_000 : 5_000 },
  reporter: 'list',
  use: {
    // Each worker's own app: fixtures.ts sets baseURL from the worker's parallel index.
    baseURL: `http://127.0.0.1:${appPort(0)}`,
    locale: 'es-CO',
    timezoneId: 'America/Bogota',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: browser,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium' }],
  webServer: hasChromium ? Array.from({ length: workers }, (_, i) => appServers(i)).flat() : undefined,
});

/** The app of worker `index` and its stand-in Google issuer. */
function appServers(index: number) {
  const port = appPort(index);
  const google = googleEnv(index);
  return [
    {
      command: 'node --import tsx e2e/support/oidc-issuer.ts',
      cwd: root,
      env: { OIDC_PORT: String(oidcPort(index)), APP_URL: `http://127.0.0.1:${port}`, ...google },
      url: `${google.GOOGLE_OIDC_ISSUER}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
    },
    {
      command: 'node scripts/e2e-server.mjs',
      cwd: root,
      // Every journey signs in from 127.0.0.1: past a hundred of them in the sign-in window, the
      // per-address limit (100 by default, a real person's bound) refused the suite itself. So with
      // registering: the journeys that open a bakery of their own each register people (20 an hour by
      // default; the suite's 21st was refused). The limits themselves are API-tested.
      env: {
        PORT: String(port),
        E2E_DATA_DIR: e2eDataDir(port),
        RATE_LIMIT_SIGNIN_ADDRESS: '1000',
        RATE_LIMIT_REGISTER_ADDRESS: '1000',
        RATE_LIMIT_RECOVERY_ADDRESS: '1000',
        ...google,
        ...clockEnv,
      },
      url: `http://127.0.0.1:${port}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      // The embedded PostgreSQL must stop with the server, not be orphaned by a SIGKILL.
      gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 15_000 },
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
    },
  ];
}
