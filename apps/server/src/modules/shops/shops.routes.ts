import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CompanyParams, reachesCompany, setupChecklist, ShopFace, ShopSetup } from '@hornada/domain';
import { notFound, unauthenticated } from '../../lib/errors';
import { z } from 'zod';
import { writeAccess } from '../../resources/access';
import { asUser } from '../../resources/actor';
import { getCompany } from '../../resources/tenant';
import { createStorefrontReader } from './storefront-reader';

/**
 * A bakery's own shop (docs/design.md §4): its address and the setup checklist its owner follows, and its
 * name and address for the back office's header.
 */
export function registerShopRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const storefront = createStorefrontReader(app);

  r.get(
    '/api/companies/:companyId/setup',
    {
      schema: {
        tags: ['companies'],
        summary: "The bakery's setup checklist and its shop's address",
        description:
          'For whoever may change the settings (the company admin). `ready`: the minimum is met (a phone or ' +
          'WhatsApp, delivery days with a window, an active product, payment methods a shopper can use); until ' +
          'then the shop says "Abrimos pronto". `shopUrl` is `{slug}.{the PUBLIC_URL host}` (the market: PUBLIC_URL).',
        params: CompanyParams,
        response: {
          200: z.object({
            data: ShopSetup,
          }),
        },
      },
    },
    async (req) => {
      const { companyId } = req.params;
      writeAccess('settings', asUser(req.caller), companyId, 'update');
      await getCompany(app.ctx, companyId);
      const [settings, products, shopUrl] = await Promise.all([
        app.resources.settings.publicOf(companyId),
        storefront.products(companyId),
        app.ctx.shops.originOf(companyId),
      ]);
      return { data: { ...setupChecklist({ settings, products }), shopUrl: `${shopUrl}/` } };
    },
  );

  r.get(
    '/api/companies/:companyId/shop',
    {
      schema: {
        tags: ['companies'],
        summary: "The bakery's shop: its name, address and logo",
        description:
          "For the company's signed-in users (a system admin: any). The back office's header names the user's " +
          'own bakery and links to its shop, whatever host it is served on. `url` as in the setup checklist.',
        params: CompanyParams,
        response: {
          200: z.object({
            data: ShopFace,
          }),
        },
      },
    },
    async (req) => {
      const { companyId } = req.params;
      if (!req.caller) throw unauthenticated();
      // Another company's shop is a 404, as every company path is for its outsiders.
      if (!reachesCompany(req.caller, companyId)) throw notFound();
      await getCompany(app.ctx, companyId);
      const [settings, origin] = await Promise.all([
        app.resources.settings.publicOf(companyId),
        app.ctx.shops.originOf(companyId),
      ]);
      // The storefront's own fallback when the settings name none.
      return {
        data: {
          name: settings.marketName ?? 'Hornada',
          url: `${origin}/`,
          logo: settings.logo ? { path: settings.logo.path } : null,
        },
      };
    },
  );
}
