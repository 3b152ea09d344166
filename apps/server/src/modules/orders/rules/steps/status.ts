import {
  allowedStatusMoves,
  CANCELLABLE_STATUSES,
  mayChangeFieldAt,
  MOMENT_FIELDS,
  type OrderStatus,
  type Role,
} from '@hornada/domain';
import { AppError, badRequest, validationError } from '../../../../lib/errors';
import type { Actor as WriteActor } from '../../../../resources/actor';
import { logged, type Logged, type OrderRow, type OrderUpdate, type StepResult } from '../order-update';
import { listOrNone, outsideMoment, sameValue } from '../problems';

/**
 * The one status move the server makes on its own: a web order still pending whose online payment was
 * abandoned is cancelled (payments reconciliation), which frees its window's place.
 */
function systemStatusMoves(who: WriteActor, current: OrderRow): OrderStatus[] {
  const abandoned = who.kind === 'system' && who.reason === 'payment-abandoned';
  return abandoned && current.status === 'pending' && current.paymentMethod === 'online' ? ['cancelled'] : [];
}

/** Status (docs/design.md §5): the machine and the role table; a cancellation needs a reason. */
export function moveStatus(u: OrderUpdate): StepResult {
  const { current, data, role } = u;
  const to = data.status;
  if (to === undefined || to === current.status) return { drop: ['status'] };
  const allowed = role ? allowedStatusMoves(role, current.status, u.fulfillment) : systemStatusMoves(u.who, current);
  if (!allowed.includes(to)) {
    throw new AppError(
      422,
      'orders/invalid-transition',
      `Order #${current.number} cannot go from ${current.status} to ${to}; allowed: ${listOrNone(allowed)}`,
      [{ path: 'status', message: `Allowed: ${listOrNone(allowed)}` }],
    );
  }
  const log: Logged[] = [];
  const set: Record<string, unknown> = {};
  if (to === 'cancelled') {
    const reason = data.cancelReason ?? current.cancelReason;
    if (!reason) throw validationError([{ path: 'cancelReason', message: 'Say why the order is cancelled' }]);
    if (!CANCELLABLE_STATUSES.includes(current.status)) throw badRequest('Not cancellable');
    // The reason belongs to the move (field-moments refuses it with any other): logged just before it.
    if (!sameValue(data.cancelReason, current.cancelReason) && data.cancelReason !== undefined) {
      log.push(logged('cancelReason', current.cancelReason, data.cancelReason));
    }
  }
  if (current.status === 'out_for_delivery' && to === 'ready') {
    // "No recibió": the driver says why at the door; the order stays assigned (the driver
    // still carries it back and may try again), flagged for the office to reassign.
    if (!data.notReceived) {
      throw validationError([{ path: 'notReceived', message: 'Say why the order was not received' }]);
    }
    log.push(logged('notReceived', current.notReceived, data.notReceived));
  } else if (to === 'out_for_delivery' && current.notReceived) {
    // It sets off again: the failed attempt stays in history only.
    set.notReceived = null;
    log.push(logged('notReceived', current.notReceived, null));
  }
  if (to === 'delivered') set.completedAt = u.now;
  log.push(logged('status', current.status, to));
  return { set, log };
}

/**
 * A field bound to a moment of the order (docs/design.md §5's role × field table, ORDER_FIELD_MOMENTS)
 * changes only in that moment: a reason only with a cancellation, cash only on the way or with the
 * delivery, never on a cancelled order. Judged after the status step, so the move is a valid one.
 */
export function checkFieldMoments(u: OrderUpdate): void {
  const { current, data, role } = u;
  // The other actors' lines reach no field bound to a moment (a gateway moves the payment only).
  if (!role) return;
  const to = data.status !== undefined && data.status !== current.status ? data.status : null;
  for (const field of MOMENT_FIELDS) {
    const sent = data[field];
    if (sent === undefined || sameValue(sent, current[field])) continue;
    if (mayChangeFieldAt(role, field, current.status, to)) continue;
    const when = to ? `with the move to ${to}` : `while it is ${current.status}`;
    throw outsideMoment(role, field, `${field} cannot change on order #${current.number} ${when}`);
  }
}

/**
 * The moment fields of a new order: a back-office order starts pending or confirmed, so a field of a
 * later move (a cancellation's reason, cash, produced quantities) is refused on creation.
 */
export function assertNewOrderMoments(role: Role, data: Record<string, unknown>): void {
  const status: OrderStatus = data.status === 'confirmed' ? 'confirmed' : 'pending';
  for (const field of MOMENT_FIELDS) {
    const value = data[field];
    if (value === undefined || value === null || sameValue(value, {})) continue;
    if (!mayChangeFieldAt(role, field, status, null)) {
      throw outsideMoment(role, field, `${field} cannot be set on a new order that is ${status}`);
    }
  }
}
