import type { FastifyReply, FastifyRequest, RequestPayload } from 'fastify';
import type { ResourceName } from '@hornada/domain';
import type { Caller } from '../context';
import { readAccess, type ReadAccess } from './access';
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
  const entry = await req.server.ctx.publicCache.answer(companyId, resource, key, async () =>
    JSON.stringify(await produce()),
  );
  return sendCached(req, reply, entry);
}

/**
 * The key of a signed-in read in the signed-in cache: whose view it is, then `key` (the read within
 * company and resource). A list's rows and fields depend on the caller only through its read access:
 * the company grant reads the same rows whoever holds it (an admin, a system admin), a narrower grant
 * reads rows chosen by the caller (its own orders, its assigned stops), so that view is the caller's
 * alone. The access is decided from the caller's current role on every request, before any look-up.
 */
export function signedInKey(access: ReadAccess, caller: Caller, key: string): string {
  return `${access === 'company' ? 'company' : `${access}:${caller.uid}`}\u0000${key}`;
}

/**
 * Answers a signed-in read from the signed-in cache under the caller's view (signedInKey), or computes,
 * stores and sends it: the same bytes and headers either way. Only for a request whose caches were
 * shown current (request.cachesCurrent).
 */
export async function serveSignedIn(
  req: FastifyRequest,
  reply: FastifyReply,
  read: { companyId: string; resource: string; access: ReadAccess; caller: Caller; key: string },
  produce: () => Promise<unknown>,
): Promise<FastifyReply> {
  const key = signedInKey(read.access, read.caller, read.key);
  const entry = await req.server.ctx.signedInCache.answer(read.companyId, read.resource, key, async () =>
    JSON.stringify(await produce()),
  );
  return reply.type(JSON_TYPE).send(entry.body);
}

const JSON_TYPE = 'application/json; charset=utf-8';

function sendCached(req: FastifyRequest, reply: FastifyReply, entry: CachedResponse): FastifyReply {
  void reply.header('etag', entry.etag).header('cache-control', 'no-cache').header('vary', 'authorization');
  const match = req.headers['if-none-match'];
  if (match && match.split(',').some((t) => t.trim().replace(/^W\//, '') === entry.etag)) {
    return reply.status(304).send();
  }
  return reply.type(JSON_TYPE).send(entry.body);
}

/**
 * A route's preParsing hook: a read that is already in a cache is answered there, before validation
 * and the handler (an entry exists only for a read that passed them). A guest's from the public cache;
 * a signed-in caller's (authenticated in onRequest, before this hook) from the public cache when its
 * access to the resource is the public one, else, on a list (`signedInLists`), from the signed-in cache
 * under its view (signedInKey). The access is decided here from the caller's current role; a read it
 * refuses goes on to the handler, which answers the refusal. Rate limits run before it (onRequest).
 */
export function answerFromCache(resource: ResourceName, keyOf: (req: FastifyRequest) => string, signedInLists = false) {
  return (
    req: FastifyRequest,
    reply: FastifyReply,
    payload: RequestPayload,
    done: (err?: Error | null, payload?: RequestPayload) => void,
  ): void => {
    const companyId = (req.params as { companyId?: string }).companyId;
    if (!companyId) return done(null, payload);
    const { publicCache, signedInCache } = req.server.ctx;
    if (!req.headers.authorization) {
      const entry = publicCache.get(companyId, resource, keyOf(req));
      // Answering from a hook: the reply is sent and `done` is not called (Fastify's documented way).
      return entry ? void sendCached(req, reply, entry) : done(null, payload);
    }
    const caller = req.caller;
    if (!caller || !req.cachesCurrent) return done(null, payload);
    let access: ReadAccess;
    try {
      access = readAccess(resource, caller, companyId);
    } catch {
      return done(null, payload);
    }
    if (access === 'public') {
      const entry = publicCache.get(companyId, resource, keyOf(req));
      return entry ? void sendCached(req, reply, entry) : done(null, payload);
    }
    const entry = signedInLists
      ? signedInCache.get(companyId, resource, signedInKey(access, caller, keyOf(req)))
      : undefined;
    if (!entry) return done(null, payload);
    void reply.type(JSON_TYPE).send(entry.body);
  };
}
