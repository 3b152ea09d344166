import type { CartLine, Fulfillment } from './schemas/carts';
import type { SettingsInput } from './schemas/settings';
import type { z } from 'zod';
import type { productImage } from './schemas/catalogue';

/**
 * Pricing from the catalogue and the settings (docs/design.md §4, §5), pure so that carts, orders and the
 * web's estimates agree. Money is whole units; a client's prices are never an input here.
 */
export interface CatalogueProduct {
  id: string;
  name: string;
  price: number;
  images: z.infer<typeof productImage>[];
  active: boolean;
  deleted: boolean;
}

export type PricingSettings = Pick<SettingsInput, 'deliveryFee' | 'freeDeliveryFrom' | 'minimumOrder'>;

export interface Totals {
  subtotal: number;
  deliveryFee: number;
  total: number;
  minimumOrder: number;
  missingForMinimum: number;
}

/** Each line priced at the product's public price; a line whose product is gone or inactive is flagged. */
export function priceLines(
  items: readonly { productId: string; quantity: number }[],
  catalogue: ReadonlyMap<string, CatalogueProduct>,
): CartLine[] {
  return items.map(({ productId, quantity }) => {
    const p = catalogue.get(productId);
    const available = !!p && p.active && !p.deleted;
    const unitPrice = p?.price ?? 0;
    return {
      productId,
      quantity,
      name: p?.name ?? null,
      unitPrice,
      lineTotal: available ? unitPrice * quantity : 0,
      image: p?.images[0] ?? null,
      available,
    };
  });
}

/** Free for pickup, for nothing to deliver, and from `freeDeliveryFrom` (when set) up. */
export function deliveryFeeFor(subtotal: number, fulfillment: Fulfillment, settings: PricingSettings): number {
  if (fulfillment === 'pickup' || subtotal === 0) return 0;
  if (settings.freeDeliveryFrom !== null && subtotal >= settings.freeDeliveryFrom) return 0;
  return settings.deliveryFee;
}

export function totalsOf(lines: readonly CartLine[], fulfillment: Fulfillment, settings: PricingSettings): Totals {
  const subtotal = lines.reduce((sum, l) => sum + l.lineTotal, 0);
  const deliveryFee = deliveryFeeFor(subtotal, fulfillment, settings);
  return {
    subtotal,
    deliveryFee,
    total: subtotal + deliveryFee,
    minimumOrder: settings.minimumOrder,
    missingForMinimum: Math.max(0, settings.minimumOrder - subtotal),
  };
}
