import type { OrderInput } from '@hornada/domain';
import { users } from '../../../../db/schema';
import { namesOf } from '../lookups';
import { logged, type Logged, type OrderRow, type OrderUpdate, type StepResult } from '../order-update';
import { sameValue } from '../problems';

/** The writable fields no step logs itself: history-of-the-rest logs their changes. */
const LOGGED_BY_THE_REST = [
  'customerId',
  'contact',
  'address',
  'routePosition',
  'producedQuantities',
  'notes',
] as const satisfies readonly (keyof OrderInput & keyof OrderRow)[];
/** The writable fields the other steps log (cancelReason with the cancellation, in the status step). */
type LoggedBySteps =
  | 'status'
  | 'cancelReason'
  | 'notReceived'
  | 'refundReason'
  | 'refundsDue'
  | 'refund'
  | 'deliveryAssistantId'
  | 'paymentMethod'
  | 'paymentStatus'
  | 'cashCollected'
  | 'dueDate'
  | 'window'
  | 'fulfillment'
  | 'items'
  | 'b2bClientId';
type Unlogged = Exclude<keyof OrderInput, (typeof LOGGED_BY_THE_REST)[number] | LoggedBySteps>;
/** Fails to compile when OrderInput gains a field that no step logs (every change lands in history). */
const _everyFieldLogged: [Unlogged] extends [never] ? true : Unlogged = true;

/**
 * Every other change of a writable field lands in history too (contact, address, customer, route,
 * produced quantities, the cancellation's reason, notes): compared with what is stored, whoever
 * writes it. The fields the steps before own log themselves.
 */
export async function logTheRest(u: OrderUpdate): Promise<StepResult> {
  const log: Logged[] = [];
  for (const field of LOGGED_BY_THE_REST) {
    if (!(field in u.out)) continue;
    // The geocoder's point is not a change anybody made to the order.
    if (field === 'address' && u.who.kind === 'system' && u.who.reason === 'geocoding') continue;
    const before = u.current[field];
    const after = u.out[field];
    if (sameValue(before, after)) continue;
    const names =
      field === 'customerId'
        ? await namesOf(u.db, users, u.companyId, u.current.customerId, (after as string | null) ?? null)
        : undefined;
    log.push(logged(field, before ?? null, after ?? null, undefined, names));
  }
  return { log };
}
