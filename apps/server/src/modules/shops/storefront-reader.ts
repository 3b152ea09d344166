import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/errors';
import { getCompany } from '../../resources/tenant';
import { setupChecklist, type ChecklistInput, type PublicConfig } from '@hornada/domain';
import type { Shop } from '../../resources/shop-directory';
import { RequestContext } from '../../request-context';

/** At most this many products and collections are read for a page: far above a bakery's catalogue. */
const LIMIT = 500;

/**
 * The storefront's reads for server rendering (docs/design.md §1: loaders call the services directly, never HTTP
 * to this server), as a guest reads them: the public field set only, through the resource services, and
 * kept in the public cache beside the API's answers (the change feed keeps both exact). Values go through
 * JSON so the server renders exactly what the browser will hydrate with (dates as ISO strings).
 */
export function createStorefrontReader(app: FastifyInstance) {
  const cache = app.ctx.publicCache;
  // A guest's read of the bakery: no caller, the public field set.
  const asGuest = (companyId: string) => RequestContext.forSystem(app.ctx.clock, { companyId });

  async function cached<T>(companyId: string, resource: string, key: string, produce: () => Promise<T>): Promise<T> {
    const hit = cache.get(companyId, resource, key);
    if (hit) return JSON.parse(hit.body.toString('utf8')) as T;
    const generation = cache.generation(companyId, resource);
    const body = JSON.stringify(await produce());
    cache.set(companyId, resource, key, body, generation);
    return JSON.parse(body) as T;
  }

  const list = (resource: 'products' | 'productCollections') => async (companyId: string) => {
    const c = await getCompany(app.ctx, companyId);
    return cached(companyId, resource, `ssr:list:${LIMIT}`, async () => {
      const page = await app.resources
        .get(resource)
        .list(asGuest(c.id), { page: 1, per_page: LIMIT, sort: 'sortOrder' }, c.timeZone);
      return page.data;
    });
  };

  const products = list('products');

  /**
   * The public runtime configuration (docs/design.md §3) of a request's shop: the API's `/api/config` and the pages'
   * header read it. `opening` is true while the bakery's setup checklist lacks its minimum: the shop says
   * "Abrimos pronto".
   */
  async function config(shop: Shop): Promise<PublicConfig> {
    const { config: appConfig } = app.ctx;
    const { companyId } = shop;
    const s = companyId ? await app.resources.settings.publicOf(companyId).catch(() => null) : null;
    return {
      companyId,
      marketName: s?.marketName ?? 'Hornada',
      // The header shows it at every width; null: the generic icon.
      logo: s?.logo ? { path: s.logo.path } : null,
      googleSignIn: appConfig.googleSignIn,
      emailPasswordSignIn: appConfig.emailPasswordSignIn,
      paymentMethods: s?.paymentMethods ?? [],
      // The origin every absolute link is built on (canonical URLs, Open Graph images, the sitemap): the
      // shop's own host name on PUBLIC_URL's protocol and port, never what a Host header spelled.
      publicUrl: shop.origin,
      opening: companyId && s ? await openingWith(companyId, s) : false,
    };
  }

  /** The checklist's minimum unmet, from the public settings and the active products (both cached). */
  const openingWith = async (companyId: string, settings: ChecklistInput['settings']) =>
    !setupChecklist({ settings, products: await products(companyId) }).ready;

  /**
   * Whether a bakery's shop still says "Abrimos pronto": then its carts and checkout are refused too
   * (shops/opening), while staff enter orders in the back office as ever.
   */
  async function opening(companyId: string): Promise<boolean> {
    return openingWith(companyId, await app.resources.settings.publicOf(companyId));
  }

  return {
    config,
    opening,
    collections: list('productCollections'),
    products,
    async product(companyId: string, id: string) {
      await getCompany(app.ctx, companyId);
      return cached(companyId, 'products', `ssr:id:${id}`, async () => {
        try {
          return await app.resources.get('products').get(asGuest(companyId), id);
        } catch (err) {
          if (err instanceof AppError && err.statusCode === 404) return null;
          throw err;
        }
      });
    },
    settings: async (companyId: string) =>
      JSON.parse(JSON.stringify(await app.resources.settings.publicOf(companyId))) as Record<string, unknown>,
  };
}
