import type { FastifyReply, FastifyRequest, RequestPayload } from 'fastify';
import type { CachedResponse } from './public-cache';

/**
 * Answers a public read from the cache, or computes, stores and sends it. Responses carry an ETag;
 * a matching If-None-Match gets 304. `key` must identify the read within (company, resource).
 */
export async function servePublic(
  req: FastifyRequest,
  reply: FastifyReply,
  companyId: string,
  resource: string,
  key: string,
  produce: () => Promise<unknown>,
): Promise<FastifyReply> {
  const cache = req.server.ctx.publicCache;
  let entry = cache.get(companyId, resource, key);
  if (!entry) {
    const generation = cache.generation(companyId, resource);
    entry = cache.set(companyId, resource, key, JSON.stringify(await produce()), generation);
  }
  return sendCached(req, reply, entry);
}

function sendCached(req: FastifyRequest, reply: FastifyReply, entry: CachedResponse): FastifyReply {
  void reply.header('etag', entry.etag).header('cache-control', 'no-cache').header('vary', 'authorization');
  const match = req.headers['if-none-match'];
  if (match && match.split(',').some((t) => t.trim().replace(/^W\//, '') === entry.etag)) {
    return reply.status(304).send();
  }
  return reply.type('application/json; charset=utf-8').send(entry.body);
}

/**
 * A route's preParsing hook: a guest's read that is already in the cache is answered there, before
 * validation and the handler (an entry exists only for a read that passed them). Anyone with a bearer
 * goes the whole way: what they may read depends on who they are. Rate limits run before it (their
 * hook is onRequest).
 */
export function answerFromCache(resource: string, keyOf: (req: FastifyRequest) => string) {
  return (
    req: FastifyRequest,
    reply: FastifyReply,
    payload: RequestPayload,
    done: (err?: Error | null, payload?: RequestPayload) => void,
  ): void => {
    const companyId = (req.params as { companyId?: string }).companyId;
    const entry =
      req.headers.authorization || !companyId ? null : req.server.ctx.publicCache.get(companyId, resource, keyOf(req));
    if (!entry) return done(null, payload);
    // Answering from a hook: the reply is sent and `done` is not called (Fastify's documented way).
    sendCached(req, reply, entry);
  };
}
