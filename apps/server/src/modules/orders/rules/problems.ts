import {
  describeMoment,
  fieldMomentOf,
  formatMoney,
  MONEY_MAX,
  type ErrorCode,
  type MomentField,
  type OrderStatus,
  type OrderTotals,
  type Role,
} from '@hornada/domain';
import { AppError } from '../../../lib/errors';

/** A 422 of the order rules: its code, its message, and the field it names. */
export const rule = (code: ErrorCode, message: string, path?: string) =>
  new AppError(422, code, message, path ? [{ path, message }] : undefined);

export const listOrNone = (items: readonly string[]) => (items.length ? items.join(', ') : 'none');

/**
 * The cap on order amounts (docs/design.md §4): past it a 422 naming `total`, before the database's integer
 * (2^31) would turn a huge order into a generic error. The subtotal counts too: a discount never
 * makes an order of a billion pesos acceptable.
 */
export function assertTotalWithinCap(totals: OrderTotals): void {
  const amount = Math.max(totals.subtotal, totals.total);
  if (amount <= MONEY_MAX) return;
  const message = `The order total ${formatMoney(amount)} is over the limit of ${formatMoney(MONEY_MAX)}`;
  throw new AppError(422, 'orders/total-too-large', message, [{ path: 'total', message: `At most ${MONEY_MAX}` }]);
}

/** A 422 naming the field and when it may change. */
export function outsideMoment(role: Role, field: MomentField, what: string): AppError {
  const moment = fieldMomentOf(role, field);
  const when = moment ? describeMoment(moment) : '';
  const only = when ? `it changes only ${when}` : 'it does not change now';
  return new AppError(422, 'orders/field-outside-move', `${what}; ${only}`, [
    { path: field, message: `Changes only ${when || 'in another moment'}` },
  ]);
}

/**
 * One rule for marking a cancelled order paid, whichever door a person uses: the
 * payment step of a PATCH and `mark-paid` both ask it, so both answer the same 422. `status` is the
 * order's status after the write. A gateway is not asked: money it received after a cancellation is
 * recorded as owed back (modules/payments), not refused.
 */
export function cancelledNotPayable(
  orders: readonly { number: number; status: OrderStatus; path: string }[],
): AppError | null {
  const cancelled = orders.filter((o) => o.status === 'cancelled');
  if (cancelled.length === 0) return null;
  const names = cancelled.map((o) => `#${o.number}`).join(', ');
  return new AppError(
    422,
    'orders/cancelled-not-payable',
    `A cancelled order cannot be marked paid: ${names}`,
    cancelled.map((o) => ({ path: o.path, message: `#${o.number} is cancelled` })),
  );
}

/** Two stored values are the same whatever the order of their keys (jsonb reorders them). */
export function sameValue(a: unknown, b: unknown): boolean {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v && typeof v === 'object' && !(v instanceof Date)
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
          )
        : v;
  return JSON.stringify(canonical(a ?? null)) === JSON.stringify(canonical(b ?? null));
}
