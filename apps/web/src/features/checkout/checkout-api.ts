import type { LoaderFunctionArgs } from 'react-router';
import type { PaymentLink } from '@hornada/domain/schemas/answers';
import type { CheckoutBody, GuestOrder } from '@hornada/domain/schemas/orders';
import { cartApi, holderHeaders } from '../../lib/api/cart-api';
import { endpoints } from '../../lib/api/endpoints';
import { records } from '../../lib/api/endpoints';
import { storefrontApi } from '../../lib/api/storefront-api';
import type { PricingSettings } from '@hornada/domain/pricing';
import type { address } from '@hornada/domain/schemas/users';
import type { z } from 'zod';

export type { CheckoutBody, GuestOrder };

/** Checkout (docs/design.md §3): the days offered, placing the order, and the guest's link to it. */
export const checkoutApi = {
  cart: cartApi.read,
  deliveryDays: (companyId: string) => endpoints.deliveryDays(companyId, 14),
  place: (cartId: string, key: string, body: CheckoutBody) =>
    endpoints.checkout(cartId, body, { headers: { ...holderHeaders(), 'idempotency-key': key } }),
  /** The fee, free-delivery amount and minimum the summary's totals are computed with (packages/domain). */
  pricing: async (companyId: string): Promise<PricingSettings> => {
    const s = await storefrontApi(null).settings(companyId);
    return {
      deliveryFee: s.deliveryFee ?? 0,
      freeDeliveryFrom: s.freeDeliveryFrom ?? null,
      minimumOrder: s.minimumOrder ?? 0,
    };
  },
  /** The signed-in customer's phone and saved addresses, to fill the summary. */
  me: (): Promise<SavedProfile> => endpoints.me(),
  /** How the signed-in customer paid their last order at this bakery, to preselect it; null for none. */
  lastPaymentMethod: async (companyId: string): Promise<string | null> => {
    const res = await records(companyId, 'orders').list({ query: { sort: '-createdAt', per_page: 1 } });
    return res.items[0]?.paymentMethod ?? null;
  },
  byLink: endpoints.orderByLink,
  /** The server asks the gateway about transaction `id` (docs/design.md §3); nothing else of the query is sent. */
  payment: endpoints.paymentCheck,
  /** A new attempt (a new reference) for an online order not paid: where to send the browser. */
  retryPayment: endpoints.retryPayment,
};

export type SavedAddress = z.infer<typeof address>;
export interface SavedProfile {
  phone: string | null;
  addresses: SavedAddress[];
}

export type { PaymentLink };

/** The bakery's public settings the two checkout pages show (names, methods, pickup, WhatsApp, transfer). */
export async function checkoutLoader({ context }: LoaderFunctionArgs) {
  const api = storefrontApi(context);
  const config = await api.config();
  const s = config.companyId ? await api.settings(config.companyId) : {};
  return {
    marketName: config.marketName,
    companyId: config.companyId,
    /** The bakery's logo (a stored file's path): the receipt's heading. */
    logo: config.logo ?? null,
    timeZone: s.timeZone ?? 'America/Bogota',
    pickupEnabled: s.pickupEnabled ?? false,
    paymentMethods: (s.paymentMethods ?? []) as StorefrontMethod[],
    transferInstructions: s.transferInstructions ?? null,
    whatsapp: s.whatsapp ?? null,
    // With their hours: the confirmation says a window as the office does (windowLabel).
    windows: (s.deliveryWindows ?? []).map((w) => ({ id: w.id, label: w.label, start: w.start, end: w.end })),
    address: s.address ?? null,
  };
}
export type CheckoutLoaderData = Awaited<ReturnType<typeof checkoutLoader>>;

/** The key of one checkout attempt, kept for the tab's life: a retry or a second click places one order. */
export function idempotencyKeyFor(cartId: string): string {
  const name = `hornada-checkout:${cartId}`;
  try {
    const kept = window.sessionStorage.getItem(name);
    if (kept) return kept;
    const key = crypto.randomUUID();
    window.sessionStorage.setItem(name, key);
    return key;
  } catch {
    return `${cartId}-${Date.now()}`;
  }
}

export type StorefrontMethod = 'cash' | 'transfer' | 'online';
export const PAYMENT_LABELS: Record<StorefrontMethod, string> = {
  cash: 'Efectivo',
  transfer: 'Transferencia',
  online: 'Pago en línea',
};
export const buttonClass =
  'inline-flex w-full items-center justify-center rounded-lg bg-amber-900 px-5 py-3 font-semibold text-white hover:bg-amber-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-900 disabled:cursor-not-allowed disabled:opacity-60';
