import { REQUEST_TIMEOUT_MS } from '@hornada/domain/constants';
import { errorTextEs } from '@hornada/domain/errors';

/** An API failure: `message` is the server's (English, spec §8); `userMessage` is what a person reads. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly code: string | undefined,
    readonly userMessage: string,
  ) {
    super(message);
  }
}

/** GET JSON with the spec's 10 s timeout and its error texts (spec §8). */
export async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let res: Response;
  try {
    res = await fetch(url, { headers: { accept: 'application/json' }, signal: combined });
  } catch (err) {
    if (timeout.aborted) {
      throw new ApiError(
        'Request timed out. Please try again.',
        null,
        'timeout',
        'La solicitud tardó demasiado. Intenta de nuevo.',
      );
    }
    if (signal?.aborted) throw err;
    throw new ApiError(
      'No response from server',
      null,
      'network',
      'No pudimos conectarnos. Revisa tu conexión e intenta de nuevo.',
    );
  }
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const b = (body ?? {}) as { message?: string; error?: string; code?: string };
    throw new ApiError(b.message ?? b.error ?? 'Server error', res.status, b.code, errorTextEs(b.code ?? 'internal'));
  }
  if (!body || typeof body !== 'object' || !('data' in body)) {
    throw new ApiError('Invalid response format', res.status, 'invalid_response', errorTextEs(undefined));
  }
  return body as T;
}
