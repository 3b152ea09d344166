/**
 * The stored token and what a 401 does, apart from the HTTP client (http.ts, which re-exports them): the
 * storefront's first page reads these (the session, the live stream) but loads the client only with its first
 * request from the browser (the storefront's first-load budget).
 */

/** The local storage key of the auth token (docs/product.md §9). */
export const AUTH_TOKEN_KEY = 'auth-token';

/** Where the client reads the bearer token and what it clears on a 401. */
export interface TokenStorage {
  get(): string | null;
  remove(): void;
}

export function browserStorage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null; // storage blocked (private mode, sandboxed frame): act as signed out
  }
}

/** The token under `auth-token` in the browser's local storage; nothing on the server. */
export const browserTokenStorage: TokenStorage = {
  get: () => browserStorage()?.getItem(AUTH_TOKEN_KEY) ?? null,
  remove: () => browserStorage()?.removeItem(AUTH_TOKEN_KEY),
};

let unauthorizedHandler: (() => void) | null = null;

/** What the shared client does after a 401 removed the token: the auth store's one refresh attempt. */
export function setUnauthorizedHandler(handler: (() => void) | null): void {
  unauthorizedHandler = handler;
}

/** What a 401 on a browser call does besides removing the token (the uploader's XHR calls share it). */
export const notifyUnauthorized = (): void => unauthorizedHandler?.();
