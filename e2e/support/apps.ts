/**
 * The journeys run on E2E_WORKERS Playwright workers (2 by default: this machine has two cores), each against
 * an app of its own: its own port, its own embedded PostgreSQL seeded with the demo, its own stand-in Google
 * issuer. A worker keeps its parallel index for the whole run (a worker restarted after a failure takes the
 * same index), so one app serves one journey at a time, as when the suite ran on one worker, and what one
 * journey leaves behind is seen only by the journeys that happen to run after it on the same app.
 */
export const workers = Math.max(1, Number(process.env.E2E_WORKERS ?? 2) || 1);
const firstPort = Number(process.env.E2E_PORT ?? 3100);

/** The app of worker `index` (0-based) listens here. */
export function appPort(index: number): number {
  return firstPort + index;
}

/** The app of the worker this code runs in (TEST_PARALLEL_INDEX is set in Playwright's workers). */
export function ownAppPort(): number {
  return appPort(Number(process.env.TEST_PARALLEL_INDEX ?? 0));
}

// Ports fetch refuses to reach ("bad port", fetch standard), which port + 1000 can land on (3190 → 4190).
const FETCH_BAD_PORTS = new Set([4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697]);

/** The stand-in Google issuer beside app `index`: the app's port + 1000 (E2E_OIDC_PORT moves the first). */
export function oidcPort(index: number): number {
  const first = Number(process.env.E2E_OIDC_PORT ?? 0);
  if (first) return first + index;
  const port = appPort(index) + 1000;
  return FETCH_BAD_PORTS.has(port) ? port + 20 : port;
}

/** The origin of this worker's app, for a browser context a journey opens without the baseURL fixture. */
export function ownAppUrl(): string {
  return `http://127.0.0.1:${ownAppPort()}`;
}
