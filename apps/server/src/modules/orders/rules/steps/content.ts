import { EDITABLE_STATUSES, ROUTABLE_STATUSES, type OrderStatus } from '@hornada/domain';
import { validationError } from '../../../../lib/errors';
import { CONTENT_FIELDS, logged, type OrderUpdate, type StepResult } from '../order-update';
import { rule } from '../problems';

/** The lines, the day and the delivery details change only while the order is editable. */
export function lockContent(u: OrderUpdate): StepResult {
  const { current, editing } = u;
  if (editing.length > 0 && !EDITABLE_STATUSES.includes(current.status)) {
    throw rule('orders/locked', `An order that is ${current.status} cannot change: ${editing.join(', ')}`, editing[0]);
  }
  if (u.pinOnly && !(ROUTABLE_STATUSES as readonly OrderStatus[]).includes(current.status)) {
    throw rule('orders/locked', `An order that is ${current.status} cannot change: address`, 'address');
  }
  // A content field sent as it already is is not stored again (a pin's address is, as the point moved).
  return { drop: CONTENT_FIELDS.filter((f) => !editing.includes(f) && !(f === 'address' && u.pinOnly)) };
}

/** A delivery needs an address; a pickup drops it. */
export function changeFulfillment(u: OrderUpdate): StepResult | void {
  const { current, data, fulfillment } = u;
  if (fulfillment === 'delivery' && !(data.address !== undefined ? data.address : current.address)) {
    throw validationError([{ path: 'address', message: 'Required for delivery' }]);
  }
  if (!u.editing.includes('fulfillment')) return;
  return {
    log: [logged('fulfillment', current.fulfillment, fulfillment)],
    ...(fulfillment === 'pickup' ? { set: { address: null } } : {}),
  };
}
