import { REQUEST_TIMEOUT_MS } from '@hornada/domain/constants';
import { codeForStatus, type ApiErrorBody } from '@hornada/domain/error-status';
import { errorText } from './error-texts';
import { browserTokenStorage, notifyUnauthorized, type TokenStorage } from '../auth/token-storage';

/**
 * The web's HTTP client (docs/product.md §7 and §8, docs/design.md §3): JSON over `/api`, the stored token as a bearer,
 * a 10 s timeout, and the spec's error rows. Errors keep the spec's English `message` (for code and
 * tests) and carry `userMessage`, the Spanish text a person reads for the error's `code`.
 */

export {
  AUTH_TOKEN_KEY,
  browserStorage,
  browserTokenStorage,
  notifyUnauthorized,
  setUnauthorizedHandler,
  type TokenStorage,
} from '../auth/token-storage';

/** Codes the client raises itself, for the rows of docs/product.md §8 with no server answer behind them. */
export type ClientErrorCode = 'timeout' | 'network' | 'invalid_response' | 'request_failed';

/**
 * An API failure: `message` is the spec's English text (§8) or the server's; `userMessage` is what a person
 * reads; `status` is null when no response came; `data` is the response body (parsed JSON, else its text).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    message: string,
    readonly status: number | null,
    readonly code: string | undefined,
    readonly userMessage: string,
    readonly data?: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** The per-field messages of a validation error (docs/design.md §3), empty when there are none. */
  get details(): NonNullable<ApiErrorBody['details']> {
    if (!isRecord(this.data) || !Array.isArray(this.data.details)) return [];
    return this.data.details.filter(
      (d): d is { path: string; message: string } =>
        isRecord(d) && typeof d.path === 'string' && typeof d.message === 'string',
    );
  }
}

function clientError(
  code: ClientErrorCode,
  message: string,
  status: number | null = null,
  data?: unknown,
  cause?: unknown,
) {
  return new ApiError(message, status, code, errorText(code), data, cause === undefined ? undefined : { cause });
}

const MESSAGES = {
  timeout: 'Request timed out. Please try again.',
  noResponse: 'No response from server',
  server: 'Server error',
  other: 'Request failed',
  invalid: 'Invalid response format',
} as const;

type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];
/** Query parameters: null and undefined are left out, arrays are sent comma-separated ("any of", docs/design.md §3). */
export type Query = Record<string, QueryValue>;

export interface RequestOptions {
  query?: Query;
  headers?: Record<string, string>;
  /** Aborting it rejects with the signal's reason (an AbortError), not an ApiError: nobody needs to read it. */
  signal?: AbortSignal;
}

export interface HttpClientOptions {
  /** `/api` in the browser; an absolute URL where there is no page origin (tests, the server). */
  baseUrl?: string;
  /** Spec §9: 10 000 ms. */
  timeoutMs?: number;
  tokenStorage?: TokenStorage;
  /** Called after a 401 has removed the stored token, so the auth store can drop the user. */
  onUnauthorized?: () => void;
}

/** A list answer in any of the shapes docs/product.md §7 names, read into one. */
export interface ListResponse<T> {
  items: T[];
  total: number;
  page: number;
  perPage?: number;
  message?: string;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface HttpClient {
  /** Any method (docs/product.md §7's generic custom request); resolves to the envelope's `data` (undefined on 204). */
  request<T>(method: HttpMethod, path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  put<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  patch<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  delete<T>(path: string, options?: RequestOptions): Promise<T>;
  /** GET a list and read items, total and page from whichever shape it came in. */
  list<T>(path: string, options?: RequestOptions): Promise<ListResponse<T>>;
  /** A GET whose answer is a file (a CSV export): its bytes as they came; errors as for every call. */
  download(path: string, options?: RequestOptions): Promise<Blob>;
  /** The whole parsed body of a successful answer, unchecked (undefined on 204). */
  send(method: HttpMethod, path: string, body?: unknown, options?: RequestOptions): Promise<unknown>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function finiteNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function buildUrl(baseUrl: string, path: string, query: Query | undefined): string {
  const url = /^https?:\/\//i.test(path) ? path : `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === null || value === undefined) continue;
    params.append(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const search = params.toString();
  return search ? `${url}${url.includes('?') ? '&' : '?'}${search}` : url;
}

function isRawBody(body: unknown): body is BodyInit {
  return (
    (typeof FormData !== 'undefined' && body instanceof FormData) ||
    (typeof Blob !== 'undefined' && body instanceof Blob) ||
    body instanceof URLSearchParams ||
    body instanceof ArrayBuffer
  );
}

/**
 * "Server error with response" row of docs/product.md §8: body message, else body error, else 'Server error'; the
 * code is the body's, else the one its status implies.
 */
export function responseError(status: number, parsed: unknown): ApiError {
  const fields = isRecord(parsed) ? parsed : {};
  const code = nonEmptyString(fields.code) ?? codeForStatus(status);
  const message = nonEmptyString(fields.message) ?? nonEmptyString(fields.error) ?? MESSAGES.server;
  return new ApiError(message, status, code, errorText(code), parsed);
}

/** "Other" row of docs/product.md §8: the error's own message, else 'Request failed'. */
function otherError(err: unknown): ApiError {
  const message = err instanceof Error && err.message ? err.message : MESSAGES.other;
  return clientError('request_failed', message, null, undefined, err);
}

/** Reads a list from `data` (array), `data.items`, `data.data` or `items` (docs/product.md §7). */
export function readList<T>(body: unknown, status: number | null = null): ListResponse<T> {
  const invalid = () => clientError('invalid_response', MESSAGES.invalid, status, body);
  if (!isRecord(body)) throw invalid();
  const data = body.data;
  let items: unknown;
  let inner: Record<string, unknown> = {};
  if (Array.isArray(data)) items = data;
  else if (isRecord(data) && Array.isArray(data.items)) [items, inner] = [data.items, data];
  else if (isRecord(data) && Array.isArray(data.data)) [items, inner] = [data.data, data];
  else if (Array.isArray(body.items)) items = body.items;
  else throw invalid();
  const list = items as T[];
  const perPage = finiteNumber(body.perPage) ?? finiteNumber(inner.perPage);
  const message = nonEmptyString(body.message) ?? nonEmptyString(inner.message);
  return {
    items: list,
    total: finiteNumber(body.total) ?? finiteNumber(inner.total) ?? list.length,
    page: finiteNumber(body.page) ?? finiteNumber(inner.page) ?? 1,
    ...(perPage === undefined ? {} : { perPage }),
    ...(message === undefined ? {} : { message }),
  };
}

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const baseUrl = options.baseUrl ?? '/api';
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const tokens = options.tokenStorage ?? browserTokenStorage;

  async function exchange(
    method: HttpMethod,
    path: string,
    body: unknown,
    { query, headers, signal }: RequestOptions = {},
    asFile = false,
  ): Promise<{ status: number; body: unknown; file?: Blob }> {
    signal?.throwIfAborted();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException(MESSAGES.timeout, 'TimeoutError'));
    }, timeoutMs);
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });

    /** A failure once the request left: the timeout, the caller's abort, or no (complete) response. */
    const lost = (err: unknown): unknown => {
      if (timedOut) return clientError('timeout', MESSAGES.timeout, null, undefined, err);
      if (signal?.aborted) return signal.reason ?? err;
      return clientError('network', MESSAGES.noResponse, null, undefined, err);
    };

    try {
      let request: Request;
      try {
        const all: Record<string, string> = { accept: 'application/json' };
        const token = tokens.get();
        if (token) all.authorization = `Bearer ${token}`;
        let payload: BodyInit | undefined;
        if (body !== undefined && isRawBody(body)) payload = body;
        else if (body !== undefined) {
          payload = JSON.stringify(body);
          all['content-type'] = 'application/json';
        }
        for (const [name, value] of Object.entries(headers ?? {})) all[name.toLowerCase()] = value;
        request = new Request(buildUrl(baseUrl, path, query), {
          method,
          headers: all,
          body: payload,
          signal: controller.signal,
        });
      } catch (err) {
        throw otherError(err);
      }

      let res: Response;
      let text: string;
      let file: Blob | undefined;
      try {
        res = await fetch(request);
        // A file keeps its bytes (a CSV's byte-order mark included, which text() would drop).
        if (asFile && res.ok) file = await res.blob();
        text = file ? '' : await res.text();
      } catch (err) {
        throw lost(err);
      }
      if (file) return { status: res.status, body: undefined, file };

      let parsed: unknown = undefined;
      let parses = true;
      if (text !== '') {
        try {
          parsed = JSON.parse(text);
        } catch {
          parses = false;
          parsed = text;
        }
      }

      if (!res.ok) {
        if (res.status === 401) {
          tokens.remove();
          options.onUnauthorized?.();
        }
        throw responseError(res.status, parsed);
      }
      if (!parses) throw clientError('invalid_response', MESSAGES.invalid, res.status, parsed);
      return { status: res.status, body: parsed };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  async function request<T>(method: HttpMethod, path: string, body?: unknown, opts?: RequestOptions): Promise<T> {
    const res = await exchange(method, path, body, opts);
    if (res.status === 204) return undefined as T;
    if (!isRecord(res.body) || !('data' in res.body)) {
      throw clientError('invalid_response', MESSAGES.invalid, res.status, res.body);
    }
    return res.body.data as T;
  }

  return {
    request,
    get: (path, opts) => request('GET', path, undefined, opts),
    post: (path, body, opts) => request('POST', path, body, opts),
    put: (path, body, opts) => request('PUT', path, body, opts),
    patch: (path, body, opts) => request('PATCH', path, body, opts),
    delete: (path, opts) => request('DELETE', path, undefined, opts),
    async list<T>(path: string, opts?: RequestOptions) {
      const res = await exchange('GET', path, undefined, opts);
      return readList<T>(res.body, res.status);
    },
    async download(path: string, opts?: RequestOptions) {
      const res = await exchange(
        'GET',
        path,
        undefined,
        { ...opts, headers: { accept: '*/*', ...opts?.headers } },
        true,
      );
      return res.file ?? new Blob([]);
    },
    async send(method, path, body, opts) {
      return (await exchange(method, path, body, opts)).body;
    },
  };
}

/** The browser's client: `/api`, the token from local storage. */
export const http = createHttpClient({ onUnauthorized: notifyUnauthorized });
