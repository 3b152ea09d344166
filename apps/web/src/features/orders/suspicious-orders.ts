import type { SuspiciousOrder } from '@hornada/domain/schemas/orders';
import { useEffect, useState } from 'react';
import { endpoints } from '../../lib/api/endpoints';
import { getLiveStream } from '../../lib/live/live-stream';

/** Live changes gather this long before the flags are read again. */
const REREAD_DELAY_MS = 600;

/** The reason a flagged order's cancel dialog starts with (staff may change it). */
export const SUSPICIOUS_CANCEL_REASON_ES =
  'Pedido sospechoso: el mismo teléfono tiene varios pedidos sin pagar para ese día.';

/** What the flag says of an order: how many unpaid web orders share its phone and due day. */
export function suspiciousText(samePhone: number): string {
  return `Mismo teléfono en ${samePhone} pedidos web sin pagar para ese día`;
}

/**
 * The web orders the server flags (unpaid, sharing their phone with two or more others due the
 * same day), by id: read once, then again whenever the stream reports an order change (a new order, a
 * cancel), and whenever `listKey` (the list's view) changes: the rows are read then, and their flags must not be
 * older than they are (a first read that failed, or orders the stream had not reported yet, would otherwise
 * leave them unflagged). The server decides what is suspicious; `enabled` is false for roles it would refuse.
 */
export function useSuspiciousOrders(
  companyId: string | null,
  enabled: boolean,
  listKey: string,
): ReadonlyMap<string, SuspiciousOrder> {
  const [flags, setFlags] = useState<ReadonlyMap<string, SuspiciousOrder>>(new Map());
  useEffect(() => {
    if (!companyId || !enabled) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const controller = new AbortController();
    const read = () =>
      endpoints
        .suspiciousOrders(companyId, controller.signal)
        .then((list) => {
          if (live) setFlags(new Map(list.map((f) => [f.id, f])));
        })
        // A flag is a hint: when it cannot be read, the list still works without it.
        .catch(() => undefined);
    void read();
    const unsubscribe = getLiveStream().subscribe(companyId, 'orders', {
      onChanges: () => {
        if (timer) clearTimeout(timer);
        timer = setTimeout(() => void read(), REREAD_DELAY_MS);
      },
      onReset: () => void read(),
    });
    return () => {
      live = false;
      controller.abort();
      if (timer) clearTimeout(timer);
      unsubscribe();
    };
  }, [companyId, enabled, listKey]);
  return enabled ? flags : new Map();
}
