import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { closingLines, parseFlakyList, playwrightTotals, unlistedFlaky, vitestTotals } from './test-results.mjs';

/** A Playwright JSON report as the json reporter writes it: one spec passed, one flaky, one failed. */
const report = {
  stats: { expected: 1, flaky: 1, unexpected: 1, skipped: 0 },
  suites: [
    {
      title: 'delivery.spec.ts',
      specs: [],
      suites: [
        {
          title: 'delivery',
          specs: [
            {
              file: 'delivery.spec.ts',
              line: 98,
              title: 'the office routes three orders',
              tests: [{ status: 'expected' }],
            },
            {
              file: 'delivery.spec.ts',
              line: 312,
              title: 'two drivers on one phone',
              tests: [{ status: 'flaky', results: [{ error: { message: 'Error: timed out\nat x' } }, {}] }],
            },
            {
              file: 'delivery.spec.ts',
              line: 400,
              title: 'a journey that fails',
              tests: [
                {
                  status: 'unexpected',
                  results: [
                    { error: { message: 'first try' } },
                    {
                      error: {
                        message: '\u001b[31mError: expect(locator).toBeVisible() failed\u001b[39m\n\nLocator: x',
                      },
                    },
                  ],
                },
              ],
            },
          ],
        },
      ],
    },
  ],
};

describe('npm test’s count', () => {
  it('counts a journey that passed on its retry as flaky, apart from passed, and names it', () => {
    const t = playwrightTotals(report);
    expect(t).toEqual({
      passed: 1,
      flaky: 1,
      failed: 1,
      skipped: 0,
      flakyTests: ['delivery.spec.ts:312 two drivers on one phone'],
      flakyWhy: {
        'delivery.spec.ts:312 two drivers on one phone':
          'delivery.spec.ts:312 two drivers on one phone: Error: timed out',
      },
      failedTests: ['delivery.spec.ts:400 a journey that fails: Error: expect(locator).toBeVisible() failed'],
    });
    expect(closingLines(t)).toEqual([
      'flaky (passed on its retry): delivery.spec.ts:312 two drivers on one phone',
      'failed: delivery.spec.ts:400 a journey that fails: Error: expect(locator).toBeVisible() failed',
      '1 passed, 1 flaky, 1 failed',
    ]);
  });

  it('counts a Vitest file that failed to load once, and says skipped only when some were', () => {
    const t = vitestTotals({
      numPassedTests: 10,
      numFailedTests: 1,
      numPendingTests: 2,
      numTodoTests: 0,
      testResults: [
        {
          name: '/work/x/apps/server/test/a.test.ts',
          status: 'failed',
          message: 'Cannot find module',
          assertionResults: [],
        },
        {
          name: '/work/x/apps/server/test/b.test.ts',
          status: 'failed',
          assertionResults: [
            { status: 'failed', fullName: 'b works', failureMessages: ['AssertionError: 1 !== 2\n at'] },
          ],
        },
        { name: '/work/x/packages/domain/src/c.test.ts', status: 'passed', assertionResults: [{ status: 'passed' }] },
      ],
    });
    expect(t).toMatchObject({ passed: 10, flaky: 0, failed: 2, skipped: 2 });
    const named = [
      'failed: apps/server/test/a.test.ts (the file itself): Cannot find module',
      'failed: apps/server/test/b.test.ts > b works: AssertionError: 1 !== 2',
    ];
    expect(closingLines(t)).toEqual([...named, '10 passed, 0 flaky, 2 failed, 2 skipped']);
    expect(closingLines({ ...t, skipped: 0 })).toEqual([...named, '10 passed, 0 flaky, 2 failed']);
  });

  it('lets a flaky journey pass CI only when e2e/flaky.json lists it (by file and title, whatever its line)', () => {
    const flaky = ['delivery.spec.ts:312 two drivers on one phone', 'cart.spec.ts:40 the cart keeps its lines'];
    const allowed = [{ journey: 'delivery.spec.ts two drivers on one phone', reason: 'a reason' }];
    expect(unlistedFlaky(flaky, allowed)).toEqual(['cart.spec.ts:40 the cart keeps its lines']);
    expect(unlistedFlaky(flaky, [])).toEqual(flaky);
    expect(() => parseFlakyList('{"journeys":[{"journey":"x.spec.ts y"}]}')).toThrow(/reason/);
    expect(() => parseFlakyList('{"journeys":[{"journey":"x.spec.ts y","reason":" "}]}')).toThrow(/reason/);
  });

  it('lists in e2e/flaky.json only journeys that exist, each with its reason', () => {
    const list = parseFlakyList(readFileSync(new URL('../e2e/flaky.json', import.meta.url), 'utf8'));
    for (const { journey } of list) {
      const [file, ...title] = journey.split(' ');
      const source = readFileSync(new URL(`../e2e/${file}`, import.meta.url), 'utf8');
      expect(source, journey).toContain(title.join(' '));
    }
  });
});
