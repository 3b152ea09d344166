import type { StoreApi } from 'zustand/vanilla';
import type { AuthState } from './session-types';
import { AUTH_TOKEN_KEY, browserStorage } from './token-storage';

/**
 * Whether the auth store is needed yet, and the store once it exists. A guest's storefront page never loads
 * the auth store (the storefront's first-load budget: it is the largest module after React and the router): it is
 * loaded at start-up when this browser holds a session (a stored token, fresh or not), when another tab signs
 * in, and by the screens that use it (sign-in, sign-up, the account areas), which import it themselves.
 */

export { currentAuthStore, onAuthStore } from './auth-registry';

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
