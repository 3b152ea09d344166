// What `npm test` counts from each runner's JSON report, and the line it ends with (scripts/test.mjs).

/** The first line of an error, without terminal colours, at most 240 characters: enough to tell a failure in a log's tail. */
export function firstLine(message) {
  const line = String(message ?? '')
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  return (line ?? '').slice(0, 240);
}

const named = (name, message) => (firstLine(message) ? `${name}: ${firstLine(message)}` : name);
const relative = (file) => String(file ?? '').replace(/^.*?\/(apps|packages|scripts|e2e|bench)\//, '$1/');

/** Vitest's report: a file that failed to load (or whose hooks failed) has no failed test of its own: once. */
export function vitestTotals(v) {
  const failedTests = [];
  let broken = 0;
  for (const s of v.testResults ?? []) {
    const failures = s.assertionResults.filter((a) => a.status === 'failed');
    for (const a of failures)
      failedTests.push(named(`${relative(s.name)} > ${a.fullName ?? a.title}`, a.failureMessages?.[0]));
    if (s.status === 'failed' && failures.length === 0) {
      broken += 1;
      failedTests.push(named(`${relative(s.name)} (the file itself)`, s.message));
    }
  }
  return {
    passed: v.numPassedTests,
    flaky: 0,
    failed: v.numFailedTests + broken,
    skipped: v.numPendingTests + v.numTodoTests,
    flakyTests: [],
    failedTests,
  };
}

/**
 * Playwright's report: a journey that failed and then passed on its retry is flaky, counted apart from
 * passed and named ("file:line title"), so a flake is never hidden among the passes; `flakyWhy` gives, by
 * name, how its first try failed (the log's tail then says what to look at).
 */
export function playwrightTotals(report) {
  const s = report.stats;
  const flakyTests = [];
  const flakyWhy = {};
  const failedTests = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        const name = `${spec.file}:${spec.line} ${spec.title}`;
        if (t.status === 'flaky') {
          flakyTests.push(name);
          flakyWhy[name] = named(name, t.results?.find((r) => r.error)?.error?.message);
        }
        if (t.status === 'unexpected') failedTests.push(named(name, t.results?.at(-1)?.error?.message));
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  return {
    passed: s.expected,
    flaky: s.flaky ?? 0,
    failed: s.unexpected,
    skipped: s.skipped,
    flakyTests,
    flakyWhy,
    failedTests,
  };
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

/** The closing lines: each flaky journey and each failure named, then "N passed, N flaky, N failed[, N skipped]". */
export function closingLines(t) {
  return [
    ...t.flakyTests.map((name) => `flaky (passed on its retry): ${name}`),
    ...(t.failedTests ?? []).map((name) => `failed: ${name}`),
    `${t.passed} passed, ${t.flaky} flaky, ${t.failed} failed${t.skipped ? `, ${t.skipped} skipped` : ''}`,
  ];
}
