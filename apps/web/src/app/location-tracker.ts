/**
 * The location the router settled on, which the guard (client-routes.tsx) reads as the one being left. Apart
 * from deferred-routes.ts: entry.client.tsx reports every location from the first page on, while the routes
 * that read it come only when a URL leaves the storefront (the storefront's first-load budget).
 */

let location: string | null = null;
let listener: ((path: string) => void) | null = null;

/** The location the router settled on (entry.client.tsx calls it). */
export function trackLocation(path: string): void {
  location = path;
  listener?.(path);
}

/** Hands `listen` the last location, if any, and every later one. */
export function followLocation(listen: (path: string) => void): void {
  listener = listen;
  if (location !== null) listen(location);
}
