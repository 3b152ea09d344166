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
