/**
 * The request log: one line a request, with the server's own logger options
 * (app.ts loggerOptions), never carrying a secret that a URL holds: a guest's order link, a reset or
 * verification token, a Google code or state. The rest of the URL stays, so the line is still useful.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../../src/app';
import { setupTestApp, type TestApp } from '../helpers/app';

const lines: string[] = [];
let t: TestApp;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  t = await setupTestApp({ loggerInstance: pino(loggerOptions('info') as pino.LoggerOptions, sink) });
});
afterAll(async () => {
  await t?.close();
});

/** The `req.url` of the request log's line for a request made now. */
async function loggedUrl(url: string): Promise<string> {
  const before = lines.length;
  await t.call({ method: 'GET', url });
  for (let i = 0; i < 50 && lines.length === before; i++) await new Promise((r) => setTimeout(r, 10));
  const entry = lines
    .slice(before)
    .map((l) => JSON.parse(l) as { msg: string; req?: { url: string } })
    .find((l) => l.msg === 'request completed');
  if (!entry?.req) throw new Error(`no request line for ${url}: ${lines.slice(before).join('\n')}`);
  return entry.req.url;
}

const SECRET = 'S3cr3t-VALUE.abcdefghijklmnop';

describe('the request log', () => {
  it('redacts tokens and codes in query strings, keeping the rest of the URL', async () => {
    for (const [url, expected] of [
      [`/restablecer-contrasena?token=${SECRET}`, '/restablecer-contrasena?token=[redacted]'],
      [`/verificar-correo?token=${SECRET}&x=1`, '/verificar-correo?token=[redacted]&x=1'],
      [`/acceso/google?code=${SECRET}&redirect=/carrito`, '/acceso/google?code=[redacted]&redirect=/carrito'],
      [
        `/api/identity/google/callback?state=${SECRET}&code=${SECRET}`,
        '/api/identity/google/callback?state=[redacted]&code=[redacted]',
      ],
      [`/respuesta-de-pago?pedido=${SECRET}`, '/respuesta-de-pago?pedido=[redacted]'],
      // The name's case or an encoded name does not hide a value.
      [`/x?ToKeN=${SECRET}`, '/x?ToKeN=[redacted]'],
      [`/x?%74oken=${SECRET}`, '/x?%74oken=[redacted]'],
    ]) {
      const logged = await loggedUrl(url!);
      expect(logged).toBe(expected);
      expect(logged).not.toContain('S3cr3t');
    }
  });

  it("redacts a guest's order link in the path, matched or not", async () => {
    for (const url of [
      `/api/orders/link/${SECRET}`,
      `/api/orders/link/${SECRET}/`,
      `/api/orders/link/${encodeURIComponent(SECRET)}?x=1`,
      `/API/orders/%6Cink/${SECRET}`,
    ]) {
      const logged = await loggedUrl(url);
      expect(logged).not.toContain('S3cr3t');
      expect(logged).toMatch(/\/(link|%6Cink)\/\[redacted\]/i);
    }
  });

  it("redacts a secret inside an encoded value: the gateway page's redirect-url", async () => {
    const back = `http://localhost:3000/respuesta-de-pago?pedido=${SECRET}`;
    const gateway = (value: string) => `/pasarela-de-prueba?reference=1042-1-abc&redirect-url=${value}&currency=COP`;
    for (const [url, expected] of [
      [
        gateway(encodeURIComponent(back)),
        gateway(encodeURIComponent('http://localhost:3000/respuesta-de-pago?pedido=[redacted]')),
      ],
      // Encoded twice, or a bare query, or the link's path: still found.
      [
        gateway(encodeURIComponent(encodeURIComponent(back))),
        gateway(encodeURIComponent(encodeURIComponent('http://localhost:3000/respuesta-de-pago?pedido=[redacted]'))),
      ],
      [
        `/x?next=${encodeURIComponent(`pedido=${SECRET}&a=1`)}`,
        `/x?next=${encodeURIComponent('pedido=[redacted]&a=1')}`,
      ],
      [
        `/x?next=${encodeURIComponent(`/api/orders/link/${SECRET}`)}`,
        `/x?next=${encodeURIComponent('/api/orders/link/[redacted]')}`,
      ],
    ]) {
      const logged = await loggedUrl(url!);
      expect(logged).not.toContain('S3cr3t');
      expect(logged).toBe(expected);
    }
  });

  it('keeps ordinary URLs as they are', async () => {
    expect(await loggedUrl('/api/config?x=1')).toBe('/api/config?x=1');
    // An encoded value without a secret is left exactly as it came.
    const page = `/pasarela-de-prueba?redirect-url=${encodeURIComponent('http://localhost:3000/x?a=1&b=%20')}`;
    expect(await loggedUrl(page)).toBe(page);
  });
});
