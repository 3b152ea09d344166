import type { StoreApi } from 'zustand/vanilla';
import type { AuthState } from './session-types';

/**
 * The browser's auth store once it is made, for whoever waits for it: the store announces itself here when it
 * is made (auth-store.ts), and auth-presence.ts loads it lazily; neither imports the other's side back.
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
