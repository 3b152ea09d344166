import { firstName } from '@hornada/domain/names';
import { ROLE_PLACES } from '@hornada/domain/areas';
import { useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router';
import { useStore } from 'zustand';
import type { HeaderAccount } from '../components/site-header';
import type { MenuCollection, MenuProduct } from '../components/products-menu';
import { storefrontPaths as paths } from '../config/storefront-paths';
import {
  currentAuthStore,
  holdsSession,
  loadAuthStore,
  onAuthStore,
  onSessionStoredElsewhere,
} from '../lib/auth/auth-presence';
import type { SessionUser } from '../lib/auth/session-types';
import { countItems, getCartStore } from '../lib/cart-store';
import { signOutGuard } from '../lib/auth/sign-out-guard';
import { setUnauthorizedHandler } from '../lib/auth/token-storage';
import { getLiveStream } from '../lib/live/live-stream';
import { useHydrated } from '../lib/use-hydrated';
import { useLiveList } from '../lib/live/use-live-list';
import { accountPath, logoPath, type GuardUser } from './landing';

/**
 * The session as the app shell reads it: the auth store (lib/auth/auth-store.ts) after its start-up check, the
 * shared live stream following its token, and the header's user-specific slots.
 */

let ready = false;
let user: SessionUser | null = null;
/** The cart being joined after a sign-in: a sign-out waits for it (its calls carry the session's token). */
let joining: Promise<void> | null = null;
/** How long a sign-out waits for that join. */
const JOIN_WAIT_MS = 3_000;
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};

/**
 * Starts the auth check and ties the HTTP client and the live stream to the session. Browser only, once.
 * A guest's page does not load the auth store (lib/auth/auth-presence.ts): it is ready at once, signed out.
 */
export function startSession(companyId: string | null): void {
  setUnauthorizedHandler(() => void refused());
  const live = getLiveStream();
  live.onUnauthorized(() => void refused());
  onAuthStore((authStore) => {
    user = authStore.getState().user;
    authStore.subscribe((state, before) => {
      // The stream reopens with the new credentials whenever the token changes (sign-in, refresh, sign-out).
      if (state.idToken !== before.idToken) live.reconnect();
      const next = state.user;
      // A guest's cart joins the customer's when they sign in.
      if (next && ROLE_PLACES[next.role].shops && next.uid !== before.user?.uid) {
        const join = import('./customer-cart')
          .then(({ joinCustomerCart }) => joinCustomerCart(next.uid, companyId))
          .finally(() => {
            if (joining === join) joining = null;
          });
        joining = join;
      }
      // A customer's cart is theirs: it leaves this browser with them (a shared computer shows it to nobody).
      if (!next && before.user && ROLE_PLACES[before.user.role].shops) getCartStore().getState().clear();
      if (next !== user) {
        user = next;
        notify();
      }
    });
    // A guest whose page was already ready stays so (the header does not blink) while the store checks.
    void authStore
      .getState()
      .whenReady()
      .then(() => {
        ready = true;
        user = authStore.getState().user;
        notify();
      });
  });
  if (holdsSession()) {
    // Should the store's chunk fail to load, the page goes on signed out rather than waiting forever.
    loadAuthStore().catch(() => {
      ready = true;
      notify();
    });
  } else {
    ready = true;
    notify();
    onSessionStoredElsewhere(() => void loadAuthStore());
  }
}

const endedListeners = new Set<() => void>();

/**
 * A refused token (a call's or the live stream's 401): the auth store tries one refresh; when that leaves a
 * signed-in tab signed out, the server ended the session (the account was disabled or deleted, or signed
 * out everywhere), and the signed-in areas send the person to the login with a notice.
 */
async function refused(): Promise<void> {
  const store = currentAuthStore();
  if (!store) return;
  const before = store.getState().user;
  await store.getState().handleUnauthorized();
  if (before && !store.getState().user) for (const listener of [...endedListeners]) listener();
}

/** Calls `listener` when the server ends this tab's session; returns the unsubscribe. */
export function onSessionEnded(listener: () => void): () => void {
  endedListeners.add(listener);
  return () => void endedListeners.delete(listener);
}

function toGuardUser(user: SessionUser | null): GuardUser | null {
  return user ? { uid: user.uid, role: user.role, companyId: user.companyId } : null;
}

/** The signed-in user as the guard reads it, once the start-up auth check is done (null: signed out). */
export async function sessionUser(): Promise<GuardUser | null> {
  const authStore = currentAuthStore() ?? (holdsSession() ? await loadAuthStore() : null);
  if (!authStore) return null;
  await authStore.getState().whenReady();
  return toGuardUser(authStore.getState().user);
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** The signed-in user; undefined until hydrated and the start-up check is done (docs/design.md §1's neutral slot). */
export function useSessionUser(): SessionUser | null | undefined {
  const hydrated = useHydrated();
  const isReady = useSyncExternalStore(
    subscribe,
    () => ready,
    () => false,
  );
  const current = useSyncExternalStore(
    subscribe,
    () => user,
    () => null,
  );
  return hydrated && isReady ? current : undefined;
}

export { firstName };

type Menu = { collections: MenuCollection[]; products: MenuProduct[] };

export interface HeaderSession {
  logoHref: string;
  account: HeaderAccount | null | undefined;
  cartCount: number | undefined;
  menu: Menu;
  logout: () => void;
}

/** What the header shows of the session: nothing user-specific until known in the browser (docs/design.md §1). */
export function useHeaderSession(companyId: string | null, initialMenu: Menu): HeaderSession {
  const user = useSessionUser();
  const navigate = useNavigate();
  // The cart is in local storage: its count shows once hydrated (docs/design.md §1's neutral slot).
  const hydrated = useHydrated();
  const cartCount = useStore(getCartStore(), (s) => countItems(s.lines));
  // The Products menu follows renames, additions and removals without a reload.
  const menu = {
    collections: useLiveList(companyId, 'productCollections', initialMenu.collections),
    products: useLiveList(companyId, 'products', initialMenu.products),
  };
  const guardUser = toGuardUser(user ?? null);
  return {
    logoHref: logoPath(guardUser),
    account:
      user === undefined
        ? undefined
        : user
          ? { label: firstName(user.name), accountHref: accountPath(guardUser!) }
          : null,
    cartCount: hydrated ? cartCount : undefined,
    menu,
    logout: () => {
      void (async () => {
        const store = currentAuthStore();
        const leaving = store?.getState().user;
        // A driver's phone is shared: its moves not sent and its kept route are dealt with first.
        // The driver's screens register that check when they load (lib/auth/sign-out-guard.ts): no chunk is fetched
        // here, so the storefront's first load stays as it was and a driver without signal can still sign out.
        const guard = signOutGuard();
        if (leaving && guard && !(await guard(leaving.uid))) return;
        // Home first: a signed-in page's live reads (orders, a route) end before the token does, rather than
        // asking again without it (a 401 each).
        await navigate(paths.home);
        // The cart joined at sign-in finishes with the session's token, rather than being refused (401) after it.
        if (joining)
          await Promise.race([joining.catch(() => undefined), new Promise((r) => setTimeout(r, JOIN_WAIT_MS))]);
        await store?.getState().logout();
      })();
    },
  };
}
