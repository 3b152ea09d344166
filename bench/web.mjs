// `npm run bench:web`: Lighthouse 12 (mobile: its default emulation and simulated throttling) on the
// built app with the demo seeded: `/` and a product page, BENCH_WEB_RUNS runs each (3), in Debian's
// Chromium. Prints the medians of the four category scores and the first-load JS (gzip KB of every script
// the page loaded before any interaction, from Lighthouse's network records), each against its goal:
// performance ≥ 98, accessibility, best practices and SEO 100, JS ≤ 120 KB. A missed goal is printed as
// MISS (the figures are the point); the run fails only when it cannot measure. BENCH_WEB_SAVE=<dir> keeps
// the reports.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { freePort, startServer, waitHealthy } from './lib.mjs';

const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 3);
// A directory to keep each run's Lighthouse report (JSON) in, to read what an audit found.
const SAVE_DIR = process.env.BENCH_WEB_SAVE;
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const CATEGORIES = [
  { id: 'performance', label: 'performance', goal: 98 },
  { id: 'accessibility', label: 'accessibility', goal: 100 },
  { id: 'best-practices', label: 'best practices', goal: 100 },
  { id: 'seo', label: 'SEO', goal: 100 },
];
const GOAL_JS_KB = 120;

const print = (s) => process.stdout.write(`${s}\n`);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Gzip size (level 9, as the build's .gz files) of each script the page loaded, fetched plain once. */
const gzipSizes = new Map();
async function firstLoadJsBytes(lhr, origin) {
  const items = lhr.audits['network-requests']?.details?.items ?? [];
  const scripts = [...new Set(items.filter((i) => i.resourceType === 'Script').map((i) => i.url))];
  let total = 0;
  for (const url of scripts) {
    if (!url.startsWith(origin)) throw new Error(`a script from elsewhere: ${url}`);
    if (!gzipSizes.has(url)) {
      const res = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
      gzipSizes.set(url, gzipSync(Buffer.from(await res.arrayBuffer()), { level: 9 }).length);
    }
    total += gzipSizes.get(url);
  }
  return { bytes: total, scripts: scripts.map((u) => ({ url: u.slice(origin.length), gzip: gzipSizes.get(u) })) };
}

/** The audits that cost a category points in a run (score below 1), for the reader to act on. */
function failing(lhr, categoryId) {
  return lhr.categories[categoryId].auditRefs
    .filter((ref) => ref.weight > 0)
    .map((ref) => lhr.audits[ref.id])
    .filter((a) => a.score !== null && a.score < 1)
    .map((a) => `${a.id}${a.displayValue ? ` (${a.displayValue})` : ''}`);
}

/** One Lighthouse run; a run whose trace Chromium failed to record (NO_NAVSTART, seen here) is made again once. */
async function audit(url, chromePort, attempt = 1) {
  const result = await lighthouse(url, {
    port: chromePort,
    output: 'json',
    logLevel: 'error',
    onlyCategories: CATEGORIES.map((c) => c.id),
  });
  const error = result ? result.lhr.runtimeError : { code: 'NO_RESULT', message: 'Lighthouse returned nothing' };
  if (!error) return result.lhr;
  if (attempt < 2) return audit(url, chromePort, attempt + 1);
  throw new Error(`${url}: ${error.code} ${error.message}`);
}

const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const server = startServer({ port, env: { SEED_DEMO: 'on', LOG_LEVEL: 'warn', PUBLIC_URL: origin } });
let chrome;
let exitCode = 0;
try {
  if (!(await waitHealthy(port, 60_000))) throw new Error(`Hornada did not start:\n${server.output()}`);
  const config = (await (await fetch(`${origin}/api/config`)).json()).data;
  const products = (
    await (await fetch(`${origin}/api/companies/${config.companyId}/products?sort=sortOrder&per_page=1`)).json()
  ).data;
  const pages = [
    { label: '/', url: `${origin}/` },
    { label: 'product page', url: `${origin}/products/show/${products[0].id}` },
  ];
  // Warm the server's caches (public reads, the renderer) so the first run measures what the others do.
  for (const p of pages) await fetch(p.url);

  chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS, logLevel: 'error' });
  print(`bench:web — Lighthouse ${RUNS} runs a page, mobile (simulated throttling), Chromium ${CHROME_PATH}`);
  const goals = [];
  for (const p of pages) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const lhr = await audit(p.url, chrome.port);
      if (SAVE_DIR)
        writeFileSync(
          path.join(SAVE_DIR, `${p.label === '/' ? 'home' : 'product'}-${i + 1}.json`),
          JSON.stringify(lhr),
        );
      runs.push({ lhr, js: await firstLoadJsBytes(lhr, origin) });
    }
    print(`\n${p.label} (${p.url.slice(origin.length)})`);
    for (const c of CATEGORIES) {
      const scores = runs.map((r) => Math.round((r.lhr.categories[c.id].score ?? 0) * 100));
      const m = median(scores);
      const pass = m >= c.goal;
      print(
        `  ${c.label.padEnd(15)} ${String(m).padStart(3)}   runs ${scores.join(', ')}   goal ≥ ${c.goal}: ${pass ? 'PASS' : 'MISS'}`,
      );
      if (!pass) {
        const lost = [...new Set(runs.flatMap((r) => failing(r.lhr, c.id)))];
        print(`    below 1: ${lost.join(', ')}`);
      }
      goals.push(pass);
    }
    const kb = median(runs.map((r) => r.js.bytes)) / 1024;
    const jsPass = kb <= GOAL_JS_KB;
    print(
      `  first-load JS   ${kb.toFixed(1)} KB gzip   goal ≤ ${GOAL_JS_KB} KB: ${jsPass ? 'PASS' : `MISS by ${(kb - GOAL_JS_KB).toFixed(1)} KB`}`,
    );
    for (const s of runs[0].js.scripts) print(`    ${(s.gzip / 1024).toFixed(1).padStart(6)} KB  ${s.url}`);
    goals.push(jsPass);
    const lcp = median(runs.map((r) => r.lhr.audits['largest-contentful-paint'].numericValue));
    const tbt = median(runs.map((r) => r.lhr.audits['total-blocking-time'].numericValue));
    print(`  LCP ${(lcp / 1000).toFixed(2)} s, TBT ${tbt.toFixed(0)} ms (medians, simulated)`);
  }
  print(`\ngoals: ${goals.filter(Boolean).length} of ${goals.length} met`);
} catch (err) {
  print(`bench:web failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  exitCode = 1;
} finally {
  await chrome?.kill();
  await server.stop();
}
process.exit(exitCode);
