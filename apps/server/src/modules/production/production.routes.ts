import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CompanyParams, ProductionDay, ProductionQuery } from '@hornada/domain';
import { z } from 'zod';
import { noStore } from '../../lib/no-store';

/** The production read of docs/design.md §3 "operations". */
export function registerProductionRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = app.modules.production;

  r.get(
    '/api/companies/:companyId/production',
    {
      onRequest: noStore,
      schema: {
        tags: ['production'],
        summary: 'What to bake for a preparation day',
        description:
          'The orders whose `preparationDate` is `date` (in the company time zone), not cancelled: units per ' +
          'product and how many are marked produced (`producedQuantities`), `batches` = quantity over the ' +
          "recipe's yield rounded up (a product's recipe is the one it names, else the oldest naming it); " +
          "`ingredients` sums every recipe's items for its batches in the ingredient's unit (g↔kg, ml↔l), with " +
          'its stock (below 0 when more was used than counted) and `shortage` (what the batches of the units not yet produced need beyond the stock, 0 once all is made), shortages first; `problems` lists recipe ' +
          "lines that could not be counted; `orders` the day's orders with their lines. A `date` outside the years " +
          '2000 to 2100 is a 400 `days/out-of-range`. Admin, staff and ' +
          'production assistants (`production:read`).',
        params: CompanyParams,
        querystring: ProductionQuery,
        response: { 200: z.object({ data: ProductionDay }) },
      },
    },
    async (req) => ({
      data: await service.day(req.rc, req.query.date, {
        orders: req.query.include === 'orders',
      }),
    }),
  );
}
