import { test as base, expect } from '@playwright/test';

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
 * Every page fails its test on a console error or page error the test did not declare (design §8:
 * Chromium logs each 4xx/5xx it receives, so a test lists the statuses it provokes):
 *
 *   test('…', async ({ page, expectConsoleErrors }) => { expectConsoleErrors(500); … });
 */
export const test = base.extend<{ expectConsoleErrors: (...expected: ExpectedConsoleError[]) => void }>({
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
