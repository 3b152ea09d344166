/**
 * Compression (issue "Storefront and cart", speed): JSON is compressed with brotli or gzip when the client
 * asks and sent plain otherwise, the public cache's ETag still answers 304, and an event stream is never
 * compressed nor buffered: a live change still arrives at once.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestUser } from '../helpers/app';
import { closeListeningApp, liveCalls, setupLiveApp } from '../helpers/live';
import { changeEvents, openStream } from '../helpers/sse';

let t: TestApp;
let companyId: string;
let admin: TestUser;
const { streams, api, changesUrl, post } = liveCalls(() => ({ t, companyId, admin }));

beforeAll(async () => {
  ({ t, companyId, admin } = await setupLiveApp());
  // Enough products for a list well above the 1 KB under which nothing is compressed.
  for (let i = 0; i < 12; i++) {
    await post('products', {
      name: `Pan de prueba ${i}`,
      price: 1000 + i,
      description: 'Masa madre, harina de trigo, agua y sal; horneado en la mañana.',
    });
  }
});
afterEach(() => {
  for (const s of streams.splice(0)) s.close();
});
afterAll(() => closeListeningApp(t));

const list = (headers: Record<string, string> = {}) =>
  t.call({ method: 'GET', url: `${api('products')}?per_page=50`, headers });

describe('compression', () => {
  it('compresses JSON with brotli or gzip when asked, and only then', async () => {
    const plain = await list();
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const items = (JSON.parse(plain.body) as { data: unknown[] }).data;
    expect(items).toHaveLength(12);
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await list({ 'accept-encoding': 'gzip, deflate, br' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    const fromBr = brotliDecompressSync(br.rawPayload).toString('utf8');
    expect(fromBr).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);

    const gz = await list({ 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString('utf8')).toBe(plain.body);

    const identity = await list({ 'accept-encoding': 'identity' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body).toBe(plain.body);
  });

  it('keeps the public cache answering 304 to a matching ETag', async () => {
    const first = await list({ 'accept-encoding': 'br' });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"/);
    const again = await list({ 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('leaves a small answer alone', async () => {
    const res = await t.call({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('never compresses an event stream: a change arrives while it is open', async () => {
    const s = await openStream(changesUrl('products'), {
      authorization: `Bearer ${admin.token}`,
      'accept-encoding': 'br, gzip',
    });
    streams.push(s);
    expect(s.status).toBe(200);
    // openStream uses fetch, which would decode a compressed stream: the header says what was sent.
    expect(s.headers['content-encoding']).toBeUndefined();
    expect(s.headers['content-type']).toMatch(/^text\/event-stream/);
    await new Promise((r) => setTimeout(r, 150));
    await post('products', { name: 'Pan en vivo', price: 3200 });
    // Arriving while the stream is open is the point: a compressor would hold it until the stream ends.
    // The bound only keeps a failure from hanging; how fast is bench:live's.
    await s.waitFor(
      (events) => changeEvents(events).some((e) => e.json?.changes.some((c) => c.doc.name === 'Pan en vivo')),
      10_000,
    );
  });
});
