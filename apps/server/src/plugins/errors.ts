import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { MAX_BODY_BYTES } from '@hornada/domain';
import { formatBytes } from '../lib/bytes';
import { AppError, fromDatabaseError, loggableError, validationError, type Detail } from '../lib/errors';

const CONTEXT_PREFIX: Record<string, string> = { querystring: 'query', params: 'params', headers: 'headers' };

function zodDetails(err: {
  validation: { instancePath: string; message?: string; keyword: string; params: Record<string, unknown> }[];
  validationContext?: string;
}): Detail[] {
  const prefix = err.validationContext ? CONTEXT_PREFIX[err.validationContext] : undefined;
  const join = (p: string) => [prefix, p].filter(Boolean).join('.');
  const out: Detail[] = [];
  for (const v of err.validation) {
    const p = v.instancePath.replace(/^\//, '').split('/').filter(Boolean).join('.');
    if (v.keyword === 'unrecognized_keys' && Array.isArray(v.params.keys)) {
      for (const key of v.params.keys as string[]) {
        out.push({
          path: join([p, key].filter(Boolean).join('.')),
          message: prefix === 'query' ? 'Unknown parameter' : 'Unknown field',
        });
      }
    } else {
      out.push({ path: join(p), message: v.message ?? 'Invalid value' });
    }
  }
  return out;
}

/** Maps Fastify's own errors to the envelope of design §3. */
function fromFastify(err: FastifyError, bodyLimit = MAX_BODY_BYTES): AppError | null {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(415, 'unsupported_media_type', 'Unsupported content type: send application/json');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError(413, 'payload_too_large', `Request body is too large (limit ${formatBytes(bodyLimit)})`);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError(400, 'invalid_json', 'Request body is empty but the content type is JSON');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError(400, 'invalid_json', 'Request body is not valid JSON');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError(400, 'bad_request', 'Content-Length does not match the body');
    default:
      break;
  }
  if (err instanceof SyntaxError && err.statusCode === 400) {
    return new AppError(400, 'invalid_json', 'Request body is not valid JSON');
  }
  if (err.statusCode === 429) return new AppError(429, 'rate_limited', 'Too many requests, try again later');
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    return new AppError(err.statusCode, 'bad_request', err.message);
  }
  return null;
}

const MAX_NUL_PATHS = 20;

/**
 * Paths of the strings (and object keys) that hold U+0000 in a parsed body, query or params.
 * PostgreSQL cannot store that character in text or jsonb (SQLSTATE 22021 / 22P05). Walked with an
 * explicit stack: a deeply nested 1 MB body must not overflow the call stack.
 */
export function nulPaths(root: unknown, prefix: string[] = []): string[] {
  const out: string[] = [];
  const stack: [unknown, string[]][] = [[root, prefix]];
  while (stack.length > 0 && out.length < MAX_NUL_PATHS) {
    const [value, at] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) out.push(at.join('.'));
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], [...at, String(i)]]);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, v] of Object.entries(value).reverse()) {
        const path = [...at, key.replaceAll('\u0000', '\\u0000')];
        if (key.includes('\u0000')) out.push(path.join('.'));
        else stack.push([v, path]);
      }
    }
  }
  return out;
}

export function registerErrorHandling(app: FastifyInstance): void {
  // Before any route's validation, for every route: a NUL character is a 400 naming where it is.
  // Callback style: on the hot path of cached public reads, a promise per request is measurable.
  app.addHook('preValidation', (request, _reply, done) => {
    // Params and query come from the URL, where a NUL can only arrive percent-encoded: one string
    // test spares every read the walk.
    const inUrl = request.url.includes('%00');
    const paths = [
      ...(inUrl ? nulPaths(request.params, ['params']) : []),
      ...(inUrl ? nulPaths(request.query, ['query']) : []),
      ...(request.body === undefined ? [] : nulPaths(request.body)),
    ];
    if (paths.length === 0) return done();
    done(validationError(paths.map((path) => ({ path, message: 'Must not contain the NUL character (\\u0000)' }))));
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    let appError: AppError | null = null;
    if (error instanceof AppError) appError = error;
    else if (hasZodFastifySchemaValidationErrors(error)) appError = validationError(zodDetails(error));
    else {
      appError = fromFastify(error, request.routeOptions.bodyLimit);
      const fromDb = appError ? null : fromDatabaseError(error);
      if (fromDb) {
        // PostgreSQL refused a value validation let through, or a deadlock: a 4xx, logged to look into.
        request.log.warn({ err: loggableError(error) }, 'database error answered with %d', fromDb.statusCode);
        appError = fromDb;
      }
    }

    if (!appError) {
      // Unexpected: log it with the request id; the caller learns nothing of the internals.
      request.log.error({ err: loggableError(error) }, 'unhandled error');
      appError = new AppError(500, 'internal', 'Internal server error');
    }
    if (appError.headers) void reply.headers(appError.headers);
    return reply.status(appError.statusCode).send(appError.toBody());
  });

  app.setNotFoundHandler((request, reply) => {
    const e = new AppError(404, 'not_found', `Route ${request.method} ${request.url.split('?')[0]} not found`);
    return reply.status(404).send(e.toBody());
  });
}
