import type { ProductionOrder } from '@hornada/domain/production';
import { useEffect, useReducer, useRef } from 'react';
import { ApiError, http } from '../../lib/api/http';
import { toastStore } from '../../lib/toast-store';
import { failure } from './production-api';
import { missingOf, nextOrderFor, producePatches } from './production-view';
import { caughtUp, rememberWrite, unitsToAdd, withWritten, type Written } from './tablet-taps';
import { companyPath } from '../../lib/api/paths';

/** A write that failed for want of signal (or a server hiccup) is tried again this much later. */
const RETRY_MS = 3000;

/** A refusal the same write will meet again (the order moved on, a rule): its taps are dropped, not retried. */
const refused = (err: unknown) =>
  err instanceof ApiError &&
  err.status !== null &&
  err.status >= 400 &&
  err.status < 500 &&
  ![408, 429].includes(err.status);

/**
 * The tablet's taps of one preparation day: each counts at once on screen and waits in a queue
 * that one loop writes, an order at a time, starting from what it wrote last. Taps made while a write runs
 * go in the next one; without signal the queue waits and is tried again. The loop outlives the screen (a
 * switch to tomorrow does not lose today's taps).
 */
export function useTabletTaps(companyId: string | null, served: readonly ProductionOrder[]) {
  const [, changed] = useReducer((n: number) => n + 1, 0);
  const state = useRef({
    served,
    written: new Map<string, Written>(),
    queued: new Map<string, number>(),
    running: false,
    offline: false,
  }).current;
  state.served = served;

  // What the server now shows of a write is no longer the tablet's to remember.
  useEffect(() => {
    for (const o of served) {
      const w = state.written.get(o.id);
      if (w && caughtUp(o, w)) state.written.delete(o.id);
    }
  }, [served, state]);

  const orders = withWritten(served, state.written);

  async function flush(): Promise<void> {
    if (state.running || !companyId) return;
    state.running = true;
    let retry = false;
    try {
      for (;;) {
        const next = [...state.queued].find(([, n]) => n > 0);
        if (!next) break;
        const [productId, n] = next;
        const current = withWritten(state.served, state.written);
        const order = nextOrderFor(current, productId);
        const units = order ? Math.min(n, missingOf(order, productId)) : 0;
        if (!order || units <= 0) {
          // Nothing left to put them on (made elsewhere, an order cancelled): the count shows the truth.
          state.queued.delete(productId);
          changed();
          continue;
        }
        try {
          for (const body of producePatches(order, [productId], units)) {
            await http.patch(companyPath(companyId, 'orders', order.id), body);
            state.written.set(order.id, rememberWrite(state.written.get(order.id), order, body));
          }
          state.queued.set(productId, (state.queued.get(productId) ?? 0) - units);
          state.offline = false;
        } catch (err) {
          if (!refused(err)) {
            // The screen says so while it lasts (no toast asking to try again: the queue does).
            state.offline = true;
            retry = true;
            break;
          }
          toastStore.getState().show({ type: 'error', message: failure(err) });
          state.queued.delete(productId);
        }
        changed();
      }
    } finally {
      state.running = false;
      changed();
      if (retry) setTimeout(() => void flush(), RETRY_MS);
    }
  }

  /** `units` more of a product (or all it lacks), bounded by what its confirmed orders still miss. */
  const add = (productId: string, units: number | 'all') => {
    const queued = state.queued.get(productId) ?? 0;
    const n = unitsToAdd(orders, productId, queued, units);
    if (n <= 0) return;
    state.queued.set(productId, queued + n);
    changed();
    void flush();
  };

  return {
    orders,
    queuedOf: (productId: string) => state.queued.get(productId) ?? 0,
    /** Taps wait for signal (a write failed and is tried again). */
    offline: state.offline,
    add,
  };
}
