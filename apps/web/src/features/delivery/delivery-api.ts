import type { DeliveryDay } from '@hornada/domain/delivery';
import { IDEMPOTENCY_HEADER, type NotReceived } from '@hornada/domain/schemas/orders';
import { endpoints } from '../../lib/api/endpoints';
import { http } from '../../lib/api/http';
import { randomKey } from '../../lib/random-key';
import { useCompanyId } from '../../components/data-table/resource-client';
import { readForScreen, type ScreenRead } from '../../lib/api/screen-read';
import { useScreenData } from '../../lib/live/use-screen-data';
import { companyPath } from '../../lib/api/paths';

export type DeliveryLoad = ScreenRead<DeliveryDay>;

/** Every delivery screen's loader: a due day's deliveries, read by loadDeliveryDay. */
export type DeliveryLoader = (args: { request: Request }) => Promise<DeliveryLoad>;

/**
 * A due day's deliveries (GET …/deliveries): the delivery screens' loader, run again on every order change in
 * the company (useDeliveryDay). `onRead` also receives each answer (the driver's offline copy).
 */
export function loadDeliveryDay(
  request: Request,
  date: string,
  onRead?: (companyId: string, day: DeliveryDay) => void,
): Promise<DeliveryLoad> {
  return readForScreen(async (companyId) => {
    const day = await endpoints.deliveries(companyId, date, request.signal);
    onRead?.(companyId, day);
    return day;
  });
}

/** The day the screen's loader read, kept current (lib/live/use-screen-data.ts), and a way to read it again. */
export function useDeliveryDay(loader: DeliveryLoader): { load: DeliveryLoad; reload: () => void } {
  // Assignments, stops, moves and cash are all the orders'.
  const { data, reload } = useScreenData(loader, useCompanyId(), ['orders']);
  return { load: data, reload };
}

/** Names one driver (or none) for several orders at once, all or nothing (the orders' bulk update). */
export async function assignDriver(companyId: string, orderIds: readonly string[], driverId: string | null) {
  await http.patch(companyPath(companyId, 'orders', 'bulk-update'), {
    updates: orderIds.map((id) => ({ id, data: { deliveryAssistantId: driverId } })),
  });
}

/**
 * Orders a driver's stops nearest-neighbour from the bakery (POST …/deliveries/route); answers how many
 * stops had no point and so went last.
 */
export async function orderRoute(companyId: string, date: string, driverId: string): Promise<number> {
  const res = await endpoints.orderRoute(
    companyId,
    { date, deliveryAssistantId: driverId },
    { headers: { [IDEMPOTENCY_HEADER]: randomKey() } },
  );
  return res.unplaced;
}

/**
 * Writes the positions of a route as listed (after a move or a drop); a delivered stop keeps its own (the
 * server takes positions only for open orders).
 */
export async function savePositions(companyId: string, stops: readonly { id: string; status: string }[]) {
  const updates = stops
    .map((s, i) => ({ id: s.id, status: s.status, data: { routePosition: i + 1 } }))
    .filter((u) => u.status !== 'delivered')
    .map(({ id, data }) => ({ id, data }));
  await http.patch(companyPath(companyId, 'orders', 'bulk-update'), { updates });
}

/** One of the driver's moves on a stop, as the phone keeps it until it is sent. */
export interface DriverAction {
  /** The Idempotency-Key: a replay after a lost answer changes nothing twice. */
  key: string;
  orderId: string;
  number: number;
  body: {
    status?: 'out_for_delivery' | 'delivered' | 'ready';
    cashCollected?: number;
    notes?: string;
    /** With `status: 'ready'`: "No recibió", the stop goes back to the office with the reason. */
    notReceived?: NotReceived;
  };
  at: string;
}

export function newAction(stop: { id: string; number: number }, body: DriverAction['body']): DriverAction {
  return { key: randomKey(), orderId: stop.id, number: stop.number, body, at: new Date().toISOString() };
}

/**
 * Sends one driver action: the order's PATCH with its Idempotency-Key. No If-Match: the phone's queued moves
 * follow each other on one order; what the office changed meanwhile (a cancellation, another driver) is the
 * status machine's refusal, shown to the driver.
 */
export async function sendAction(companyId: string, action: DriverAction) {
  await http.patch(companyPath(companyId, 'orders', action.orderId), action.body, {
    headers: { [IDEMPOTENCY_HEADER]: action.key },
  });
}
