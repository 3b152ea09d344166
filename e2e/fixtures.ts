import { test as base, expect, type BrowserContext } from '@playwright/test';
import { appPort } from './support/apps';
import { clockOffsetMs, now } from './support/clock';

/**
 * What a test says it provokes: an HTTP status (Chromium logs "Failed to load resource: the server
 * responded with a status of 500 (…)" for each 4xx/5xx), or a substring or pattern of a console error.
 */
export type ExpectedConsoleError = number | string | RegExp;

function matches(expected: ExpectedConsoleError, text: string): boolean {
  if (typeof expected === 'number') return new RegExp(`status of ${expected}\\b`).test(text);
  if (typeof expected === 'string') return text.includes(expected);
  return expected.test(text);
}

/**
 * Every page fails its test on a console error or page error the test did not declare (docs/design.md §8:
 * Chromium logs each 4xx/5xx it receives, so a test lists the statuses it provokes):
 *
 *   test('…', async ({ page, expectConsoleErrors }) => { expectConsoleErrors(500); … });
 */
/** Each browser context's clock starts at the app's moved time when E2E_NOW is set (support/clock.ts). */
const clocked = new WeakSet<BrowserContext>();
async function moveClock(context: BrowserContext): Promise<void> {
  if (clockOffsetMs === 0 || clocked.has(context)) return;
  clocked.add(context);
  // The clock's stand-in for `performance` lists no resource entries, and the driver's app hands its service
  // worker the assets it loaded from that list (driver-app.tsx): keep the real lists for it.
  await context.addInitScript(() => {
    const real = performance;
    Object.defineProperty(window, '__resourceEntries', {
      value: {
        getEntries: real.getEntries.bind(real),
        getEntriesByName: real.getEntriesByName.bind(real),
        getEntriesByType: real.getEntriesByType.bind(real),
      },
    });
  });
  // Time then flows on naturally from there; timers run as usual.
  await context.clock.install({ time: now() });
  await context.addInitScript(() => {
    Object.assign(performance, (window as unknown as { __resourceEntries: object }).__resourceEntries);
  });
}

export const test = base.extend<
  { expectConsoleErrors: (...expected: ExpectedConsoleError[]) => void },
  { clockedBrowser: void }
>({
  // The worker's own app (support/apps.ts); contexts the journey opens itself take it too.
  // Playwright reads a fixture's dependencies from its first parameter's pattern: none here.
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use, testInfo) => {
    await use(`http://127.0.0.1:${appPort(testInfo.parallelIndex)}`);
  },
  // The contexts a journey opens itself (a phone, a tablet) as well as the default one.
  clockedBrowser: [
    async ({ browser }, use) => {
      if (clockOffsetMs !== 0) {
        const newContext = browser.newContext.bind(browser);
        browser.newContext = async (options) => {
          const context = await newContext(options);
          await moveClock(context);
          return context;
        };
      }
      await use();
    },
    { scope: 'worker', auto: true },
  ],
  context: async ({ context }, use) => {
    await moveClock(context);
    await use(context);
  },
  expectConsoleErrors: [
    async ({ page }, use) => {
      const allowed: ExpectedConsoleError[] = [];
      const unexpected: string[] = [];
      page.on('console', (msg) => {
        if (msg.type() !== 'error') return;
        const text = msg.text();
        if (allowed.some((e) => matches(e, text))) return;
        const where = msg.location().url;
        unexpected.push(where ? `${text} (${where})` : text);
      });
      page.on('pageerror', (err) => unexpected.push(`pageerror: ${err.message}`));
      await use((...expected) => allowed.push(...expected));
      expect(unexpected, 'console errors the test did not expect').toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };
