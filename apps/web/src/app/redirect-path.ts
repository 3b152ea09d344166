/** The local storage key of the redirect path (docs/product.md §9). */
export const REDIRECT_PATH_KEY = 'redirect-path';

/** Local storage, or null where the browser refuses it (a private window's quota, a blocked origin). */
export function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}
