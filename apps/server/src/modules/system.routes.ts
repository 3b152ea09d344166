import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PublicConfig } from '@hornada/domain';
import { AppError } from '../lib/errors';
import { openToGuests } from '../plugins/auth';
import { requireShop } from '../resources/shop-directory';
import { createStorefrontReader } from './shops';

/** Health and the public runtime configuration (docs/design.md §3). */
export function registerSystemRoutes(app: FastifyInstance): void {
  const storefront = createStorefrontReader(app);
  app.get(
    '/api/health',
    {
      config: openToGuests(),
      schema: {
        tags: ['system'],
        summary: 'Liveness and database check',
        response: { 200: z.object({ data: z.object({ status: z.literal('ok') }) }) },
      },
    },
    async () => {
      try {
        await Promise.race([
          app.ctx.db.execute(sql`SELECT 1`),
          // Refused on the I/O turn after the timer: when the event loop itself was held past the bound (a huge
          // body parsed), the database's answer that came meanwhile is read first; only a database that has not
          // answered makes the check fail.
          new Promise((_, reject) => setTimeout(() => setImmediate(() => reject(new Error('timeout'))), 2000).unref()),
        ]);
      } catch {
        throw new AppError(503, 'unavailable', 'Database unavailable');
      }
      return { data: { status: 'ok' } };
    },
  );

  app.get(
    '/api/config',
    {
      config: openToGuests(),
      schema: {
        tags: ['system'],
        summary: 'Public runtime configuration',
        response: { 200: z.object({ data: PublicConfig }) },
      },
    },
    async (req) => ({
      data: await storefront.config(await requireShop(req)),
    }),
  );
}
