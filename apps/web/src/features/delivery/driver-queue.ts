import type { DeliveryDay } from '@hornada/domain/delivery';
import { ApiError } from '../../lib/http';
import { sendAction, type DriverAction } from './delivery-api';

/**
 * The driver's phone keeps its moves (IndexedDB) until they are sent, in the order they were made, so a
 * stop delivered in a lift or on the TransMilenio is not lost; each keeps its Idempotency-Key, so a replay
 * after a lost answer changes nothing twice. A move the server refuses (the office cancelled the order, or
 * gave it to another driver) becomes a conflict the driver reads in plain Spanish, never dropped silently.
 * The last route read is kept too, to show without signal.
 */

export interface Conflict {
  action: DriverAction;
  message: string;
}

const DB_NAME = 'hornada-driver';
const ACTIONS = 'actions';
const CONFLICTS = 'conflicts';
const ROUTES = 'routes';

let opened: Promise<IDBDatabase> | null = null;

function db(): Promise<IDBDatabase> {
  opened ??= new Promise((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => {
      const d = req.result;
      // Actions in the order made: `at` is an ISO instant, `key` breaks ties.
      d.createObjectStore(ACTIONS, { keyPath: ['at', 'key'] });
      d.createObjectStore(CONFLICTS, { keyPath: 'action.key' });
      d.createObjectStore(ROUTES, { keyPath: 'key' });
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB'));
  });
  return opened;
}

async function run<T>(store: string, mode: IDBTransactionMode, work: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const d = await db();
  return new Promise((resolve, reject) => {
    const tx = d.transaction(store, mode);
    const req = work(tx.objectStore(store));
    tx.oncomplete = () => resolve(req.result);
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB'));
  });
}

const listeners = new Set<() => void>();
const changed = () => {
  for (const l of listeners) l();
};

/** Calls `fn` whenever the queue or the conflicts change (this tab). */
export function onQueueChange(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export const pendingActions = () => run<DriverAction[]>(ACTIONS, 'readonly', (s) => s.getAll());
export const conflicts = () => run<Conflict[]>(CONFLICTS, 'readonly', (s) => s.getAll());

export async function dismissConflict(key: string) {
  await run(CONFLICTS, 'readwrite', (s) => s.delete(key));
  changed();
}

/** The route last read for a company and day, to show without signal. */
export async function keepRoute(companyId: string, day: DeliveryDay) {
  await run(ROUTES, 'readwrite', (s) => s.put({ key: `${companyId}|${day.date}`, day }));
}

export async function keptRoute(companyId: string, date: string): Promise<DeliveryDay | null> {
  const row = await run<{ day: DeliveryDay } | undefined>(ROUTES, 'readonly', (s) => s.get(`${companyId}|${date}`));
  return row?.day ?? null;
}

/** Keeps a move and tries to send it (and any before it) at once. */
export async function enqueue(companyId: string, action: DriverAction) {
  await run(ACTIONS, 'readwrite', (s) => s.put(action));
  changed();
  await flush(companyId);
}

let flushing: Promise<void> | null = null;

/**
 * Sends the kept moves in order. Without a connection (no answer at all) it stops and waits for the next
 * `online`; a refusal moves that action to the conflicts and goes on with the next.
 */
export function flush(companyId: string): Promise<void> {
  flushing ??= (async () => {
    try {
      for (const action of await pendingActions()) {
        try {
          await sendAction(companyId, action);
        } catch (err) {
          if (!(err instanceof ApiError) || err.status === null || err.status >= 500 || err.status === 429) return;
          await run(CONFLICTS, 'readwrite', (s) => s.put({ action, message: conflictText(action, err) }));
        }
        await run(ACTIONS, 'readwrite', (s) => s.delete([action.at, action.key]));
        changed();
      }
    } finally {
      flushing = null;
    }
  })();
  return flushing;
}

/** What the driver reads when the office changed the order meanwhile. */
export function conflictText(action: DriverAction, err: ApiError): string {
  const what =
    action.body.status === 'delivered'
      ? 'marcar como entregado'
      : action.body.status === 'out_for_delivery'
        ? 'marcar en camino'
        : 'actualizar';
  if (err.status === 404 || err.status === 403)
    return `No se pudo ${what} el pedido #${action.number}: ya no está asignado a ti. Llama a la panadería.`;
  return `No se pudo ${what} el pedido #${action.number}: la panadería lo cambió mientras tanto (${err.userMessage}). Llama a la panadería.`;
}
