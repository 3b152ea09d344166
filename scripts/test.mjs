// `npm test`: every test on the embedded PostgreSQL (or DATABASE_URL's server when set):
// Vitest (domain, server, web) then Playwright in Chromium. Ends with "N passed, N failed".
// --server-only runs just the server project (CI's second pass on PostgreSQL 15).
// --e2e-only [spec …] runs just the journeys (those named, or all): with E2E_NOW, as if it were that instant
// (e2e/support/clock.ts; CI runs the day-dependent ones at two set instants).
// RESULTS_FILE=path writes {passed, flaky, failed, skipped, flakyTests, failedTests} for .ci/run to add up. A journey that
// failed and then passed on its retry is flaky: counted apart from passed, and named.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { closingLines, parseFlakyList, playwrightTotals, unlistedFlaky, vitestTotals } from './test-results.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverOnly = process.argv.includes('--server-only');
const e2eOnly = process.argv.includes('--e2e-only');
const specs = e2eOnly ? process.argv.slice(2).filter((a) => !a.startsWith('--')) : [];
// TEST_REPORTS_DIR=dir keeps Vitest's and Playwright's JSON reports there (each test's duration: the slowest).
const keep = process.env.TEST_REPORTS_DIR ? path.resolve(process.env.TEST_REPORTS_DIR) : null;
if (keep) mkdirSync(keep, { recursive: true });
const tmp = keep ?? mkdtempSync(path.join(os.tmpdir(), 'hornada-results-'));
const totals = { passed: 0, flaky: 0, failed: 0, skipped: 0, flakyTests: [], failedTests: [] };
let ok = true;

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status === 0;
}

// Vitest
if (!e2eOnly) {
  const vitestJson = path.join(tmp, 'vitest.json');
  const projects = serverOnly ? ['--project', 'server'] : [];
  ok =
    run(path.join(root, 'node_modules/.bin/vitest'), [
      'run',
      ...projects,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${vitestJson}`,
    ]) && ok;
  if (existsSync(vitestJson)) {
    const v = JSON.parse(readFileSync(vitestJson, 'utf8'));
    add(vitestTotals(v));
    if (!v.success) ok = false;
  } else {
    ok = false;
    totals.failed += 1;
    totals.failedTests.push('Vitest wrote no report');
  }
}

function add(t) {
  for (const k of ['passed', 'flaky', 'failed', 'skipped']) totals[k] += t[k];
  totals.flakyTests.push(...t.flakyTests);
  totals.failedTests.push(...t.failedTests);
}

// Playwright
if (!serverOnly) {
  const chromium = '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    if (process.env.REQUIRE_E2E === '1') {
      process.stdout.write(
        'e2e: /usr/bin/chromium is missing and REQUIRE_E2E=1: failing (apt-get install -y chromium)\n',
      );
      totals.failed += 1;
      totals.failedTests.push('/usr/bin/chromium is missing (REQUIRE_E2E=1)');
      ok = false;
    } else {
      process.stdout.write('e2e skipped: /usr/bin/chromium not installed (apt-get install -y chromium)\n');
    }
  } else {
    ok = run('node', [path.join(root, 'scripts/build.mjs'), '--if-stale']) && ok;
    const pwJson = path.join(tmp, 'playwright.json');
    ok =
      run(
        path.join(root, 'node_modules/.bin/playwright'),
        ['test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json', ...specs],
        {
          PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson,
        },
      ) && ok;
    if (existsSync(pwJson)) {
      const pw = playwrightTotals(JSON.parse(readFileSync(pwJson, 'utf8')));
      add(pw);
      // In CI (one retry) a flaky journey fails the run unless e2e/flaky.json lists it with its reason.
      if (process.env.CI) {
        const allowed = parseFlakyList(readFileSync(path.join(root, 'e2e/flaky.json'), 'utf8'));
        for (const name of unlistedFlaky(pw.flakyTests, allowed)) {
          process.stdout.write(`flaky and not listed in e2e/flaky.json (fails the run): ${name}\n`);
          totals.flakyTests = totals.flakyTests.filter((t) => t !== name);
          totals.flaky -= 1;
          totals.failed += 1;
          totals.failedTests.push(`${pw.flakyWhy[name]} (flaky, not listed in e2e/flaky.json)`);
          ok = false;
        }
      }
      // Named with how the first try failed, here and in RESULTS_FILE.
      totals.flakyTests = totals.flakyTests.map((name) => pw.flakyWhy[name] ?? name);
      if (pw.passed + pw.flaky + pw.failed === 0 && process.env.REQUIRE_E2E === '1') {
        process.stdout.write('e2e: no Playwright test ran\n');
        totals.failed += 1;
        totals.failedTests.push('no Playwright test ran (REQUIRE_E2E=1)');
        ok = false;
      }
    } else {
      totals.failed += 1;
      totals.failedTests.push('Playwright wrote no report (did the app start?)');
      ok = false;
    }
  }
}

if (!keep) rmSync(tmp, { recursive: true, force: true });
if (!ok && totals.failed === 0) {
  totals.failed = 1;
  totals.failedTests.push('a step exited with an error without a failed test (the build, or a runner; see above)');
}
if (process.env.RESULTS_FILE) writeFileSync(process.env.RESULTS_FILE, JSON.stringify(totals));
process.stdout.write(`\n${closingLines(totals).join('\n')}\n`);
process.exit(ok && totals.failed === 0 ? 0 : 1);
