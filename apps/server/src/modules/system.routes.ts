import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors';
import { openToGuests } from '../plugins/auth';

/** Health and the public runtime configuration (design §3). */
export function registerSystemRoutes(app: FastifyInstance): void {
  app.get(
    '/api/health',
    { config: openToGuests(), schema: { tags: ['system'], summary: 'Liveness and database check' } },
    async () => {
      try {
        await Promise.race([
          app.ctx.db.execute(sql`SELECT 1`),
          new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000).unref()),
        ]);
      } catch {
        throw new AppError(503, 'unavailable', 'Database unavailable');
      }
      return { data: { status: 'ok' } };
    },
  );

  app.get(
    '/api/config',
    { config: openToGuests(), schema: { tags: ['system'], summary: 'Public runtime configuration' } },
    async () => ({
      data: await publicConfig(app),
    }),
  );
}

/** The public runtime configuration (design §3): the API's `/api/config` and the pages' header read it. */
export async function publicConfig(app: FastifyInstance) {
  const { config } = app.ctx;
  const companyId = await app.ctx.marketCompanyId();
  const s = companyId ? await app.resources.settings.get(null, companyId).catch(() => null) : null;
  return {
    companyId,
    marketName: s?.marketName ?? 'Hornada',
    googleSignIn: config.googleSignIn,
    emailPasswordSignIn: config.emailPasswordSignIn,
    paymentMethods: s?.paymentMethods ?? [],
    // The origin every absolute link is built on (canonical URLs, Open Graph images, the sitemap).
    publicUrl: new URL(config.publicUrl).origin,
  };
}
