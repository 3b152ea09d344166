import { useSyncExternalStore } from 'react';

/**
 * The bakery a back-office screen acts on, as the site header names it: the signed-in user's own
 * (or the one a system admin chose), whatever host the back office is served on, never the host's shop. Set
 * by the back-office areas' layout while one is open; null elsewhere (the header names the host's shop).
 * `name` null: still being read.
 */
export interface BackOfficeShop {
  /** The bakery's id: when it is the host's own, its name is known before the read (the host's). */
  companyId: string | null;
  name: string | null;
  url: string | null;
  /** The logo saved in its settings (a stored file's path), null without one or while read. */
  logo: { path: string } | null;
  /**
   * Whether the area shows the shop's Products menu and cart (the dashboard); a driver's phone and the
   * kitchen tablet show neither: there they mean nothing.
   */
  shopMenu: boolean;
}

let current: BackOfficeShop | null = null;
const listeners = new Set<() => void>();

export function showBackOfficeShop(shop: BackOfficeShop | null): void {
  if (shop === current) return;
  current = shop;
  for (const listener of [...listeners]) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** The back office's bakery while an area of it is open, else null (always null on the server). */
export function useBackOfficeShop(): BackOfficeShop | null {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
}
