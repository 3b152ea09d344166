import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors';
import { createStorefrontReader } from './storefront-reader';
import { requireShop, type Shop } from '../../resources/shop-directory';

const readers = new WeakMap<FastifyInstance, ReturnType<typeof createStorefrontReader>>();

/**
 * The request's shop, for a shopper's cart or order: refused with a 422 `shops/opening` while the shop says
 * "Abrimos pronto" (its setup checklist lacks its minimum), so the API takes no order the pages do
 * not offer. Staff order entry in the back office does not come through here.
 */
export async function requireOpenShop(req: FastifyRequest): Promise<Shop> {
  const shop = await requireShop(req);
  if (!shop.companyId) return shop;
  let reader = readers.get(req.server);
  if (!reader) {
    reader = createStorefrontReader(req.server);
    readers.set(req.server, reader);
  }
  if (await reader.opening(shop.companyId)) {
    throw new AppError(422, 'shops/opening', 'This shop does not take orders yet: its setup is not finished');
  }
  return shop;
}
