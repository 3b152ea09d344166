import { useEffect, useSyncExternalStore } from 'react';

/**
 * Who a page speaks as in the site header, when it is not the host's shop: the platform on
 * the owners' pages (a route entry's `voice: 'platform'`, known on the server too), or the bakery that sent an
 * invitation (set by its page once the link is read). Null elsewhere: the host's shop speaks.
 */
export const PLATFORM_NAME = 'Hornada';

/** A route's `handle` as client-only-table.ts writes it for a `voice: 'platform'` entry. */
export function speaksAsPlatform(handle: unknown): boolean {
  return typeof handle === 'object' && handle !== null && 'voice' in handle && handle.voice === 'platform';
}

let current: string | null = null;
const listeners = new Set<() => void>();

function set(name: string | null): void {
  if (name === current) return;
  current = name;
  for (const listener of [...listeners]) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** While the calling page is open, the header names `name` (null: the host's shop). */
export function useSpeakAs(name: string | null): void {
  useEffect(() => {
    set(name);
    return () => set(null);
  }, [name]);
}

/** The name a page asked the header to speak as, else null (always null on the server). */
export function usePageVoice(): string | null {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
}
