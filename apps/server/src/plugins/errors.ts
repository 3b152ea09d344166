import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { MAX_BODY_BYTES } from '@hornada/domain';
import { formatBytes } from '../lib/bytes';
import { AppError, DetailList, fromDatabaseError, loggableError, MAX_DETAILS, validationError } from '../lib/errors';
import { registerJsonBodyParser } from './json-body';

const CONTEXT_PREFIX: Record<string, string> = { querystring: 'query', params: 'params', headers: 'headers' };

/**
 * The details of a route validation failure. Zod's strict objects name every unknown key in one
 * issue: each key is a detail, but only the first MAX_DETAILS are built; the message counts them all.
 */
function zodDetails(err: {
  validation: { instancePath: string; message?: string; keyword: string; params: Record<string, unknown> }[];
  validationContext?: string;
}): DetailList {
  const prefix = err.validationContext ? CONTEXT_PREFIX[err.validationContext] : undefined;
  const join = (p: string) => [prefix, p].filter(Boolean).join('.');
  const list = new DetailList();
  for (const v of err.validation) {
    // The rest are only counted: their paths are never built.
    if (list.items.length >= MAX_DETAILS) {
      const keys = v.params.keys;
      list.total += v.keyword === 'unrecognized_keys' && Array.isArray(keys) ? keys.length : 1;
      continue;
    }
    const p = v.instancePath.replace(/^\//, '').split('/').filter(Boolean).join('.');
    const keys = v.params.keys;
    if (v.keyword === 'unrecognized_keys' && Array.isArray(keys)) {
      const message = prefix === 'query' ? 'Unknown parameter' : 'Unknown field';
      list.addMany(keys.length, (i) => ({ path: join([p, String(keys[i])].filter(Boolean).join('.')), message }));
    } else {
      list.add(join(p), v.message ?? 'Invalid value');
    }
  }
  return list;
}

/** Maps Fastify's own errors to the envelope of docs/design.md §3. */
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

const MAX_NUL_PATHS = MAX_DETAILS;

/** One step of a path, linked to its parent: a path string is built only for a value reported. */
type Step = { key: string; parent: Step | null };
/** Marks a NUL key on the walk's stack, so it is reported in document order. */
const NUL_KEY = Symbol('nul key');

function pathOf(step: Step | null): string {
  const keys: string[] = [];
  for (let s = step; s; s = s.parent) keys.push(s.key);
  return keys.reverse().join('.');
}

/**
 * Paths of the strings (and object keys) that hold U+0000 in a parsed body, query or params.
 * PostgreSQL cannot store that character in text or jsonb (SQLSTATE 22021 / 22P05). Linear in the
 * size of the value: an explicit stack (a deep body must not overflow the call stack) and parent
 * links instead of a copied path at every level.
 */
export function nulPaths(root: unknown, prefix: string[] = []): string[] {
  let base: Step | null = null;
  for (const key of prefix) base = { key, parent: base };
  const out: string[] = [];
  const stack: [unknown, Step | null][] = [[root, base]];
  while (stack.length > 0 && out.length < MAX_NUL_PATHS) {
    const [value, at] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) out.push(pathOf(at));
    } else if (value === NUL_KEY) {
      out.push(pathOf(at));
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], { key: String(i), parent: at }]);
    } else if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        if (key.includes('\u0000')) stack.push([NUL_KEY, { key: key.replaceAll('\u0000', '\\u0000'), parent: at }]);
        else stack.push([(value as Record<string, unknown>)[key], { key, parent: at }]);
      }
    }
  }
  return out;
}

export function registerErrorHandling(app: FastifyInstance): void {
  // JSON bodies nested deeper than MAX_JSON_DEPTH are refused before they are parsed.
  registerJsonBodyParser(app);

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
    else if (hasZodFastifySchemaValidationErrors(error)) appError = zodDetails(error).toError();
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
