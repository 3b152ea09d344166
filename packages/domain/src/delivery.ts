import { z } from 'zod';
import { ContactRecord } from './schemas/carts';
import { NotReceivedRecord, ORDER_PAYMENT_METHODS, ORDER_STATUSES, PAYMENT_STATUSES } from './schemas/orders';
import { address } from './schemas/users';

/**
 * A due day's deliveries (docs/design.md §3 "operations"): the stops by driver in route order, each
 * driver's cash to collect against collected. The server computes it (modules/delivery); the office,
 * the summary and the driver's phone read it.
 */

export const DeliveryStop = z.object({
  id: z.string(),
  number: z.number().int(),
  status: z.enum(ORDER_STATUSES),
  contact: ContactRecord,
  address: address.nullable(),
  window: z.string().nullable(),
  windowLabel: z.string().nullable(),
  items: z.array(z.object({ productId: z.string(), name: z.string(), quantity: z.number().int() })),
  total: z.number().int(),
  paymentMethod: z.enum(ORDER_PAYMENT_METHODS),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  amountToCollect: z.number().int().describe('Cash the driver collects at the door (0 when nothing is owed there)'),
  cashCollected: z.number().int().nullable(),
  deliveryAssistantId: z.string().nullable(),
  routePosition: z.number().int().nullable(),
  notes: z.string().nullable(),
  /** The instant the order last changed: the driver's If-Match (docs/design.md §3's preconditions). */
  updatedAt: z.string(),
  /** True when the address has no coordinates: routed last, flagged for the office. */
  noCoordinates: z.boolean(),
  /** The driver's "No recibió" while the stop is back at the office, to reassign (null otherwise). */
  notReceived: NotReceivedRecord.nullable(),
});
export type DeliveryStop = z.infer<typeof DeliveryStop>;

export const DeliveryTotals = z.object({
  stops: z.number().int(),
  delivered: z.number().int(),
  pending: z.number().int(),
  cashToCollect: z.number().int().describe("The day's cash to collect, every stop"),
  cashLeft: z.number().int().describe('Cash still to collect: the stops whose cash was not collected yet'),
  cashCollected: z.number().int(),
  difference: z.number().int().describe('cashCollected − cashToCollect over the delivered stops'),
});
export type DeliveryTotals = z.infer<typeof DeliveryTotals>;

export const DeliveryRoute = z.object({
  /** null: the stops nobody drives yet. */
  driver: z.object({ id: z.string(), name: z.string() }).nullable(),
  stops: z.array(DeliveryStop),
  totals: DeliveryTotals,
});
export type DeliveryRoute = z.infer<typeof DeliveryRoute>;

export const DeliveryDay = z.object({
  date: z.string(),
  /** The bakery's location in settings: where every route starts (null: not set, routes cannot be ordered). */
  origin: z.object({ lat: z.number(), lng: z.number() }).nullable(),
  routes: z.array(DeliveryRoute),
  /** Who may be named a driver (for the office's assignment; empty for a driver). */
  drivers: z.array(z.object({ id: z.string(), name: z.string() })),
  totals: DeliveryTotals,
});
export type DeliveryDay = z.infer<typeof DeliveryDay>;

export const DeliveryQuery = z.object({ date: z.iso.date() });
export type DeliveryQuery = z.infer<typeof DeliveryQuery>;

export const RouteInput = z.object({ date: z.iso.date(), deliveryAssistantId: z.string().min(1).max(64) }).strict();
export type RouteInput = z.infer<typeof RouteInput>;

export interface Point {
  lat: number;
  lng: number;
}

/** Great-circle distance in metres (haversine): the streets differ, the order of nearness rarely does. */
export function distanceMeters(a: Point, b: Point): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The statuses whose stop is still ahead: a route orders them and a pin may still move (not delivered nor cancelled). */
export const ROUTABLE_STATUSES = ['pending', 'confirmed', 'in_production', 'ready', 'out_for_delivery'] as const;

type PlaceText = { line: string; neighborhood: string | null; city: string | null };

/**
 * Two addresses name the same place: line, neighbourhood and city equal (a label, notes or the pin may
 * differ). A new place drops the point of the old one (the order rules place it again).
 */
export function samePlace(a: PlaceText, b: PlaceText): boolean {
  return (
    a.line === b.line && (a.neighborhood ?? null) === (b.neighborhood ?? null) && (a.city ?? null) === (b.city ?? null)
  );
}

/** A stop's coordinates, when its address has both. */
export function pointOf(stop: { address: { lat: number | null; lng: number | null } | null }): Point | null {
  const a = stop.address;
  return a && a.lat !== null && a.lng !== null ? { lat: a.lat, lng: a.lng } : null;
}

/**
 * Nearest neighbour from `origin` (docs/design.md §3's route): each next stop is the closest to the last one;
 * a tie goes to the earlier stop of the input, so the order is stable. Stops without coordinates come
 * last, in their input order. O(n²), a day's route being tens of stops.
 */
export function nearestNeighbour<T extends { address: { lat: number | null; lng: number | null } | null }>(
  origin: Point,
  stops: readonly T[],
): T[] {
  const located = stops.map((s) => ({ s, p: pointOf(s) })).filter((x): x is { s: T; p: Point } => x.p !== null);
  const out: T[] = [];
  let at = origin;
  while (located.length > 0) {
    let best = 0;
    let bestD = Infinity;
    for (const [i, x] of located.entries()) {
      const d = distanceMeters(at, x.p);
      if (d < bestD) {
        best = i;
        bestD = d;
      }
    }
    const [next] = located.splice(best, 1);
    out.push(next!.s);
    at = next!.p;
  }
  return [...out, ...stops.filter((s) => pointOf(s) === null)];
}

/**
 * Cash the driver collects at the door: a cash order's total unless staff settled it before the trip
 * (paid without any cash collected); collected cash marks the order paid, so it still counts then.
 */
export function amountToCollect(o: {
  paymentMethod: string;
  paymentStatus: string;
  total: number;
  cashCollected: number | null;
}): number {
  if (o.paymentMethod !== 'cash') return 0;
  if ((o.paymentStatus === 'paid' || o.paymentStatus === 'refunded') && o.cashCollected === null) return 0;
  return o.total;
}

/**
 * What an unconfirmed transfer owes at the door: its total while the transfer is unpaid, else 0.
 * Not cash to collect (the shopper may still transfer), but the driver may take it in cash, which pays it.
 */
export function unconfirmedTransfer(o: { paymentMethod: string; paymentStatus: string; total: number }): number {
  return o.paymentMethod === 'transfer' && o.paymentStatus === 'unpaid' ? o.total : 0;
}

/**
 * A route's or a day's counts: cash to collect counts every stop, cash left only the stops not collected yet
 * (what the driver still has to ask for), the difference only delivered ones.
 */
export function deliveryTotals(stops: readonly DeliveryStop[]): DeliveryTotals {
  let delivered = 0;
  let cashToCollect = 0;
  let cashLeft = 0;
  let cashCollected = 0;
  let deliveredToCollect = 0;
  for (const s of stops) {
    cashToCollect += s.amountToCollect;
    if (s.cashCollected === null) cashLeft += s.amountToCollect;
    cashCollected += s.cashCollected ?? 0;
    if (s.status === 'delivered') {
      delivered += 1;
      deliveredToCollect += s.amountToCollect;
    }
  }
  return {
    stops: stops.length,
    delivered,
    pending: stops.length - delivered,
    cashToCollect,
    cashLeft,
    cashCollected,
    difference: cashCollected - deliveredToCollect,
  };
}

/** Map links for a stop: by coordinates when it has them, else by the address text. */
export function mapLinks(stop: {
  address: {
    line: string;
    neighborhood?: string | null;
    city?: string | null;
    lat: number | null;
    lng: number | null;
  } | null;
}): { google: string; waze: string } | null {
  const a = stop.address;
  if (!a) return null;
  const p = pointOf(stop);
  if (p) {
    const ll = `${p.lat},${p.lng}`;
    return {
      google: `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(ll)}`,
      waze: `https://waze.com/ul?ll=${encodeURIComponent(ll)}&navigate=yes`,
    };
  }
  const text = [a.line, a.neighborhood, a.city].filter(Boolean).join(', ');
  return {
    google: `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(text)}`,
    waze: `https://waze.com/ul?q=${encodeURIComponent(text)}&navigate=yes`,
  };
}
