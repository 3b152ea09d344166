/**
 * File storage (docs/product.md §7 "Other", §5, §8; docs/design.md §1): the same suite on the local-disk driver and on the
 * S3 driver against s3rver, an in-process S3-compatible server started here on 127.0.0.1, port 0.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_TEXTS_ES, ROLES, type Role, type StoredFile } from '@hornada/domain';
import { parseConfig } from '../../src/config';
import { files, products } from '../../src/db/schema';
import { DEMO_COMPANY_ID } from '../../src/seed/ids';
import { seedDemoInto } from '../helpers/seed';
import { setupTestApp, json, type TestApp } from '../helpers/app';

const require = createRequire(import.meta.url);
const S3rver = require('s3rver') as new (opts: Record<string, unknown>) => {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
};

const BUCKET = 'hornada-files';

/** A multipart body with one part, as a browser's FormData sends it. */
async function multipart(
  data: Buffer,
  filename: string,
  type: string,
  field = 'file',
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(data)], { type }), filename);
  const req = new Request('http://local/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await req.arrayBuffer()),
    headers: { 'content-type': req.headers.get('content-type')! },
  };
}

const png = (width: number, height: number, rgb = { r: 200, g: 120, b: 40 }) =>
  sharp({ create: { width, height, channels: 3, background: rgb } })
    .png()
    .toBuffer();

/** Colour noise: a photo-like picture whose encodings are not all alike. */
const noisy = (width: number, height: number, seed: number) =>
  sharp({
    create: {
      width,
      height,
      channels: 3,
      background: { r: seed % 255, g: 90, b: 30 },
      noise: { type: 'gaussian', mean: 128, sigma: 30 },
    },
  })
    .jpeg()
    .toBuffer();

/** EXIF's pointer to the GPS data (tag 0x8825 in IFD0). */
const GPS_IFD_POINTER = 0x8825;

/** The tags of an EXIF block's first IFD (`Exif\0\0`, then a TIFF header in either byte order). */
function ifd0Tags(exif: Buffer | undefined): number[] {
  if (!exif) return [];
  const tiff = exif.subarray(exif.toString('latin1', 0, 4) === 'Exif' ? 6 : 0);
  const le = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (o: number) => (le ? tiff.readUInt16LE(o) : tiff.readUInt16BE(o));
  const u32 = (o: number) => (le ? tiff.readUInt32LE(o) : tiff.readUInt32BE(o));
  const ifd = u32(4);
  return Array.from({ length: u16(ifd) }, (_, i) => u16(ifd + 2 + i * 12));
}

async function startS3(): Promise<{ env: Record<string, string>; close(): Promise<void> }> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'hornada-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  const { port } = await server.run();
  return {
    env: {
      STORAGE: 's3',
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_FORCE_PATH_STYLE: 'on',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_PREFIX: 'tests/files',
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

describe.each(['local', 's3'] as const)('file storage on the %s driver', (driver) => {
  let t: TestApp;
  let s3: Awaited<ReturnType<typeof startS3>> | undefined;
  let own: string;
  let other: string;
  const tokens = {} as Record<'admin' | 'staff' | 'customer' | 'otherAdmin', string>;

  beforeAll(async () => {
    if (driver === 's3') s3 = await startS3();
    t = await setupTestApp({ listen: true, env: { RATE_LIMIT_WRITES: '0', ...(s3?.env ?? {}) } });
    own = await t.company('Panadería Uno');
    other = await t.company('Panadería Dos');
    tokens.admin = (await t.user('company_admin', own)).token;
    tokens.staff = (await t.user('company_staff', own)).token;
    tokens.customer = (await t.user('company_customer', own)).token;
    tokens.otherAdmin = (await t.user('company_admin', other)).token;
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  const upload = async (
    data: Buffer,
    opts: { name?: string; type?: string; token?: string | null; company?: string; field?: string } = {},
  ) => {
    const body = await multipart(data, opts.name ?? 'foto.png', opts.type ?? 'image/png', opts.field);
    return t.call({
      method: 'POST',
      url: `/api/companies/${opts.company ?? own}/files`,
      token: opts.token === null ? undefined : (opts.token ?? tokens.staff),
      ...body,
    });
  };
  const stored = async (data: Buffer, opts: Parameters<typeof upload>[1] = {}) => {
    const res = await upload(data, opts);
    expect(res.statusCode, res.body).toBe(201);
    return json<{ data: StoredFile }>(res).data;
  };
  const download = (url: string) => t.call({ method: 'GET', url });
  const remove = (p: string, token = tokens.staff, company = own) =>
    t.call({ method: 'DELETE', url: `/api/companies/${company}/files/${p}`, token });
  const expectError = (res: { statusCode: number; body: string }, status: number, code: string) => {
    expect(res.statusCode, res.body).toBe(status);
    const body = json<{ code: string; message: string; error: string }>(res);
    expect(body.code).toBe(code);
    expect(body.error).toBe(body.message);
    // Every code the API answers here has its Spanish text for the web (docs/design.md §3).
    expect(Object.keys(ERROR_TEXTS_ES)).toContain(code);
  };

  it('stores a PNG named .exe (sent as application/octet-stream) as the PNG it is, re-encoded for the storefront', async () => {
    const source = await png(1200, 900, { r: 10, g: 200, b: 30 });
    const file = await stored(source, { name: 'instalador.exe', type: 'application/x-msdownload' });
    expect(file.path).toMatch(new RegExp(`^${own}/[A-Za-z0-9_-]{32}\\.webp$`));
    expect(file.path).not.toContain('exe');
    expect(file).toMatchObject({ url: `/files/${file.path}`, contentType: 'image/webp', width: 960, height: 720 });
    expect(file.widths).toEqual([320, 480, 720, 960]);
    const res = await download(file.url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(Number(res.headers['content-length'])).toBe(file.size);
    const { data, info } = await sharp(res.rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect(info).toMatchObject({ width: 960, height: 720 });
    // The PNG's own pixels: its green, give or take the lossy encoding.
    expect(Math.abs(data[1]! - 200)).toBeLessThan(12);
    expect(Math.abs(data[0]! - 10)).toBeLessThan(12);
  });

  it('serves every width at the srcset path, with a year of immutable cache and nosniff', async () => {
    const file = await stored(await noisy(2000, 1500, 1));
    for (const w of file.widths) {
      const res = await download(`/files/${file.path.replace(/\.webp$/, `-${w}.webp`)}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      const head = await t.call({ method: 'HEAD', url: `/files/${file.path.replace(/\.webp$/, `-${w}.webp`)}` });
      expect(head.statusCode).toBe(200);
      expect(head.headers['content-length']).toBe(res.headers['content-length']);
      expect(head.rawPayload.length).toBe(0);
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: w, height: (w * 3) / 4 });
    }
    // A narrow picture is never enlarged: its own width is the largest.
    const narrow = await stored(await noisy(500, 250, 2));
    expect(narrow).toMatchObject({ widths: [320, 480, 500], width: 500, height: 250 });
    const tiny = await stored(await noisy(100, 80, 3));
    expect(tiny).toMatchObject({ widths: [100], width: 100, height: 80 });
  });

  it('refuses what is not an image, whatever its name and type say (415)', async () => {
    const html = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');
    expectError(await upload(html, { name: 'foto.png', type: 'image/png' }), 415, 'storage/unsupported-type');
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>x</script></svg>');
    expectError(await upload(svg, { name: 'logo.svg', type: 'image/svg+xml' }), 415, 'storage/unsupported-type');
    // A PNG's signature in front of garbage.
    const fake = Buffer.concat([(await png(50, 50)).subarray(0, 16), Buffer.alloc(500, 7)]);
    expectError(await upload(fake), 415, 'storage/unsupported-type');
    expectError(await upload(Buffer.alloc(0)), 415, 'storage/unsupported-type');
    // JSON instead of multipart.
    const res = await t.call({
      method: 'POST',
      url: `/api/companies/${own}/files`,
      token: tokens.staff,
      payload: { file: 'x' },
    });
    expectError(res, 415, 'unsupported_media_type');
    // Another field than "file".
    expectError(await upload(await png(10, 10), { field: 'image' }), 400, 'validation');
  });

  it('refuses a file over 5 MB (413), announced or not', async () => {
    const big = Buffer.concat([await png(10, 10), Buffer.alloc(6 * 1024 * 1024, 1)]);
    expectError(await upload(big), 413, 'storage/file-too-large');
    // Without Content-Length (chunked): the multipart limit stops it at 5 MB.
    const { payload, headers } = await multipart(big, 'grande.png', 'image/png');
    const { Readable } = await import('node:stream');
    const res = await t.call({
      method: 'POST',
      url: `/api/companies/${own}/files`,
      token: tokens.staff,
      headers,
      payload: Readable.from([payload.subarray(0, 1 << 20), payload.subarray(1 << 20)]),
    });
    expectError(res, 413, 'storage/file-too-large');
  });

  it('answers 413 before the rest of an oversize body is sent, announced or chunked', async () => {
    const { payload, headers } = await multipart(Buffer.alloc(6 * 1024 * 1024, 1), 'grande.png', 'image/png');
    /** Sends `sent` bytes of the body and waits for the answer without ever ending the request. */
    const partial = (sent: number, announce: boolean) =>
      new Promise<number>((resolve, reject) => {
        const req = request(`${t.baseUrl}/api/companies/${own}/files`, {
          method: 'POST',
          headers: {
            ...headers,
            authorization: `Bearer ${tokens.staff}`,
            ...(announce ? { 'content-length': String(payload.length) } : { 'transfer-encoding': 'chunked' }),
          },
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        });
        req.on('error', reject);
        req.write(payload.subarray(0, sent));
      });
    const within = (p: Promise<number>) =>
      Promise.race([p, new Promise<string>((r) => setTimeout(() => r('no answer'), 5000))]);
    expect(await within(partial(64 * 1024, true))).toBe(413);
    expect(await within(partial(5 * 1024 * 1024 + 128 * 1024, false))).toBe(413);
  });

  it('refuses an image over 40 megapixels (413) before decoding it', async () => {
    // 50 megapixels of one colour: a few kilobytes of PNG.
    const huge = await sharp({ create: { width: 10_000, height: 5_000, channels: 3, background: '#ffffff' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(huge.length).toBeLessThan(1024 * 1024);
    expectError(await upload(huge), 413, 'storage/image-too-large');
  });

  it('strips EXIF: the GPS position of a photo never reaches the stored files', async () => {
    const photo = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#a0522d' } })
      .jpeg()
      .withExif({
        IFD0: { Make: 'Telefono', Model: 'Camara', Copyright: 'Duena' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '4/1 36/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '74/1 4/1 0/1' },
      })
      .toBuffer();
    const before = await sharp(photo).metadata();
    expect(ifd0Tags(before.exif)).toContain(GPS_IFD_POINTER);
    expect(photo.includes(Buffer.from('Telefono'))).toBe(true);
    const file = await stored(photo, { name: 'foto.jpg', type: 'image/jpeg' });
    for (const url of [file.url, ...file.widths.map((w) => `/files/${file.path.replace(/\.webp$/, `-${w}.webp`)}`)]) {
      const res = await download(url);
      expect(res.statusCode).toBe(200);
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta.exif).toBeUndefined();
      expect(ifd0Tags(meta.exif)).not.toContain(GPS_IFD_POINTER);
      expect(meta.xmp).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(res.rawPayload.includes(Buffer.from('Telefono'))).toBe(false);
      expect(res.rawPayload.includes(Buffer.from('Exif'))).toBe(false);
    }
  });

  it('turns a photo upright by its EXIF orientation before the tag is dropped', async () => {
    const sideways = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#336699' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const file = await stored(sideways, { name: 'retrato.jpg', type: 'image/jpeg' });
    expect(file).toMatchObject({ width: 300, height: 400, widths: [300] });
  });

  it('lets only the back office of the company upload: customer 403, guest 401, other company 404', async () => {
    const image = await png(40, 40, { r: 1, g: 2, b: 3 });
    const expected: Record<Role, number> = {
      system_admin: 201,
      company_admin: 201,
      company_staff: 201,
      company_customer: 403,
      delivery_assistant: 403,
      production_assistant: 403,
    };
    for (const role of ROLES) {
      const user = await t.user(role, role === 'system_admin' ? null : own);
      expect((await upload(image, { token: user.token })).statusCode, role).toBe(expected[role]);
      if (role !== 'system_admin') {
        const stranger = await t.user(role, other);
        expect((await upload(image, { token: stranger.token })).statusCode, `${role} of another company`).toBe(404);
      }
    }
    expectError(await upload(image, { token: tokens.customer }), 403, 'forbidden');
    expectError(await upload(image, { token: null }), 401, 'unauthenticated');
    expectError(await upload(image, { token: tokens.otherAdmin }), 404, 'not_found');
    expectError(await upload(image, { token: tokens.admin, company: 'no-such-company' }), 404, 'not_found');
  });

  it('deletes every width; then downloads and a second delete are 404', async () => {
    const file = await stored(await noisy(1000, 800, 4), { token: tokens.admin });
    const urls = [file.url, ...file.widths.map((w) => `/files/${file.path.replace(/\.webp$/, `-${w}.webp`)}`)];
    for (const url of urls) expect((await download(url)).statusCode).toBe(200);
    expectError(await remove(file.path, tokens.customer), 403, 'forbidden');
    expectError(await remove(file.path, tokens.otherAdmin), 404, 'not_found');
    const gone = await remove(file.path);
    expect(gone.statusCode, gone.body).toBe(204);
    for (const url of urls) expectError(await download(url), 404, 'storage/object-not-found');
    expectError(await remove(file.path), 404, 'storage/object-not-found');
  });

  it("keeps another company's file out of reach: its path in our company is 404 and the file stays", async () => {
    const theirs = await stored(await noisy(300, 300, 5), { token: tokens.otherAdmin, company: other });
    expectError(await remove(theirs.path, tokens.admin, own), 404, 'storage/object-not-found');
    expectError(await remove(theirs.path, tokens.admin, other), 404, 'not_found');
    // Reached through our own folder: still theirs, still not found.
    const sneaky = theirs.path.replace(`${other}/`, `${own}/../${other}/`);
    expect([400, 404]).toContain((await remove(sneaky, tokens.admin, own)).statusCode);
    expect((await download(theirs.url)).statusCode).toBe(200);
  });

  it('answers 404 (or 400) to path traversal, never a file outside the storage', async () => {
    const file = await stored(await noisy(200, 200, 6));
    const attempts = [
      '/files/../../../../etc/passwd',
      '/files/..%2f..%2f..%2f..%2fetc%2fpasswd',
      '/files/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
      '/files/..%5c..%5cetc%5cpasswd',
      `/files/${file.path.replace('/', '/../')}`,
      `/files/${file.path}%00.png`,
      `/files/.${file.path}`,
      '/files/',
      '/files/%2fetc%2fpasswd',
    ];
    for (const url of attempts) {
      const res = await download(url);
      expect([400, 404], url).toContain(res.statusCode);
      expect(res.body).not.toContain('root:');
    }
    for (const p of ['..%2F..%2Fetc%2Fpasswd', `${own}%2F..%2F..%2Fpackage.json`, '%2e%2e/%2e%2e/x.webp']) {
      expect([400, 404], p).toContain((await remove(p)).statusCode);
    }
    if (driver === 'local') {
      // Nothing but company folders (and the seed's) under the files directory.
      const names = await readdir(path.join(t.dataDir, 'files'));
      expect(names.every((n) => n === own || n === other)).toBe(true);
    }
  });

  it('documents upload and delete in the OpenAPI document', async () => {
    const doc = json<{ paths: Record<string, Record<string, unknown>> }>(
      await t.call({ method: 'GET', url: '/api/docs/json' }),
    );
    expect(Object.keys(doc.paths['/api/companies/{companyId}/files'] ?? {})).toContain('post');
    expect(
      Object.keys(doc.paths).some((p) => p.startsWith('/api/companies/{companyId}/files/') && doc.paths[p]?.delete),
    ).toBe(true);
  });

  it('stores the same bytes once: a retried upload gets the same path and costs no more quota', async () => {
    const image = await noisy(640, 480, 7);
    const first = await stored(image);
    const again = await stored(image, { name: 'otra.jpg', type: 'image/jpeg', token: tokens.admin });
    expect(again).toEqual(first);
  });

  it("answers 402 past the company's quota, counted once under concurrent uploads", async () => {
    const config = t.app.ctx.config as { storageQuotaBytes: number };
    const saved = config.storageQuotaBytes;
    try {
      // What is used now, plus room for about one more picture.
      const probe = await stored(await noisy(900, 600, 8));
      const used = await t.db.execute<{ n: string }>(
        sql`SELECT sum(bytes)::text AS n FROM files WHERE company_id = ${own}`,
      );
      config.storageQuotaBytes = Number(used.rows[0]!.n) + probe.size * 4 + 10_000;
      const images = await Promise.all([noisy(900, 600, 9), noisy(900, 600, 10), noisy(900, 600, 11)]);
      const results = await Promise.all(images.map((img) => upload(img)));
      const statuses = results.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([201, 402, 402]);
      expectError(
        results.find((r) => r.statusCode === 402)!,
        402,
        'storage/quota-exceeded',
      );
      // Deleting frees the room again.
      expect((await remove(probe.path)).statusCode).toBe(204);
      expect((await upload(images[0]!)).statusCode).toBeLessThan(300);
      // 0: no limit.
      config.storageQuotaBytes = 1;
      expectError(await upload(await noisy(300, 200, 12)), 402, 'storage/quota-exceeded');
      config.storageQuotaBytes = 0;
      expect((await upload(await noisy(300, 200, 12))).statusCode).toBe(201);
    } finally {
      config.storageQuotaBytes = saved;
    }
  });
});

describe('storage configuration', () => {
  const base = { DATA_DIR: '/tmp/hornada-config', NODE_ENV: 'test' };
  it('defaults to the local disk and a 1 GB quota a company', () => {
    const config = parseConfig(base);
    expect(config.storage).toEqual({ driver: 'local' });
    expect(config.storageQuotaBytes).toBe(1024 * 1024 * 1024);
  });

  it('reads the S3 settings, and names every missing or half-given one at once', () => {
    const config = parseConfig({
      ...base,
      STORAGE: 's3',
      S3_BUCKET: 'panes',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_FORCE_PATH_STYLE: 'on',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
    });
    expect(config.storage).toMatchObject({
      driver: 's3',
      bucket: 'panes',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: true,
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
    });
    let message = '';
    try {
      parseConfig({ ...base, STORAGE: 's3', S3_ACCESS_KEY_ID: 'id', S3_PREFIX: '../x' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('S3_BUCKET: required with STORAGE=s3');
    expect(message).toContain('S3_PREFIX:');
    expect(message).toContain('S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither');
    expect(() => parseConfig({ ...base, STORAGE: 'ftp' })).toThrow(/STORAGE/);
  });
});

describe("the demo seed's pictures", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await setupTestApp();
    await seedDemoInto(t, { accounts: false });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('are files of the demo company: listed with their bytes, served, and deletable by its staff', async () => {
    const rows = await t.db.select().from(files).where(eq(files.companyId, DEMO_COMPANY_ID));
    const [product] = await t.db.select().from(products).limit(1);
    const image = product!.images[0]!;
    const row = rows.find((r) => r.path === image.path);
    expect(row).toMatchObject({ width: image.width, height: image.height, widths: image.widths });
    const served = await t.call({ method: 'GET', url: `/files/${image.path}` });
    expect(served.statusCode).toBe(200);
    expect(row!.size).toBe(served.rawPayload.length);
    expect(row!.bytes).toBeGreaterThan(row!.size * 2);

    const staff = await t.user('company_staff', DEMO_COMPANY_ID);
    const other = await t.user('company_admin', await t.company());
    const url = (company: string) => `/api/companies/${company}/files/${image.path}`;
    expect((await t.call({ method: 'DELETE', url: url(DEMO_COMPANY_ID), token: other.token })).statusCode).toBe(404);
    expect((await t.call({ method: 'DELETE', url: url(other.companyId!), token: other.token })).statusCode).toBe(404);
    expect((await t.call({ method: 'DELETE', url: url(DEMO_COMPANY_ID), token: staff.token })).statusCode).toBe(204);
    for (const w of image.widths) {
      const res = await t.call({ method: 'GET', url: `/files/${image.path.replace(/\.webp$/, `-${w}.webp`)}` });
      expect(res.statusCode).toBe(404);
    }
  });
});
