import type { FastifyReply, FastifyRequest } from 'fastify';

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
  void reply.header('etag', entry.etag).header('cache-control', 'no-cache').header('vary', 'authorization');
  const match = req.headers['if-none-match'];
  if (match && match.split(',').some((t) => t.trim().replace(/^W\//, '') === entry.etag)) {
    return reply.status(304).send();
  }
  return reply.type('application/json; charset=utf-8').send(entry.body);
}
