import { deliveryFeeFor, type PricingSettings } from './pricing';
import type { Fulfillment } from './schemas/carts';
import type { OrderLine } from './schemas/orders';

/**
 * Order pricing (docs/design.md §5), pure: the server reads the catalogue and the client, this decides the
 * prices. A price sent by a client is never an input here.
 */
export interface PricedProduct {
  id: string;
  name: string;
  price: number;
  b2bPrice: number | null;
}

export interface B2bTerms {
  discountPercent: number;
  prices: readonly { productId: string; price: number }[];
}

/** `amount` less `percent` %, rounded half up to whole units (integer arithmetic on basis points). */
export function lessPercent(amount: number, percent: number): number {
  const basisPoints = Math.round(percent * 100);
  const scaled = amount * (10_000 - basisPoints);
  return Math.floor((scaled + 5_000) / 10_000);
}

/**
 * A unit price: for a B2B client its own price for the product, else the product's `b2bPrice`, else
 * the list price less its `discountPercent`; for everyone else the list price.
 */
export function unitPriceFor(product: PricedProduct, client: B2bTerms | null): number {
  if (!client) return product.price;
  const own = client.prices.find((p) => p.productId === product.id);
  if (own) return own.price;
  if (product.b2bPrice !== null) return product.b2bPrice;
  return lessPercent(product.price, client.discountPercent);
}

export function orderLine(
  product: PricedProduct,
  client: B2bTerms | null,
  quantity: number,
  notes: string | null,
): OrderLine {
  const unitPrice = unitPriceFor(product, client);
  return { productId: product.id, name: product.name, unitPrice, quantity, notes, lineTotal: unitPrice * quantity };
}

export interface OrderTotals {
  subtotal: number;
  discount: number;
  deliveryFee: number;
  total: number;
}

export function orderTotals(
  lines: readonly OrderLine[],
  fulfillment: Fulfillment,
  settings: PricingSettings,
  discount = 0,
): OrderTotals {
  const subtotal = lines.reduce((sum, l) => sum + l.lineTotal, 0);
  const deliveryFee = deliveryFeeFor(subtotal, fulfillment, settings);
  return { subtotal, discount, deliveryFee, total: Math.max(0, subtotal - discount) + deliveryFee };
}
