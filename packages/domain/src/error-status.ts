import type { ErrorCode } from './errors';

/**
 * The code to read when an error response carries none (a proxy's 502 page, say): the API's own
 * status-to-code pairs of docs/design.md §3, any other 4xx a bad request and any other 5xx internal.
 */
export function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return 'unauthenticated';
    case 402:
      return 'storage/quota-exceeded';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 409:
      return 'conflict';
    case 412:
      return 'precondition_failed';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 422:
      return 'business_rule';
    case 429:
      return 'rate_limited';
    case 501:
      return 'not_implemented';
    case 502:
    case 503:
    case 504:
      return 'unavailable';
    default:
      return status >= 500 ? 'internal' : 'bad_request';
  }
}

/** The error envelope of docs/design.md §3. */
export interface ApiErrorBody {
  message: string;
  error: string;
  code: string;
  details?: { path: string; message: string }[];
}
