import type { FastifyReply, FastifyRequest } from 'fastify';

/** An `onRequest` hook for answers that are one caller's own (carts, orders, reports): never kept by a cache. */
export function noStore(_req: FastifyRequest, reply: FastifyReply, done: () => void): void {
  void reply.header('cache-control', 'no-store');
  done();
}
