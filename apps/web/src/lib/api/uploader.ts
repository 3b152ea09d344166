import {
  FILE_MAX_BYTES,
  REQUEST_TIMEOUT_MS,
  STORAGE_MAX_OPERATION_RETRY_MS,
  STORAGE_MAX_UPLOAD_RETRY_MS,
} from '@hornada/domain/constants';
import { BACK_OFFICE_ERROR_TEXTS_ES } from '@hornada/domain/errors-back-office';
import { StoredFile } from '@hornada/domain/schemas/files';
import { addErrorTexts, errorText } from './error-texts';
import { ApiError, browserTokenStorage, notifyUnauthorized, responseError, type TokenStorage } from './http';

export type { StoredFile };

// The storage codes below are back-office texts: they load with the uploader, not with the storefront.
addErrorTexts(BACK_OFFICE_ERROR_TEXTS_ES);

/**
 * The file storage client (docs/product.md §7 "Other", §5, §8, §9): uploads an image with progress, deletes one, and
 * retries what may pass on a second try (no answer, 408, 429, 5xx) with exponential backoff for at most
 * 10 minutes an upload and 2 minutes a delete, then fails with `storage/retry-limit-exceeded`. XHR, not
 * fetch: only XHR reports upload progress. Errors are the HTTP client's `ApiError` (English `message`,
 * Spanish `userMessage`); an abort through the signal is `storage/canceled`.
 */

export interface UploadOptions {
  /** 0 to 1, as the bytes leave (a retry starts again from 0); 1 once the server has stored the file. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

export interface UploaderOptions {
  /** `/api` in the browser. */
  baseUrl?: string;
  tokenStorage?: TokenStorage;
  onUnauthorized?: () => void;
  /** Spec §9 (10 minutes, 2 minutes); docs/product.md §5: 0 or more (0: no retry). */
  maxUploadRetryMs?: number;
  maxOperationRetryMs?: number;
  /** A delete's answer must come within this; an upload's bytes must keep moving within `stallMs`. */
  timeoutMs?: number;
  stallMs?: number;
  /** Seams for tests. */
  createXhr?: () => XMLHttpRequest;
  now?: () => number;
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface Uploader {
  uploadFile(companyId: string, file: File | Blob, opts?: UploadOptions): Promise<StoredFile>;
  deleteFile(companyId: string, path: string, opts?: { signal?: AbortSignal }): Promise<void>;
}

const MESSAGES = {
  canceled: 'Upload canceled',
  tooLarge: 'File is too large (limit 5 MB)',
  retryLimit: 'Retry limit exceeded',
  noResponse: 'No response from server',
  timeout: 'Request timed out. Please try again.',
  invalid: 'Invalid response format',
  retryTime: 'Retry time must be 0 or more',
} as const;

/** Statuses a later try may turn into a success (as Firebase Storage's client retries). */
const RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
/** Backoff: 1 s, doubling, at most 64 s, plus up to 1 s of jitter so clients do not retry in step. */
const FIRST_WAIT_MS = 1000;
const MAX_WAIT_MS = 64_000;

const clientError = (code: string, message: string, status: number | null = null, data?: unknown) =>
  new ApiError(message, status, code, errorText(code), data);

/** One try's outcome: an answer (any status), or none (network error, timeout, stall). */
type Attempt = { status: number; body: unknown; retryAfterMs: number | null } | { status: null; error: ApiError };

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Retry-After in seconds or as an HTTP date; null when absent or unreadable. */
function retryAfter(header: string | null, now: number): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** `a/b c.webp` → `a/b%20c.webp`: each segment encoded, the slashes kept. */
function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

export function createUploader(options: UploaderOptions = {}): Uploader {
  const baseUrl = (options.baseUrl ?? '/api').replace(/\/+$/, '');
  const tokens = options.tokenStorage ?? browserTokenStorage;
  const maxUpload = options.maxUploadRetryMs ?? STORAGE_MAX_UPLOAD_RETRY_MS;
  const maxOperation = options.maxOperationRetryMs ?? STORAGE_MAX_OPERATION_RETRY_MS;
  if (!(maxUpload >= 0) || !(maxOperation >= 0)) throw new RangeError(MESSAGES.retryTime);
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const stallMs = options.stallMs ?? 3 * REQUEST_TIMEOUT_MS;
  const createXhr = options.createXhr ?? (() => new XMLHttpRequest());
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? defaultSleep;
  const canceled = () => clientError('storage/canceled', MESSAGES.canceled);

  /** One request. Resolves with what happened; rejects only when the signal aborts it. */
  function attempt(
    method: 'POST' | 'DELETE',
    url: string,
    body: FormData | null,
    signal: AbortSignal | undefined,
    onProgress: ((fraction: number) => void) | undefined,
  ): Promise<Attempt> {
    return new Promise((resolve, reject) => {
      const xhr = createXhr();
      let stall: ReturnType<typeof setTimeout> | undefined;
      let settled = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(stall);
        signal?.removeEventListener('abort', onAbort);
        fn();
      };
      const lost = (message: string, code = 'network') =>
        finish(() => resolve({ status: null, error: clientError(code, message) }));
      const onAbort = () => {
        finish(() => reject(canceled()));
        xhr.abort();
      };
      // An upload whose bytes stop moving is given up and tried again, however long the file takes.
      const armStall = () => {
        clearTimeout(stall);
        stall = setTimeout(() => {
          lost(MESSAGES.timeout, 'timeout');
          xhr.abort();
        }, stallMs);
      };

      xhr.open(method, url);
      xhr.setRequestHeader('accept', 'application/json');
      const token = tokens.get();
      if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
      if (body) {
        xhr.upload.onprogress = (e) => {
          armStall();
          if (e.lengthComputable && e.total > 0) onProgress?.(Math.min(1, e.loaded / e.total));
        };
        // Sent: the server now reads, re-encodes and stores it; its answer may take a few seconds.
        xhr.upload.onload = () => {
          clearTimeout(stall);
          xhr.timeout = stallMs;
        };
        armStall();
      } else {
        xhr.timeout = timeoutMs;
      }
      xhr.onload = () =>
        finish(() =>
          resolve({
            status: xhr.status,
            body: parseBody(xhr.responseText),
            retryAfterMs: retryAfter(xhr.getResponseHeader('retry-after'), now()),
          }),
        );
      xhr.onerror = () => lost(MESSAGES.noResponse);
      xhr.ontimeout = () => lost(MESSAGES.timeout, 'timeout');
      xhr.onabort = () => lost(MESSAGES.noResponse);
      signal?.addEventListener('abort', onAbort, { once: true });
      xhr.send(body);
    });
  }

  /**
   * Tries until an answer that is not worth retrying, or until the next wait would end past `maxRetryMs`
   * after the first try: then the last failure becomes `storage/retry-limit-exceeded` (its cause kept).
   */
  async function withRetries(
    maxRetryMs: number,
    signal: AbortSignal | undefined,
    run: (tryNumber: number) => Promise<Attempt>,
  ): Promise<{ status: number; body: unknown; tryNumber: number }> {
    const deadline = now() + maxRetryMs;
    let wait = FIRST_WAIT_MS;
    for (let tryNumber = 1; ; tryNumber++) {
      if (signal?.aborted) throw canceled();
      const result = await run(tryNumber);
      if (result.status !== null && !RETRY_STATUSES.has(result.status)) return { ...result, tryNumber };
      const pause = Math.max(wait + random() * 1000, result.status === null ? 0 : (result.retryAfterMs ?? 0));
      if (now() + pause > deadline) {
        const last = result.status === null ? result.error : responseError(result.status, result.body);
        const error = clientError('storage/retry-limit-exceeded', MESSAGES.retryLimit, last.status, last.data);
        (error as { cause?: unknown }).cause = last;
        throw error;
      }
      try {
        await sleep(pause, signal);
      } catch {
        throw canceled();
      }
      wait = Math.min(wait * 2, MAX_WAIT_MS);
    }
  }

  function failure(status: number, body: unknown): ApiError {
    if (status === 401) {
      tokens.remove();
      options.onUnauthorized?.();
    }
    return responseError(status, body);
  }

  return {
    async uploadFile(companyId, file, opts = {}) {
      // The server refuses it anyway (413): a person learns it at once instead of after the upload.
      if (file.size > FILE_MAX_BYTES) throw clientError('storage/file-too-large', MESSAGES.tooLarge, 413);
      const url = `${baseUrl}/companies/${encodeURIComponent(companyId)}/files`;
      const name = typeof File !== 'undefined' && file instanceof File ? file.name : 'imagen';
      const res = await withRetries(maxUpload, opts.signal, () => {
        const form = new FormData();
        form.append('file', file, name);
        return attempt('POST', url, form, opts.signal, opts.onProgress);
      });
      if (res.status < 200 || res.status >= 300) throw failure(res.status, res.body);
      const data =
        typeof res.body === 'object' && res.body !== null ? (res.body as { data?: unknown }).data : undefined;
      const parsed = StoredFile.safeParse(data);
      if (!parsed.success) throw clientError('invalid_response', MESSAGES.invalid, res.status, res.body);
      opts.onProgress?.(1);
      return parsed.data;
    },

    async deleteFile(companyId, path, opts = {}) {
      const url = `${baseUrl}/companies/${encodeURIComponent(companyId)}/files/${encodePath(path)}`;
      const res = await withRetries(maxOperation, opts.signal, () =>
        attempt('DELETE', url, null, opts.signal, undefined),
      );
      // A 404 on a later try: an earlier one deleted it and its answer was lost.
      if (res.status === 404 && res.tryNumber > 1) return;
      if (res.status < 200 || res.status >= 300) throw failure(res.status, res.body);
    },
  };
}

const browserUploader = createUploader({ onUnauthorized: notifyUnauthorized });

/** Uploads an image of the company (the 201 answer's data), with progress, retries and cancel. */
export function uploadFile(
  companyId: string,
  file: File | Blob,
  opts: { onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
): Promise<StoredFile> {
  return browserUploader.uploadFile(companyId, file, opts);
}

/** Deletes an uploaded image by its `path`, retried for at most 2 minutes. */
export function deleteFile(companyId: string, path: string, opts: { signal?: AbortSignal } = {}): Promise<void> {
  return browserUploader.deleteFile(companyId, path, opts);
}
