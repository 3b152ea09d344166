import type { StoreApi } from 'zustand/vanilla';
import type { AuthState } from './auth-store';
import { AUTH_TOKEN_KEY, browserStorage } from './token-storage';

/**
 * Whether the auth store is needed yet, and the store once it exists. A guest's storefront page never loads
 * the auth store (the storefront's first-load budget: it is the largest module after React and the router): it is
 * loaded at start-up when this browser holds a session (a stored token, fresh or not), when another tab signs
 * in, and by the screens that use it (sign-in, sign-up, the account areas), which import it themselves.
 */

let current: StoreApi<AuthState> | null = null;
const listeners = new Set<(store: StoreApi<AuthState>) => void>();

/** Called by auth-store.ts when the browser's store is made: whoever waits for it is told. */
export function announceAuthStore(store: StoreApi<AuthState>): void {
  current = store;
  for (const listener of listeners) listener(store);
}

/** The auth store if it has been made, else null (this page has no session to speak of yet). */
export function currentAuthStore(): StoreApi<AuthState> | null {
  return current;
}

/** Runs `listener` with the store when it is made (at once if it already is). */
export function onAuthStore(listener: (store: StoreApi<AuthState>) => void): void {
  listeners.add(listener);
  if (current) listener(current);
}

/** Loads and makes the browser's auth store. */
export function loadAuthStore(): Promise<StoreApi<AuthState>> {
  return import('./auth-store').then((m) => m.getAuthStore());
}

/** Whether this browser holds a session: a token stored by a sign-in here or in another tab. */
export function holdsSession(): boolean {
  try {
    return browserStorage()?.getItem(AUTH_TOKEN_KEY) != null;
  } catch {
    return false;
  }
}

/** Runs `listener` when another tab stores a token (a sign-in there). */
export function onSessionStoredElsewhere(listener: () => void): void {
  window.addEventListener('storage', (event) => {
    if (event.key === AUTH_TOKEN_KEY && event.newValue) listener();
  });
}
