import type { SuspiciousOrder } from '@hornada/domain/schemas/orders';
import { can } from '@hornada/domain/policy';
import type { Role } from '@hornada/domain/roles';
import { endpoints } from '../../lib/api/endpoints';

/** The reason a flagged order's cancel dialog starts with (staff may change it). */
export const SUSPICIOUS_CANCEL_REASON_ES =
  'Pedido sospechoso: el mismo teléfono tiene varios pedidos sin pagar para ese día.';

/** What the flag says of an order: how many unpaid web orders share its phone and due day. */
export function suspiciousText(samePhone: number): string {
  return `Mismo teléfono en ${samePhone} pedidos web sin pagar para ese día`;
}

/** No flags: for a role the server would refuse them, or when they cannot be read. */
export const NO_FLAGS: ReadonlyMap<string, SuspiciousOrder> = new Map();

/**
 * The web orders the server flags (unpaid, sharing their phone with two or more others due the same day), by id:
 * read with the list's page (its loader), so that a row's flag is never older than the row. Only the back office,
 * which may cancel any order, is shown them (the server refuses the others); a flag is a hint, so when it cannot
 * be read the list still works without it.
 */
export async function readSuspicious(
  companyId: string,
  role: Role | null,
  signal?: AbortSignal,
): Promise<ReadonlyMap<string, SuspiciousOrder>> {
  if (role === null || !can(role, 'orders', 'create')) return NO_FLAGS;
  try {
    const list = await endpoints.suspiciousOrders(companyId, signal);
    return new Map(list.map((f) => [f.id, f]));
  } catch {
    return NO_FLAGS;
  }
}
