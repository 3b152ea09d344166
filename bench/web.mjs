// `npm run bench:web`: Lighthouse 12 (mobile: its default emulation and simulated throttling) on the
// built app with the demo seeded: `/` and a product page, BENCH_WEB_RUNS runs each (3), in Debian's
// Chromium; and the home page of a second bakery made through createBakery ("Horno de Carlos", the demo's
// catalogue and photos copied into it through the API) at its own host, `horno-de-carlos.localhost`
// (every bakery a shop, under the same budgets). Prints the medians of the four category scores and the first-load JS (gzip KB of every script
// the page loaded before any interaction, from Lighthouse's network records), each against its goal:
// performance ≥ 98, accessibility, best practices and SEO 100, JS ≤ 120 KB. A missed goal is printed as
// MISS (the figures are the point); the run fails only when it cannot measure. BENCH_WEB_SAVE=<dir> keeps
// the reports.
import { writeFileSync } from 'node:fs';
import http from 'node:http';
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
async function firstLoadJsBytes(lhr, origin, bareOrigin) {
  const items = lhr.audits['network-requests']?.details?.items ?? [];
  const scripts = [...new Set(items.filter((i) => i.resourceType === 'Script').map((i) => i.url))];
  let total = 0;
  for (const url of scripts) {
    if (!url.startsWith(origin)) throw new Error(`a script from elsewhere: ${url}`);
    if (!gzipSizes.has(url)) {
      // A shop's scripts are the app's own files: read at the bare origin (Node does not resolve *.localhost).
      const res = await fetch(`${bareOrigin}${url.slice(origin.length)}`, {
        headers: { 'accept-encoding': 'identity' },
      });
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

/**
 * GET a page and read it all. Node does not resolve `*.localhost` as browsers do: a shop's page is asked of
 * 127.0.0.1 with its host name in the Host header.
 */
function warm(url) {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port: u.port, path: u.pathname, headers: { host: u.host } }, (res) => {
        res.resume();
        res.on('end', resolve);
      })
      .on('error', reject);
  });
}

/** A JSON call that must succeed. */
async function call(url, { method = 'GET', token, body } = {}) {
  const res = await fetch(url, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

const signIn = async (origin, email, password) =>
  (await call(`${origin}/api/identity/sign-in`, { method: 'POST', body: { email, password } })).data.idToken;

/**
 * A second bakery as an owner makes one: registered, e-mail verified through the outbox, created with
 * createBakery, its settings and its catalogue (collections, products, each photo uploaded again) copied
 * from the demo's public reads, so both shops' home pages carry the same content. Returns its shop's origin.
 */
async function secondBakery(origin, port) {
  const email = 'bench-carlos@hornada.test';
  const password = 'pandeyuca-caliente';
  await call(`${origin}/api/auth/register`, {
    method: 'POST',
    body: { email, password, name: 'Carlos Andrés', role: 'company_admin', companyId: null },
  });
  const root = await signIn(origin, 'root@hornada.test', 'hornada-demo');
  let code;
  for (let i = 0; i < 100 && !code; i++) {
    const mails = (await call(`${origin}/api/outbox?per_page=100`, { token: root })).data;
    code = mails.find((m) => m.to === email)?.text.match(/\?token=([^\s"&<]+)/)?.[1];
    if (!code) await new Promise((r) => setTimeout(r, 100));
  }
  if (!code) throw new Error('no verification mail for the second bakery');
  await call(`${origin}/api/identity/verify-email`, { method: 'POST', body: { token: decodeURIComponent(code) } });
  const token = await signIn(origin, email, password);
  const created = (await call(`${origin}/api/companies`, { method: 'POST', token, body: { name: 'Horno de Carlos' } }))
    .data;
  const to = `${origin}/api/companies/${created.company.id}`;
  const demo = (await call(`${origin}/api/config`)).data.companyId;
  const from = `${origin}/api/companies/${demo}`;
  const s = (await call(`${from}/settings`)).data;
  const { phone, whatsapp, address, deliveryDays, deliveryWindows, paymentMethods, transferInstructions } = s;
  await call(`${to}/settings`, {
    method: 'PATCH',
    token,
    body: { phone, whatsapp, address, deliveryDays, deliveryWindows, paymentMethods, transferInstructions },
  });
  const upload = async (image) => {
    const bytes = await (await fetch(`${origin}/files/${image.path}`)).arrayBuffer();
    const form = new FormData();
    form.append('file', new Blob([bytes]), 'foto');
    const res = await fetch(`${to}/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    if (!res.ok) throw new Error(`upload: ${res.status} ${await res.text()}`);
    const f = (await res.json()).data;
    return { path: f.path, alt: image.alt ?? '', width: f.width, height: f.height, widths: f.widths };
  };
  const collections = new Map();
  for (const c of (await call(`${from}/productCollections?per_page=500&sort=sortOrder`)).data) {
    const image = c.image ? await upload(c.image) : null;
    const body = { name: c.name, description: c.description, sortOrder: c.sortOrder };
    if (image) body.image = { path: image.path, alt: image.alt };
    collections.set(c.id, (await call(`${to}/productCollections`, { method: 'POST', token, body })).data.id);
  }
  for (const p of (await call(`${from}/products?per_page=500&sort=sortOrder`)).data) {
    const images = [];
    for (const image of p.images) images.push(await upload(image));
    const body = {
      name: p.name,
      description: p.description,
      price: p.price,
      allergens: p.allergens,
      sortOrder: p.sortOrder,
      images,
      collectionId: p.collectionId ? collections.get(p.collectionId) : null,
    };
    await call(`${to}/products`, { method: 'POST', token, body });
  }
  return `http://${created.company.slug}.localhost:${port}`;
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
  const shop = await secondBakery(origin, port);
  const pages = [
    { label: '/', url: `${origin}/`, origin, file: 'home' },
    { label: 'product page', url: `${origin}/products/show/${products[0].id}`, origin, file: 'product' },
    { label: 'Horno de Carlos /', url: `${shop}/`, origin: shop, file: 'shop-home' },
  ];
  // Warm the server's caches (public reads, the renderer) so the first run measures what the others do.
  for (const p of pages) await warm(p.url);

  chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS, logLevel: 'error' });
  print(`bench:web — Lighthouse ${RUNS} runs a page, mobile (simulated throttling), Chromium ${CHROME_PATH}`);
  const goals = [];
  for (const p of pages) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const lhr = await audit(p.url, chrome.port);
      if (SAVE_DIR) writeFileSync(path.join(SAVE_DIR, `${p.file}-${i + 1}.json`), JSON.stringify(lhr));
      runs.push({ lhr, js: await firstLoadJsBytes(lhr, p.origin, origin) });
    }
    print(`\n${p.label} (${p.url})`);
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
