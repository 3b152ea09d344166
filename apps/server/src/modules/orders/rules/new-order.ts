import {
  dayStartInZone,
  formatMoney,
  orderLine,
  orderTotals,
  pointOf,
  type Fulfillment,
  type HistoryEntry,
  type OrderChannel,
  type OrderInput,
  type OrderPaymentMethod,
  type OrderStatus,
  type PaymentStatus,
  type SettingsInput,
} from '@hornada/domain';
import type { SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../../db';
import { AppError, DetailList } from '../../../lib/errors';
import { assertCustomer, assertDriver, checkedProducts, clientOf, type CatalogueRow } from './lookups';
import { assertTotalWithinCap, listOrNone, rule } from './problems';
import { checkDay, dayOf, preparationOf } from './slots';

/** What an order is made from: the writable fields, or a cart's lines and checkout fields. */
export interface NewOrder {
  items: { productId: string; quantity: number; notes?: string | null }[];
  contact: { name: string; phone: string; email: string | null };
  fulfillment: Fulfillment;
  address: OrderInput['address'];
  /** `YYYY-MM-DD` or an instant of the day. */
  dueDate: string;
  window: string | null;
  paymentMethod: OrderPaymentMethod;
  notes: string | null;
  customerId?: string | null;
  b2bClientId?: string | null;
  status?: OrderStatus;
  paymentStatus?: PaymentStatus;
  deliveryAssistantId?: string | null;
  routePosition?: number | null;
  producedQuantities?: Record<string, number>;
  cashCollected?: number | null;
  cancelReason?: string | null;
}

/** Who a history entry names: a user, or the system, a gateway or a guest (resources/actor.ts historyBy). */
export type Actor = HistoryEntry['by'];

/** A new order as it is placed: through the web (a cart's holder at checkout) or the back office. */
export interface Placing {
  db: DbOrTx;
  actor: Actor;
  companyId: string;
  /** `web`: the shop's rules (minimum order, the bakery's payment methods, the offered days only); else staff's. */
  channel: OrderChannel;
  settings: SettingsInput;
  /** The catalogue rows of its lines, read with the settings. */
  catalogue: readonly CatalogueRow[];
  /** When the order is placed: the write's instant. */
  placedAt: Date;
  /** The next number, taken by the order's own INSERT (OrderRules.numberInInsert). */
  number: SQL;
}

/** The stored values of a new order. */
export async function prepareNew(p: Placing, input: NewOrder): Promise<Record<string, unknown>> {
  const { db, actor, companyId, settings: s } = p;
  const web = p.channel === 'web';
  const problems = new DetailList();
  if (input.fulfillment === 'delivery' && !input.address) problems.add('address', 'Required for delivery');
  if (s.deliveryWindows.length > 0 && input.window === null) problems.add('window', 'Choose a delivery window');
  if (input.paymentMethod === 'credit' && !input.b2bClientId) {
    problems.add('paymentMethod', 'Credit is for B2B clients only');
  }
  if (problems.total > 0) throw problems.toError();
  if (input.fulfillment === 'pickup' && !s.pickupEnabled) {
    throw rule('cart/pickup-unavailable', 'This bakery does not offer pickup', 'fulfillment');
  }
  // Online is the web's only, when the bakery offers it: the gateway then moves its payment (modules/payments).
  const offered: readonly string[] = web ? s.paymentMethods : ['cash', 'transfer', 'credit'];
  if (!offered.includes(input.paymentMethod)) {
    throw rule(
      'orders/payment-method-unavailable',
      `Payment method not offered: ${input.paymentMethod} (allowed: ${listOrNone(offered)})`,
      'paymentMethod',
    );
  }
  const status = input.status ?? 'pending';
  if (status !== 'pending' && status !== 'confirmed') {
    throw rule('orders/invalid-transition', `A new order starts pending or confirmed, not ${status}`, 'status');
  }
  const paymentStatus = input.paymentStatus ?? 'unpaid';
  if (paymentStatus !== 'unpaid' && !(!web && paymentStatus === 'paid' && input.paymentMethod !== 'online')) {
    throw rule('orders/invalid-payment', `A new order starts unpaid, not ${paymentStatus}`, 'paymentStatus');
  }
  if (input.customerId) await assertCustomer(db, companyId, input.customerId);
  if (input.deliveryAssistantId) await assertDriver(db, companyId, input.deliveryAssistantId);

  const catalogue = checkedProducts(p.catalogue, input.items);
  const client = await clientOf(db, companyId, input.b2bClientId);
  const lines = input.items.map((i) => orderLine(catalogue.get(i.productId)!, client, i.quantity, i.notes ?? null));
  const totals = orderTotals(lines, input.fulfillment, s);
  assertTotalWithinCap(totals);
  if (web && totals.subtotal < s.minimumOrder) {
    const missing = s.minimumOrder - totals.subtotal;
    throw new AppError(
      422,
      'orders/minimum-order',
      `The order is ${formatMoney(missing)} short of the minimum order of ${formatMoney(s.minimumOrder)}`,
      [{ path: 'items', message: `Missing ${missing}` }],
    );
  }
  const day = dayOf(input.dueDate, s.timeZone);
  const notes = await checkDay(db, { companyId, settings: s, day, window: input.window, staff: !web, now: p.placedAt });
  const at = p.placedAt.toISOString();
  const history: HistoryEntry[] = [{ at, by: actor, field: 'status', from: null, to: status }];
  for (const note of notes) history.push({ at, by: actor, field: 'dueDate', from: null, to: day, note });
  if (paymentStatus !== 'unpaid')
    history.push({ at, by: actor, field: 'paymentStatus', from: 'unpaid', to: paymentStatus });
  return {
    number: p.number,
    channel: web ? 'web' : input.b2bClientId ? 'b2b' : 'staff',
    customerId: input.customerId ?? null,
    b2bClientId: input.b2bClientId ?? null,
    contact: input.contact,
    items: lines,
    ...totals,
    fulfillment: input.fulfillment,
    address: input.fulfillment === 'delivery' ? input.address : null,
    dueDate: dayStartInZone(day, s.timeZone),
    window: input.window,
    preparationDate: preparationOf(day, s),
    status,
    paymentStatus,
    paymentMethod: input.paymentMethod,
    payment: null,
    deliveryAssistantId: input.deliveryAssistantId ?? null,
    routePosition: input.routePosition ?? null,
    producedQuantities: input.producedQuantities ?? {},
    cashCollected: input.cashCollected ?? null,
    completedAt: null,
    cancelReason: input.cancelReason ?? null,
    notes: input.notes,
    // A point sent with the address is a person's pin (the shopper's or staff's); none: the geocoder's to find.
    geoSource: input.fulfillment === 'delivery' && input.address && pointOf(input) ? 'pinned' : null,
    geoCheckedAt: null,
    history,
  };
}
