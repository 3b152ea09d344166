import type { FastifyInstance } from 'fastify';
import { MAX_JSON_DEPTH } from '@hornada/domain';
import { badRequest } from '../lib/errors';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Whether JSON text nests arrays and objects deeper than `limit`, in one pass over the text and
 * without parsing it. Brackets inside strings do not count (a backslash escapes the next character,
 * so `"\""` stays one string). Invalid JSON is left for the parser to refuse.
 */
export function exceedsJsonDepth(text: string, limit: number): boolean {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) i++;
        else if (d === QUOTE) break;
      }
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}

/**
 * Fastify's own JSON parser (secure-json-parse with the instance's prototype-poisoning settings, the
 * same empty and invalid body errors, the instance's body limit) behind a depth check: a deeply
 * nested body is refused before it is parsed, so nothing after (the NUL check, validation, a
 * handler) ever walks one.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const { onProtoPoisoning = 'error', onConstructorPoisoning = 'error' } = app.initialConfig;
  const parse = app.getDefaultJsonParser(onProtoPoisoning, onConstructorPoisoning);
  // No bodyLimit given: the parser keeps the instance's (Fastify's addContentTypeParser default).
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (exceedsJsonDepth(body as string, MAX_JSON_DEPTH)) {
      done(badRequest(`Request body is nested too deeply (limit ${MAX_JSON_DEPTH} levels)`), undefined);
      return;
    }
    parse(request, body as string, done);
  });
}
