import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorTextEs } from '@hornada/domain/errors';
import { AUTH_ERROR_TEXTS_ES } from '@hornada/domain/errors-auth';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { addErrorTexts } from './error-texts';
import { ApiError, AUTH_TOKEN_KEY, browserTokenStorage, createHttpClient, type TokenStorage } from './http';

// In the app the auth store adds the sign-in texts when it loads (error-texts.test.ts covers the split).
addErrorTexts(AUTH_ERROR_TEXTS_ES);

/** A real HTTP server on 127.0.0.1: each route plays one row of docs/product.md §8 or one list shape of §7. */
type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

const routes: Record<string, Handler> = {
  'GET /api/ok': (_req, res) => json(res, 200, { data: { id: 'p1', name: 'Pan' } }),
  'GET /api/null': (_req, res) => json(res, 200, { data: null }),
  'GET /api/echo': (req, res) =>
    json(res, 200, {
      data: { url: req.url, authorization: req.headers.authorization ?? null, session: req.headers['x-session-id'] },
    }),
  'POST /api/echo': (req, res, body) =>
    json(res, 201, { data: { method: req.method, contentType: req.headers['content-type'], body: JSON.parse(body) } }),
  'PUT /api/echo': (req, res, body) => json(res, 200, { data: { method: req.method, body: JSON.parse(body) } }),
  'PATCH /api/echo': (req, res, body) => json(res, 200, { data: { method: req.method, body: JSON.parse(body) } }),
  'DELETE /api/echo': (req, res) => json(res, 200, { data: { method: req.method } }),
  'DELETE /api/gone': (_req, res) => res.writeHead(204).end(),
  // §8 server error rows
  'GET /api/unauthorized': (_req, res) =>
    json(res, 401, {
      message: 'Invalid or expired token',
      error: 'Invalid or expired token',
      code: 'auth/invalid-token',
    }),
  'GET /api/wrong-password': (_req, res) =>
    json(res, 401, {
      message: 'Invalid email or password.',
      error: 'Invalid email or password.',
      code: 'auth/invalid-credential',
    }),
  'GET /api/forbidden': (_req, res) => json(res, 403, { message: 'Forbidden', error: 'Forbidden', code: 'forbidden' }),
  'POST /api/validation': (_req, res) =>
    json(res, 400, {
      message: 'Validation failed',
      error: 'Validation failed',
      code: 'validation',
      details: [{ path: 'items.0.quantity', message: 'Too small' }, { bogus: true }],
    }),
  'GET /api/message-and-error': (_req, res) =>
    json(res, 422, { message: 'Order cannot be cancelled', error: 'Unprocessable', code: 'business_rule' }),
  'GET /api/error-only': (_req, res) => json(res, 409, { error: 'Already taken' }),
  'GET /api/empty-500': (_req, res) => res.writeHead(500).end(),
  'GET /api/html-502': (_req, res) =>
    res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>Bad gateway</body></html>'),
  'GET /api/rate-limited': (_req, res) =>
    json(res, 429, { message: 'Too many requests', error: 'Too many requests', code: 'rate_limited' }),
  // §8 rows with no usable response
  'GET /api/hang': () => {}, // never answers
  'GET /api/hang-body': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"data":'); // headers and half a body, then silence
  },
  'GET /api/destroy': (req) => req.socket.destroy(),
  'GET /api/cut-body': (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
    res.write('{"data":');
    setTimeout(() => req.socket.destroy(), 10);
  },
  // invalid shapes
  'GET /api/not-json': (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"data": [1,'),
  'GET /api/no-envelope': (_req, res) => json(res, 200, { id: 'p1' }),
  'GET /api/array': (_req, res) => json(res, 200, [1, 2]),
  'GET /api/empty-200': (_req, res) => res.writeHead(200).end(),
  // list shapes of §7
  'GET /api/list-data': (req, res) =>
    json(res, 200, { data: [{ id: 'a' }, { id: 'b' }], total: 12, page: 2, perPage: 2, query: req.url }),
  'GET /api/list-data-items': (_req, res) =>
    json(res, 200, { data: { items: [{ id: 'a' }], total: 5, page: 3 }, message: 'ok' }),
  'GET /api/list-data-data': (_req, res) => json(res, 200, { data: { data: [{ id: 'a' }, { id: 'b' }], total: 7 } }),
  'GET /api/list-items': (_req, res) => json(res, 200, { items: [{ id: 'z' }], total: 1, page: 1 }),
  'GET /api/list-bare': (_req, res) => json(res, 200, { data: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] }),
  'GET /api/list-none': (_req, res) => json(res, 200, { data: { id: 'a' } }),
};

let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const handler = routes[`${req.method} ${path}`];
      if (handler) handler(req, res, body);
      else json(res, 404, { message: 'Not found', error: 'Not found', code: 'not_found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** An in-memory token store, as the browser's local storage would hold it. */
function memoryTokens(initial: string | null = 'tok-123'): TokenStorage & { value: string | null } {
  const store = {
    value: initial,
    get: () => store.value,
    remove: () => {
      store.value = null;
    },
  };
  return store;
}

function client(tokens: TokenStorage = memoryTokens(), timeoutMs = 1000, onUnauthorized?: () => void) {
  return createHttpClient({ baseUrl: `${origin}/api`, timeoutMs, tokenStorage: tokens, onUnauthorized });
}

/** The rejection of `promise`, which must reject. */
async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const outcome = await promise.then(
    () => null,
    (err: unknown) => err,
  );
  expect(outcome).toBeInstanceOf(ApiError);
  return outcome as ApiError;
}

describe('requests', () => {
  it('reads the data of the envelope under the base URL, with the stored token as bearer', async () => {
    const api = client();
    await expect(api.get('/ok')).resolves.toEqual({ id: 'p1', name: 'Pan' });
    await expect(api.get('echo')).resolves.toMatchObject({ authorization: 'Bearer tok-123' });
    await expect(api.get('/null')).resolves.toBeNull();
  });

  it('sends no Authorization header without a token, and lets the caller add headers', async () => {
    const api = client(memoryTokens(null));
    await expect(api.get('/echo', { headers: { 'X-Session-Id': 's'.repeat(20) } })).resolves.toEqual({
      url: '/api/echo',
      authorization: null,
      session: 's'.repeat(20),
    });
  });

  it('reads the token afresh on every request', async () => {
    const tokens = memoryTokens(null);
    const api = client(tokens);
    await expect(api.get('/echo')).resolves.toMatchObject({ authorization: null });
    tokens.value = 'new-token';
    await expect(api.get('/echo')).resolves.toMatchObject({ authorization: 'Bearer new-token' });
  });

  it('builds the query: arrays comma-separated, null and undefined left out', async () => {
    const api = client();
    const echoed = await api.get<{ url: string }>('/echo', {
      query: { page: 2, per_page: 10, sort: '-createdAt', status: ['pending', 'ready'], search: undefined, x: null },
    });
    const params = new URL(echoed.url, origin).searchParams;
    expect([...params.entries()]).toEqual([
      ['page', '2'],
      ['per_page', '10'],
      ['sort', '-createdAt'],
      ['status', 'pending,ready'],
    ]);
  });

  it('sends JSON bodies with post, put and patch, and uses delete', async () => {
    const api = client();
    await expect(api.post('/echo', { name: 'Pan' })).resolves.toEqual({
      method: 'POST',
      contentType: 'application/json',
      body: { name: 'Pan' },
    });
    await expect(api.put('/echo', { a: 1 })).resolves.toEqual({ method: 'PUT', body: { a: 1 } });
    await expect(api.patch('/echo', { b: 2 })).resolves.toEqual({ method: 'PATCH', body: { b: 2 } });
    await expect(api.delete('/echo')).resolves.toEqual({ method: 'DELETE' });
    await expect(api.request('PATCH', '/echo', { c: 3 })).resolves.toEqual({ method: 'PATCH', body: { c: 3 } });
  });

  it('resolves a 204 to undefined', async () => {
    await expect(client().delete('/gone')).resolves.toBeUndefined();
  });
});

describe('the error rows of docs/product.md §8', () => {
  it('HTTP 401: removes the stored token, tells the auth store, and raises the server message', async () => {
    const tokens = memoryTokens('expired');
    const onUnauthorized = vi.fn();
    const err = await failure(client(tokens, 1000, onUnauthorized).get('/unauthorized'));
    expect(tokens.value).toBeNull();
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(err.message).toBe('Invalid or expired token');
    expect(err.status).toBe(401);
    expect(err.code).toBe('auth/invalid-token');
    expect(err.userMessage).toBe('Tu sesión expiró. Inicia sesión de nuevo.');
  });

  it('other statuses leave the token alone', async () => {
    const tokens = memoryTokens('good');
    await failure(client(tokens).get('/forbidden'));
    await failure(client(tokens).get('/empty-500'));
    expect(tokens.value).toBe('good');
  });

  it('a wrong password reads in Spanish', async () => {
    const err = await failure(client(memoryTokens(null)).get('/wrong-password'));
    expect(err.message).toBe('Invalid email or password.');
    expect(err.userMessage).toBe('Correo o contraseña incorrectos.');
  });

  it('timeout: rejects with the exact message once the timeout passes', async () => {
    const api = client(memoryTokens(), 100);
    const started = performance.now();
    const err = await failure(api.get('/hang'));
    const elapsed = performance.now() - started;
    expect(err.message).toBe('Request timed out. Please try again.');
    expect(err.code).toBe('timeout');
    expect(err.status).toBeNull();
    expect(err.userMessage).toBe(errorTextEs('timeout'));
    expect(elapsed).toBeGreaterThanOrEqual(95);
    expect(elapsed).toBeLessThan(2000);
  });

  it('timeout: also when the headers came but the body stalls', async () => {
    const err = await failure(client(memoryTokens(), 100).get('/hang-body'));
    expect(err.message).toBe('Request timed out. Please try again.');
  });

  it('defaults to the spec’s 10 s timeout', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const api = createHttpClient({ baseUrl: `${origin}/api`, tokenStorage: memoryTokens() });
      const pending = failure(api.get('/hang'));
      await vi.advanceTimersByTimeAsync(9_990);
      let settled = false;
      void pending.then(() => (settled = true));
      await vi.advanceTimersByTimeAsync(0);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(20);
      expect((await pending).message).toBe('Request timed out. Please try again.');
    } finally {
      vi.useRealTimers();
    }
  });

  it('server error with a response: the body message first', async () => {
    const err = await failure(client().post('/validation', { items: [] }));
    expect(err.message).toBe('Validation failed');
    expect(err.status).toBe(400);
    expect(err.code).toBe('validation');
    expect(err.data).toMatchObject({ code: 'validation', error: 'Validation failed' });
    expect(err.details).toEqual([{ path: 'items.0.quantity', message: 'Too small' }]);
    expect(err.userMessage).toBe('Revisa los datos: hay campos con errores.');

    const both = await failure(client().get('/message-and-error'));
    expect(both.message).toBe('Order cannot be cancelled');
    expect(both.status).toBe(422);
    expect(both.userMessage).toBe(errorTextEs('business_rule'));
  });

  it('server error with a response: else the body error, the code read from the status', async () => {
    const err = await failure(client().get('/error-only'));
    expect(err.message).toBe('Already taken');
    expect(err.status).toBe(409);
    expect(err.code).toBe('conflict');
    expect(err.data).toEqual({ error: 'Already taken' });
    expect(err.userMessage).toBe(errorTextEs('conflict'));
  });

  it("server error with a response: else 'Server error', with status and data attached", async () => {
    const empty = await failure(client().get('/empty-500'));
    expect(empty.message).toBe('Server error');
    expect(empty.status).toBe(500);
    expect(empty.code).toBe('internal');
    expect(empty.data).toBeUndefined();

    const html = await failure(client().get('/html-502'));
    expect(html.message).toBe('Server error');
    expect(html.status).toBe(502);
    expect(html.data).toBe('<html><body>Bad gateway</body></html>');
    expect(html.userMessage).toBe(errorTextEs('unavailable'));

    const limited = await failure(client().get('/rate-limited'));
    expect(limited.status).toBe(429);
    expect(limited.userMessage).toBe('Demasiados intentos. Espera un momento e intenta de nuevo.');

    const missing = await failure(client().get('/nowhere'));
    expect([missing.status, missing.code, missing.message]).toEqual([404, 'not_found', 'Not found']);
  });

  it("no response: 'No response from server' when the server drops the connection", async () => {
    const err = await failure(client().get('/destroy'));
    expect(err.message).toBe('No response from server');
    expect(err.code).toBe('network');
    expect(err.status).toBeNull();
    expect(err.userMessage).toBe(errorTextEs('network'));
  });

  it("no response: 'No response from server' when the connection breaks mid-body", async () => {
    const err = await failure(client().get('/cut-body'));
    expect(err.message).toBe('No response from server');
  });

  it("no response: 'No response from server' when nothing listens on the port", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const api = createHttpClient({ baseUrl: `http://127.0.0.1:${port}/api`, tokenStorage: memoryTokens() });
    const err = await failure(api.get('/ok'));
    expect(err.message).toBe('No response from server');
    expect(err.code).toBe('network');
  });

  it('other: the error’s own message when the request cannot be built', async () => {
    const unsendable = { price: 10n }; // JSON.stringify throws on a BigInt
    const err = await failure(client().post('/echo', unsendable));
    expect(err.message).toMatch(/BigInt/);
    expect(err.code).toBe('request_failed');
    expect(err.status).toBeNull();
    expect(err.userMessage).toBe(errorTextEs('request_failed'));

    // No page origin in node: the relative `/api` base cannot make a URL.
    const relative = await failure(createHttpClient({ tokenStorage: memoryTokens() }).get('/ok'));
    expect(relative.code).toBe('request_failed');
    expect(relative.message).not.toBe('Request failed');
  });

  it("other: 'Request failed' when the error has no message", async () => {
    const err = await failure(
      client().post('/echo', {
        toJSON() {
          throw { reason: 'no message here' };
        },
      }),
    );
    expect(err.message).toBe('Request failed');
    expect(err.code).toBe('request_failed');
  });

  it("invalid response shape: 'Invalid response format'", async () => {
    for (const path of ['/not-json', '/no-envelope', '/array', '/empty-200']) {
      const err = await failure(client().get(path));
      expect(err.message, path).toBe('Invalid response format');
      expect(err.code, path).toBe('invalid_response');
      expect(err.status, path).toBe(200);
    }
    const text = await failure(client().get('/not-json'));
    expect(text.data).toBe('{"data": [1,');
  });

  it('a caller’s abort rejects with its AbortError, not an ApiError, and keeps the token', async () => {
    const tokens = memoryTokens('keep');
    const controller = new AbortController();
    const pending = client(tokens, 150).get('/hang');
    setTimeout(() => controller.abort(), 20);
    const aborted = client(tokens).get('/hang', { signal: controller.signal });
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    await expect(aborted).rejects.not.toBeInstanceOf(ApiError);
    expect(tokens.value).toBe('keep');
    await expect(pending).rejects.toMatchObject({ message: 'Request timed out. Please try again.' });
  });
});

describe('lists', () => {
  it('reads `data` as an array with total, page and perPage', async () => {
    const list = await client().list<{ id: string }>('/list-data', { query: { page: 2, per_page: 2 } });
    expect(list).toEqual({ items: [{ id: 'a' }, { id: 'b' }], total: 12, page: 2, perPage: 2 });
  });

  it('reads `data.items`', async () => {
    await expect(client().list('/list-data-items')).resolves.toEqual({
      items: [{ id: 'a' }],
      total: 5,
      page: 3,
      message: 'ok',
    });
  });

  it('reads `data.data`', async () => {
    await expect(client().list('/list-data-data')).resolves.toEqual({
      items: [{ id: 'a' }, { id: 'b' }],
      total: 7,
      page: 1,
    });
  });

  it('reads `items`', async () => {
    await expect(client().list('/list-items')).resolves.toEqual({ items: [{ id: 'z' }], total: 1, page: 1 });
  });

  it('counts the items and starts at page 1 when total and page are missing', async () => {
    await expect(client().list('/list-bare')).resolves.toMatchObject({ total: 3, page: 1 });
  });

  it("raises 'Invalid response format' when no list is there", async () => {
    for (const path of ['/list-none', '/no-envelope', '/not-json']) {
      const err = await failure(client().list(path));
      expect(err.message, path).toBe('Invalid response format');
    }
  });
});

describe('the browser token storage', () => {
  function memoryStorage(): Storage {
    const map = new Map<string, string>();
    return {
      get length() {
        return map.size;
      },
      clear: () => map.clear(),
      getItem: (k) => map.get(k) ?? null,
      key: (i) => [...map.keys()][i] ?? null,
      removeItem: (k) => void map.delete(k),
      setItem: (k, v) => void map.set(k, String(v)),
    };
  }

  it('reads and removes `auth-token` from local storage in a browser', async () => {
    const localStorage = memoryStorage();
    localStorage.setItem(AUTH_TOKEN_KEY, 'from-storage');
    localStorage.setItem('other', 'kept');
    vi.stubGlobal('window', { localStorage });
    const api = createHttpClient({ baseUrl: `${origin}/api` });
    await expect(api.get('/echo')).resolves.toMatchObject({ authorization: 'Bearer from-storage' });
    await failure(api.get('/unauthorized'));
    expect(localStorage.getItem(AUTH_TOKEN_KEY)).toBeNull();
    expect(localStorage.getItem('other')).toBe('kept');
  });

  it('is empty where there is no window (the server)', () => {
    expect(browserTokenStorage.get()).toBeNull();
    expect(() => browserTokenStorage.remove()).not.toThrow();
  });
});
