import type { ApiErrorBody } from '@hornada/domain';

export type Detail = { path: string; message: string };

/** The one error type of the API (style habit 6): a status, a stable code and an English message. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: Detail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  toBody(): ApiErrorBody {
    const body: ApiErrorBody = { message: this.message, error: this.message, code: this.code };
    if (this.details && this.details.length > 0) body.details = this.details;
    return body;
  }
}

export const badRequest = (message: string, details?: Detail[]) => new AppError(400, 'validation', message, details);
export const unauthenticated = (message = 'Authentication required') => new AppError(401, 'unauthenticated', message);
export const forbidden = (message = 'You do not have permission to do this', details?: Detail[]) =>
  new AppError(403, 'forbidden', message, details);
export const notFound = (message = 'Not found') => new AppError(404, 'not_found', message);
export const conflict = (message: string) => new AppError(409, 'conflict', message);

/** "Invalid request: a: msg; b: msg" — names every field so a caller can fix them at once. */
export function validationError(details: Detail[]): AppError {
  const summary = details
    .slice(0, 5)
    .map((d) => (d.path ? `${d.path}: ${d.message}` : d.message))
    .join('; ');
  const more = details.length > 5 ? ` (and ${details.length - 5} more)` : '';
  return badRequest(`Invalid request: ${summary}${more}`, details);
}

/** A zod failure raised inside a service (not by route validation) as the same 400. */
export function fromZodIssues(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  prefix = '',
): AppError {
  return validationError(issues.map((i) => ({ path: prefix + i.path.map(String).join('.'), message: i.message })));
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
