import type { FastifyInstance } from 'fastify';

/** A write to a company's standing orders, answered: its days due now are made at once. */
const STANDING_WRITE = /^\/api\/companies\/:companyId\/standingOrders(\/:id)?$/;

/**
 * The standing-orders job (standing-orders.job.ts): started with the app, stopped with it, and run for a
 * company after each successful write to its standing orders (the response is sent once the write has
 * committed, so the run sees it). Registered as a shared plugin, before the resources' routes, so that
 * its hook sees theirs.
 */
export function registerStandingOrderJobs(app: FastifyInstance): void {
  const job = app.modules.standingOrders;
  app.addHook('onResponse', async (req, reply) => {
    if (req.method === 'GET' || reply.statusCode >= 300) return;
    if (!STANDING_WRITE.test(req.routeOptions.url ?? '')) return;
    const { companyId } = req.params as { companyId: string };
    await job.run(companyId).catch((err: unknown) => app.log.warn({ err }, 'standing orders failed'));
  });
}
