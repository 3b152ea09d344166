import type { ApiErrorBody, ErrorCode } from '@hornada/domain';

export type Detail = { path: string; message: string };

/** The most `details` an error body lists; its message still counts them all. */
export const MAX_DETAILS = 20;

/**
 * The one error type of the API (style habit 6): a status, a stable code and an English message. The code
 * is one of the domain's (packages/domain errors.ts), so a code the web has no Spanish text for does not compile.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: Detail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  toBody(): ApiErrorBody {
    const body: ApiErrorBody = { message: this.message, error: this.message, code: this.code };
    if (this.details && this.details.length > 0) body.details = this.details.slice(0, MAX_DETAILS);
    return body;
  }
}

export const badRequest = (message: string, details?: Detail[]) => new AppError(400, 'validation', message, details);
export const unauthenticated = (message = 'Authentication required') => new AppError(401, 'unauthenticated', message);
export const forbidden = (message = 'You do not have permission to do this', details?: Detail[]) =>
  new AppError(403, 'forbidden', message, details);
export const notFound = (message = 'Not found') => new AppError(404, 'not_found', message);
export const conflict = (message: string) => new AppError(409, 'conflict', message);

/**
 * "Invalid request: a: msg; b: msg (and N more)": names the first fields so a caller can fix them,
 * and counts them all. `total` is the true count when `details` holds only the first ones.
 */
export function validationError(details: Detail[], total = details.length): AppError {
  const summary = details
    .slice(0, 5)
    .map((d) => (d.path ? `${d.path}: ${d.message}` : d.message))
    .join('; ');
  const more = total > 5 ? ` (and ${total - 5} more)` : '';
  return badRequest(`Invalid request: ${summary}${more}`, details.slice(0, MAX_DETAILS));
}

/**
 * Details gathered from an input of any size: the first MAX_DETAILS are kept, the rest only
 * counted, so a body of 100,000 bad fields never becomes 100,000 objects.
 */
export class DetailList {
  readonly items: Detail[] = [];
  total = 0;

  add(path: string, message: string): void {
    this.total++;
    if (this.items.length < MAX_DETAILS) this.items.push({ path, message });
  }

  /** `count` details at once, of which only those still listed are built. */
  addMany(count: number, detail: (i: number) => Detail): void {
    const room = Math.min(count, MAX_DETAILS - this.items.length);
    for (let i = 0; i < room; i++) this.items.push(detail(i));
    this.total += count;
  }

  toError(): AppError {
    return validationError(this.items, this.total);
  }
}

/**
 * A zod failure raised inside a service (not by route validation) as the same 400. Zod lists every
 * unknown key in one issue: each is a detail, as in route validation, and only the first are built.
 */
export function fromZodIssues(
  issues: readonly { path: readonly PropertyKey[]; message: string; code?: string; keys?: unknown }[],
  prefix = '',
): AppError {
  const list = new DetailList();
  for (const i of issues) {
    const path = prefix + i.path.map(String).join('.');
    if (i.code === 'unrecognized_keys' && Array.isArray(i.keys)) {
      const keys = i.keys as unknown[];
      list.addMany(keys.length, (k) => ({
        path: [path, String(keys[k])].filter(Boolean).join('.'),
        message: 'Unknown field',
      }));
    } else list.add(path, i.message);
  }
  return list.toError();
}

/**
 * The SQLSTATE of a PostgreSQL error, also when wrapped: drizzle throws DrizzleQueryError with the
 * driver's error in `cause`.
 */
export function pgErrorCode(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    // Five characters with a digit: a SQLSTATE, not a Node error code such as EPIPE.
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && /\d/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The safety net for database errors that validation should have caught first: bad data is the
 * caller's (400), a duplicate a conflict (409), a serialization failure or deadlock a conflict the
 * caller may retry (409). Messages are generic: nothing of the SQL or its values leaves the server.
 */
export function fromDatabaseError(err: unknown): AppError | null {
  const code = pgErrorCode(err);
  // The database cannot be reached, is restarting, or no pool connection freed up in time: nothing was
  // written and the caller may retry (503), as /api/health says.
  if (unreachable(err) || (code && (code.startsWith('08') || code === '57P01' || code === '57P03'))) {
    return new AppError(503, 'unavailable', 'The database is not available right now; please retry', undefined, {
      'retry-after': '5',
    });
  }
  if (!code) return null;
  if (code.startsWith('22')) return badRequest('Invalid request: a value is not valid for its field');
  if (code === '23505') return conflict('A record with these values already exists');
  if (code === '40001' || code === '40P01') {
    return conflict('The request conflicted with another one made at the same moment; please retry');
  }
  // Canceled by the statement timeout (DB_STATEMENT_TIMEOUT_MS): the database is overloaded or the
  // request waited too long for a lock; nothing was written. Not the caller's fault: a 503 to retry.
  if (code === '57014') {
    return new AppError(503, 'database_timeout', 'The database took too long to answer; please retry', undefined, {
      'retry-after': '5',
    });
  }
  return null;
}

/** A driver error that means no connection: refused, cut, or none free in the pool in time. */
function unreachable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (code === 'ECONNREFUSED' || code === 'ECONNRESET') return true;
    if (typeof message === 'string' && /timeout exceeded when trying to connect|Connection terminated/.test(message))
      return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** What a log may keep of a database error: its code and text, never the query's parameters. */
export function loggableError(err: unknown): unknown {
  const code = pgErrorCode(err);
  if (!code || !(err instanceof Error)) return err;
  const cause = (err as { cause?: unknown }).cause;
  const pgErr = cause instanceof Error ? cause : err;
  return {
    type: 'DatabaseError',
    code,
    message: pgErr.message,
    query: (err as { query?: unknown }).query,
    stack: pgErr.stack,
  };
}
