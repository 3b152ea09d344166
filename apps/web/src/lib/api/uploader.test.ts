import { errorTextEs } from '@hornada/domain/errors';
import type { StoredFile } from '@hornada/domain/schemas/files';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type TokenStorage } from './http';
import { createUploader, type UploaderOptions } from './uploader';

/**
 * A scripted XMLHttpRequest: each request sent takes the next step of the script, which plays the
 * network (progress, an answer, an error, silence).
 */
type Step = (x: FakeXhr) => void;
let script: Step[] = [];
let sent: FakeXhr[] = [];

class FakeXhr {
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown = null;
  status = 0;
  responseText = '';
  timeout = 0;
  aborted = false;
  private responseHeaders: Record<string, string> = {};
  upload: { onprogress: ((e: ProgressEvent) => void) | null; onload: (() => void) | null } = {
    onprogress: null,
    onload: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  getResponseHeader(name: string) {
    return this.responseHeaders[name.toLowerCase()] ?? null;
  }
  send(body: unknown) {
    this.body = body;
    sent.push(this);
    const step = script.shift();
    if (step) queueMicrotask(() => step(this));
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent);
  }
  respond(status: number, body: unknown, headers: Record<string, string> = {}) {
    this.upload.onload?.();
    this.status = status;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    this.responseHeaders = headers;
    this.onload?.();
  }
}

const stored: StoredFile = {
  path: 'c1/abc.webp',
  url: '/files/c1/abc.webp',
  contentType: 'image/webp',
  size: 1234,
  width: 960,
  height: 720,
  widths: [320, 480, 720, 960],
};

const ok: Step = (x) => {
  x.progress(50, 100);
  x.progress(100, 100);
  x.respond(201, { data: stored });
};
const answer =
  (status: number, body: unknown = {}, headers: Record<string, string> = {}): Step =>
  (x) =>
    x.respond(status, body, headers);
const networkError: Step = (x) => x.onerror?.();

/** A clock that only moves when the uploader sleeps. */
function setup(extra: Partial<UploaderOptions> = {}) {
  let clock = 0;
  const sleeps: number[] = [];
  let token: string | null = 'tok';
  const tokenStorage: TokenStorage = { get: () => token, remove: () => void (token = null) };
  const onUnauthorized = vi.fn();
  const uploader = createUploader({
    baseUrl: '/api',
    tokenStorage,
    onUnauthorized,
    createXhr: () => new FakeXhr() as unknown as XMLHttpRequest,
    now: () => clock,
    random: () => 0,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      sleeps.push(ms);
      clock += ms;
    },
    ...extra,
  });
  return { uploader, sleeps, onUnauthorized, token: () => token, elapsed: () => clock };
}

const blob = () => new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' });

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

beforeEach(() => {
  script = [];
  sent = [];
});

describe('uploadFile', () => {
  it('posts the file as multipart field "file" with the bearer token, reports progress and resolves the 201 data', async () => {
    const { uploader } = setup();
    script = [ok];
    const progress: number[] = [];
    const file = new File([blob()], 'foto.exe', { type: 'application/octet-stream' });
    const result = await uploader.uploadFile('c 1', file, { onProgress: (f) => progress.push(f) });
    expect(result).toEqual(stored);
    expect(progress).toEqual([0.5, 1, 1]);
    const [x] = sent;
    expect(x!.method).toBe('POST');
    expect(x!.url).toBe('/api/companies/c%201/files');
    expect(x!.headers.authorization).toBe('Bearer tok');
    const form = x!.body as FormData;
    const part = form.get('file') as File;
    expect(part.name).toBe('foto.exe');
    expect(part.size).toBe(4);
  });

  it('retries no answer, 503 and 429 with growing waits (Retry-After honoured), then succeeds', async () => {
    const { uploader, sleeps } = setup();
    script = [networkError, answer(503), answer(429, {}, { 'retry-after': '30' }), ok];
    await expect(uploader.uploadFile('c1', blob())).resolves.toEqual(stored);
    expect(sent).toHaveLength(4);
    expect(sleeps).toEqual([1000, 2000, 30_000]);
  });

  it('gives up with storage/retry-limit-exceeded once the next wait would pass 10 minutes', async () => {
    const { uploader, sleeps, elapsed } = setup();
    script = Array.from({ length: 100 }, () => answer(503, { message: 'Down', code: 'unavailable' }));
    const err = await rejection(uploader.uploadFile('c1', blob()));
    expect(err.code).toBe('storage/retry-limit-exceeded');
    expect(err.userMessage).toBe(errorTextEs('storage/retry-limit-exceeded'));
    expect(err.status).toBe(503);
    expect((err.cause as ApiError).code).toBe('unavailable');
    expect(elapsed()).toBeLessThanOrEqual(600_000);
    // 1, 2, 4 … 64, 64 … seconds: it kept trying for most of the ten minutes.
    expect(elapsed()).toBeGreaterThan(600_000 - 64_000);
    expect(sleeps.slice(0, 7)).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 64_000]);
  });

  it('does not retry what another try cannot fix, and maps it to its Spanish text', async () => {
    for (const [status, code] of [
      [413, 'storage/file-too-large'],
      [415, 'storage/unsupported-type'],
      [402, 'storage/quota-exceeded'],
      [403, 'forbidden'],
    ] as const) {
      const { uploader, sleeps } = setup();
      sent = [];
      script = [answer(status, { message: 'x', error: 'x', code })];
      const err = await rejection(uploader.uploadFile('c1', blob()));
      expect(err.status).toBe(status);
      expect(err.code).toBe(code);
      expect(err.userMessage).toBe(errorTextEs(code));
      expect(err.userMessage).not.toBe(errorTextEs(undefined));
      expect(sent).toHaveLength(1);
      expect(sleeps).toEqual([]);
    }
  });

  it('reads a code from the status when the body has none (a proxy 413 page, a 402)', async () => {
    const { uploader } = setup();
    script = [answer(413, '<html>too big</html>')];
    expect((await rejection(uploader.uploadFile('c1', blob()))).code).toBe('payload_too_large');
    script = [answer(402, '')];
    expect((await rejection(uploader.uploadFile('c1', blob()))).code).toBe('storage/quota-exceeded');
  });

  it('removes the stored token on a 401 and tells the session', async () => {
    const { uploader, onUnauthorized, token } = setup();
    script = [answer(401, { message: 'Authentication required', code: 'unauthenticated' })];
    const err = await rejection(uploader.uploadFile('c1', blob()));
    expect(err.code).toBe('unauthenticated');
    expect(token()).toBeNull();
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('is canceled by its signal while sending: the request is aborted, storage/canceled', async () => {
    const { uploader } = setup();
    const ac = new AbortController();
    script = [(x) => x.progress(10, 100)];
    const p = uploader.uploadFile('c1', blob(), { signal: ac.signal });
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    ac.abort();
    const err = await rejection(p);
    expect(err.code).toBe('storage/canceled');
    expect(err.userMessage).toBe(errorTextEs('storage/canceled'));
    expect(sent[0]!.aborted).toBe(true);
  });

  it('is canceled while waiting to retry, and never starts when already canceled', async () => {
    const ac = new AbortController();
    const { uploader } = setup({
      sleep: (_ms, signal) =>
        new Promise((_resolve, reject) => {
          if (signal?.aborted) reject(signal.reason);
          signal?.addEventListener('abort', () => reject(signal.reason));
        }),
    });
    script = [answer(503)];
    const p = uploader.uploadFile('c1', blob(), { signal: ac.signal });
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    ac.abort();
    expect((await rejection(p)).code).toBe('storage/canceled');
    expect(sent).toHaveLength(1);
    expect((await rejection(uploader.uploadFile('c1', blob(), { signal: ac.signal }))).code).toBe('storage/canceled');
    expect(sent).toHaveLength(1);
  });

  it('gives up a stalled upload and tries again', async () => {
    const { uploader } = setup({ stallMs: 20 });
    script = [(x) => x.progress(1, 100), ok];
    await expect(uploader.uploadFile('c1', blob())).resolves.toEqual(stored);
    expect(sent).toHaveLength(2);
    expect(sent[0]!.aborted).toBe(true);
  });

  it('refuses a file over 5 MB before sending a byte', async () => {
    const { uploader } = setup();
    const big = new Blob([new Uint8Array(5 * 1024 * 1024 + 1)]);
    const err = await rejection(uploader.uploadFile('c1', big));
    expect(err.code).toBe('storage/file-too-large');
    expect(err.userMessage).toBe(errorTextEs('storage/file-too-large'));
    expect(sent).toHaveLength(0);
  });

  it('refuses an answer that is not a stored file', async () => {
    const { uploader } = setup();
    script = [answer(201, { data: { path: 'x' } })];
    expect((await rejection(uploader.uploadFile('c1', blob()))).code).toBe('invalid_response');
  });

  it('takes retry times of 0 or more only (docs/product.md §5); 0 means one try', async () => {
    expect(() => setup({ maxUploadRetryMs: -1 })).toThrow(RangeError);
    expect(() => setup({ maxOperationRetryMs: -1 })).toThrow(RangeError);
    const { uploader } = setup({ maxUploadRetryMs: 0 });
    script = [answer(503)];
    expect((await rejection(uploader.uploadFile('c1', blob()))).code).toBe('storage/retry-limit-exceeded');
    expect(sent).toHaveLength(1);
  });
});

describe('deleteFile', () => {
  it('sends DELETE to the path, each segment encoded', async () => {
    const { uploader } = setup();
    script = [answer(204, '')];
    await uploader.deleteFile('c1', 'c1/a b.webp');
    expect(sent[0]!.method).toBe('DELETE');
    expect(sent[0]!.url).toBe('/api/companies/c1/files/c1/a%20b.webp');
    expect(sent[0]!.headers.authorization).toBe('Bearer tok');
  });

  it('answers storage/object-not-found for a file that is not there', async () => {
    const { uploader } = setup();
    script = [answer(404, { message: 'File not found', code: 'storage/object-not-found' })];
    const err = await rejection(uploader.deleteFile('c1', 'c1/x.webp'));
    expect(err.code).toBe('storage/object-not-found');
    expect(err.userMessage).toBe(errorTextEs('storage/object-not-found'));
  });

  it('counts a 404 after a lost answer as deleted', async () => {
    const { uploader } = setup();
    script = [networkError, answer(404, { code: 'storage/object-not-found' })];
    await expect(uploader.deleteFile('c1', 'c1/x.webp')).resolves.toBeUndefined();
  });

  it('retries for at most 2 minutes', async () => {
    const { uploader, elapsed } = setup();
    script = Array.from({ length: 100 }, () => networkError);
    const err = await rejection(uploader.deleteFile('c1', 'c1/x.webp'));
    expect(err.code).toBe('storage/retry-limit-exceeded');
    expect((err.cause as ApiError).code).toBe('network');
    expect(elapsed()).toBeLessThanOrEqual(120_000);
    expect(elapsed()).toBeGreaterThan(120_000 - 64_000);
  });
});
