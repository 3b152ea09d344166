// What `npm test` counts from each runner's JSON report, and the line it ends with (scripts/test.mjs).

/** Vitest's report: a file that failed to load (or whose hooks failed) has no failed test of its own: once. */
export function vitestTotals(v) {
  const broken = (v.testResults ?? []).filter(
    (s) => s.status === 'failed' && !s.assertionResults.some((a) => a.status === 'failed'),
  ).length;
  return {
    passed: v.numPassedTests,
    flaky: 0,
    failed: v.numFailedTests + broken,
    skipped: v.numPendingTests + v.numTodoTests,
    flakyTests: [],
  };
}

/**
 * Playwright's report: a journey that failed and then passed on its retry is flaky, counted apart from
 * passed and named ("file:line title"), so a flake is never hidden among the passes.
 */
export function playwrightTotals(report) {
  const s = report.stats;
  const flakyTests = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? [])
        if (t.status === 'flaky') flakyTests.push(`${spec.file}:${spec.line} ${spec.title}`);
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  return { passed: s.expected, flaky: s.flaky ?? 0, failed: s.unexpected, skipped: s.skipped, flakyTests };
}

/**
 * The journeys allowed to be flaky (e2e/flaky.json: each `{ "journey": "<file> <title>", "reason": "…" }`, the
 * file as Playwright names it and the title without its line, so that moving a journey keeps its entry). In CI a
 * flaky journey that is not listed fails the run: a flake is either fixed or written down with its reason.
 */
export function unlistedFlaky(flakyTests, allowed) {
  const keys = new Set(allowed.map((a) => a.journey));
  return flakyTests.filter((name) => !keys.has(name.replace(/^(\S+?):\d+ /, '$1 ')));
}

/** e2e/flaky.json read and checked: every entry names a journey and gives a reason. */
export function parseFlakyList(text) {
  const list = JSON.parse(text).journeys;
  if (!Array.isArray(list)) throw new Error('e2e/flaky.json: "journeys" must be a list');
  for (const entry of list) {
    if (typeof entry?.journey !== 'string' || typeof entry?.reason !== 'string' || !entry.reason.trim())
      throw new Error(`e2e/flaky.json: each entry needs "journey" and a "reason": ${JSON.stringify(entry)}`);
  }
  return list;
}

/** The closing lines: each flaky journey named, then "N passed, N flaky, N failed[, N skipped]". */
export function closingLines(t) {
  return [
    ...t.flakyTests.map((name) => `flaky (passed on its retry): ${name}`),
    `${t.passed} passed, ${t.flaky} flaky, ${t.failed} failed${t.skipped ? `, ${t.skipped} skipped` : ''}`,
  ];
}
