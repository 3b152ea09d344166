/* global self, caches */
// The driver's service worker, scope /driver/: keeps the app shell (the driver pages' HTML and the
// hashed scripts and styles they load), so the phone opens without signal. Pages: network first, the kept
// copy when offline. Hashed assets never change: kept copy first. Nothing a user reads is kept here: the
// cache is the phone's, shared by every driver who signs in on it, so today's route and the moves not sent
// live in the page's IndexedDB, one database per signed-in user (driver-queue.ts), and sign-out forgets them.
// v2: v1 kept GET …/deliveries answers under one key for every user; activating v2 deletes that cache.
const CACHE = 'hornada-driver-v2';
const SHELL = ['/driver/orders', '/driver/summary', '/driver.webmanifest', '/icons/driver-192.png', '/favicon.svg'];

/**
 * Keeps hashed assets and, one level down, the chunks their scripts may import later (`"./name-hash.js"`):
 * a chunk first imported on a reload without signal (the session's store, a page) is then already here.
 */
async function keepAssets(cache, urls) {
  const all = new Set(urls);
  for (const url of urls) {
    if (!url.endsWith('.js')) continue;
    const answer = await cache.match(url);
    const text = answer ? await answer.text() : '';
    for (const m of text.matchAll(/["'`]\.\/([\w.-]+\.(?:js|css))["'`]/g)) all.add(`/assets/${m[1]}`);
  }
  await cache.addAll([...all].slice(0, 400));
}

// The shell: the driver pages and every hashed script and style their documents name (modulepreload, script,
// stylesheet), with what those scripts import, so a reload without signal finds each of them.
async function keepShell() {
  const cache = await caches.open(CACHE);
  await cache.addAll(SHELL);
  const assets = new Set();
  for (const page of ['/driver/orders', '/driver/summary']) {
    const html = await (await cache.match(page)).text();
    for (const m of html.matchAll(/["'](\/assets\/[^"'?#]+)["']/g)) assets.add(m[1]);
  }
  await cache.addAll([...assets]);
  await keepAssets(cache, [...assets]);
}

self.addEventListener('install', (event) => {
  event.waitUntil(keepShell().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

// The page lists the hashed assets (and the header's logo) it loaded before this worker was there (driver-app.tsx).
// When all of it, and the chunks those scripts may import later, is kept, the page is told (`kept`): from then on
// a reload without signal opens.
self.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.type !== 'keep' || !Array.isArray(data.urls)) return;
  const urls = data.urls
    .filter((u) => typeof u === 'string' && (u.startsWith('/assets/') || u.startsWith('/files/')))
    .slice(0, 200);
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(urls).then(() => keepAssets(cache, urls)))
      .then(
        () => true,
        () => false,
      )
      .then((ok) => event.source?.postMessage({ type: 'kept', ok })),
  );
});

async function networkFirst(request, fallbackUrl) {
  const cache = await caches.open(CACHE);
  try {
    const answer = await fetch(request);
    if (answer.ok) await cache.put(request, answer.clone());
    return answer;
  } catch (err) {
    const kept = (await cache.match(request)) ?? (fallbackUrl ? await cache.match(fallbackUrl) : undefined);
    if (kept) return kept;
    throw err;
  }
}

async function keptFirst(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const answer = await fetch(request);
  if (answer.ok) await cache.put(request, answer.clone());
  return answer;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate' && url.pathname.startsWith('/driver/')) {
    event.respondWith(networkFirst(request, '/driver/orders'));
  } else if (url.pathname.startsWith('/assets/')) {
    event.respondWith(keptFirst(request));
  } else if (url.pathname.startsWith('/files/')) {
    // The header's logo: public pictures whose names are never reused (a new logo is a new path), kept once
    // seen so the header has it without signal.
    event.respondWith(keptFirst(request));
  } else if (url.pathname === '/favicon.svg') {
    // The generic icon, where a bakery has no logo: the same, but it may change, so the network first.
    event.respondWith(networkFirst(request));
  }
});
