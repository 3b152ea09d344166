import type { DeliveryDay } from '@hornada/domain/delivery';
import { authStore } from '../../lib/auth/auth-store';
import { ApiError } from '../../lib/api/http';
import { oneRunAtATime } from '../../lib/one-run-at-a-time';
import { sendAction, type DriverAction } from './delivery-api';

/**
 * The driver's phone keeps its moves (IndexedDB) until they are sent, in the order they were made, so a
 * stop delivered in a lift or on the TransMilenio is not lost; each keeps its Idempotency-Key, so a replay
 * after a lost answer changes nothing twice. A move the server refuses (the office cancelled the order, or
 * gave it to another driver) becomes a conflict the driver reads in plain Spanish, never dropped silently.
 * The last route read is kept too, to show without signal.
 *
 * A phone is often shared by the bakery's drivers: everything here lives in one database per signed-in
 * user (`hornada-driver:<uid>`), so the next driver on the phone never reads, nor sends with their own
 * session, the first one's route or moves. Sign-out forgets the user's route (driver-sign-out.tsx).
 */

export interface Conflict {
  action: DriverAction;
  message: string;
}

const DB_PREFIX = 'hornada-driver:';
const ACTIONS = 'actions';
const CONFLICTS = 'conflicts';
const ROUTES = 'routes';

const opened = new Map<string, Promise<IDBDatabase>>();

/** Whether the tab's session is `uid`'s: a user's moves are read and sent only with their own session. */
const signedInAs = (uid: string) => authStore.getState().user?.uid === uid;

/**
 * Users signing out of this tab: their database is not opened again (a late read of the page they leave
 * would recreate what sign-out just removed), until they sign in again.
 */
const leaving = new Set<string>();
let watching = false;
function watchSignIns() {
  if (watching) return;
  watching = true;
  authStore.subscribe((state, before) => {
    const uid = state.user?.uid;
    if (uid && uid !== before.user?.uid) leaving.delete(uid);
  });
}

function db(uid: string): Promise<IDBDatabase> {
  watchSignIns();
  // Only the signed-in user's own database is ever opened (a shared phone).
  if (leaving.has(uid) || !signedInAs(uid)) return Promise.reject(new Error('Not the signed-in user'));
  let open = opened.get(uid);
  if (!open) {
    open = new Promise((resolve, reject) => {
      const req = indexedDB.open(DB_PREFIX + uid, 1);
      req.onupgradeneeded = () => {
        const d = req.result;
        // Actions in the order made: `at` is an ISO instant, `key` breaks ties.
        d.createObjectStore(ACTIONS, { keyPath: ['at', 'key'] });
        d.createObjectStore(CONFLICTS, { keyPath: 'action.key' });
        d.createObjectStore(ROUTES, { keyPath: 'key' });
      };
      req.onsuccess = () => {
        // Another tab deleting this user's database (a sign-out there) must not wait on this one.
        req.result.onversionchange = () => {
          req.result.close();
          opened.delete(uid);
        };
        resolve(req.result);
      };
      req.onerror = () => reject(req.error ?? new Error('IndexedDB'));
    });
    opened.set(uid, open);
    open.catch(() => opened.delete(uid));
  }
  return open;
}

async function run<T>(
  uid: string,
  store: string,
  mode: IDBTransactionMode,
  work: (s: IDBObjectStore) => IDBRequest<T>,
): Promise<T> {
  const d = await db(uid);
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

/** Calls `fn` whenever a queue or its conflicts change (this tab). */
export function onQueueChange(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export const pendingActions = (uid: string) => run<DriverAction[]>(uid, ACTIONS, 'readonly', (s) => s.getAll());
export const conflicts = (uid: string) => run<Conflict[]>(uid, CONFLICTS, 'readonly', (s) => s.getAll());

export async function dismissConflict(uid: string, key: string) {
  await run(uid, CONFLICTS, 'readwrite', (s) => s.delete(key));
  changed();
}

/** The route last read for a company and day, to show without signal. */
export async function keepRoute(uid: string, companyId: string, day: DeliveryDay) {
  await run(uid, ROUTES, 'readwrite', (s) => s.put({ key: `${companyId}|${day.date}`, day }));
}

export async function keptRoute(uid: string, companyId: string, date: string): Promise<DeliveryDay | null> {
  const row = await run<{ day: DeliveryDay } | undefined>(uid, ROUTES, 'readonly', (s) =>
    s.get(`${companyId}|${date}`),
  );
  return row?.day ?? null;
}

/** Closes this tab's connection to the user's database, and opens it no more until they sign in again. */
async function leave(uid: string) {
  leaving.add(uid);
  const open = opened.get(uid);
  opened.delete(uid);
  if (open) (await open.catch(() => null))?.close();
}

/** Sign-out: forgets the routes kept for this user (customers' names and addresses leave the phone). */
export async function forgetRoutes(uid: string) {
  await run(uid, ROUTES, 'readwrite', (s) => s.clear()).finally(() => leave(uid));
}

/** Sign-out: forgets everything this phone kept for the user: routes, moves not sent, conflicts. */
export async function forgetAll(uid: string) {
  await leave(uid);
  await new Promise<void>((resolve, reject) => {
    const req = indexedDB.deleteDatabase(DB_PREFIX + uid);
    req.onsuccess = () => resolve();
    req.onerror = () => reject(req.error ?? new Error('IndexedDB'));
    // Another tab still holds it open: it closes on the version change (db() above), then this goes on.
    req.onblocked = () => undefined;
  });
}

/** Keeps a move and tries to send it (and any before it) at once. */
export async function enqueue(uid: string, companyId: string, action: DriverAction) {
  await run(uid, ACTIONS, 'readwrite', (s) => s.put(action));
  changed();
  await flush(uid, companyId);
}

/**
 * Sends the user's kept moves in order. Without a connection (no answer at all) it stops and waits for the
 * next `online`; a refusal moves that action to the conflicts and goes on with the next. It stops too when
 * the tab's session is no longer this user's. Asked while a pass runs (the connection came back while a send
 * was still waiting for an answer it will not get), it makes one more pass after it.
 */
export const flush = oneRunAtATime(async (uid: string, companyId: string): Promise<void> => {
  for (const action of await pendingActions(uid)) {
    if (!signedInAs(uid)) return;
    try {
      await sendAction(companyId, action);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status === null || err.status >= 500 || err.status === 429) return;
      if (err.status === 401) return;
      await run(uid, CONFLICTS, 'readwrite', (s) => s.put({ action, message: conflictText(action, err) }));
    }
    await run(uid, ACTIONS, 'readwrite', (s) => s.delete([action.at, action.key]));
    changed();
  }
});

/** What the driver reads when the office changed the order meanwhile. */
export function conflictText(action: DriverAction, err: ApiError): string {
  const what =
    action.body.status === 'delivered'
      ? 'marcar como entregado'
      : action.body.status === 'out_for_delivery'
        ? 'marcar en camino'
        : action.body.status === 'ready'
          ? 'devolver a la panadería'
          : 'actualizar';
  if (err.status === 404 || err.status === 403)
    return `No se pudo ${what} el pedido #${action.number}: ya no está asignado a ti. Llama a la panadería.`;
  return `No se pudo ${what} el pedido #${action.number}: la panadería lo cambió mientras tanto (${err.userMessage}). Llama a la panadería.`;
}
