import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False on the server and during hydration, true afterwards (docs/design.md §1): what only the browser knows (the
 * signed-in user, the cart) renders as a neutral slot until then, so the first client render matches the
 * server's HTML.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
