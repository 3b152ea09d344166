/**
 * The pieces of token refresh (docs/design.md §1: id tokens of one hour, rotating refresh cookie): reading a
 * token's expiry, when to refresh it, and the cross-tab lock that keeps two tabs from spending the same
 * refresh cookie (a second use of a rotated cookie revokes the whole session family on the server).
 */

/** Refresh this long before the id token expires. */
export const REFRESH_MARGIN_MS = 60_000;
/** Never schedule sooner than this: a wrong clock must not turn the timer into a refresh loop. */
export const MIN_REFRESH_DELAY_MS = 10_000;
/** After a refresh failed for want of an answer (network, 5xx), try again this much later. */
export const REFRESH_RETRY_MS = 30_000;
/** The Web Locks name every tab of the origin refreshes under. */
export const REFRESH_LOCK_NAME = 'hornada-auth-refresh';

/** The claims the web reads from an id token (the server's idTokenFor). */
export interface TokenClaims {
  sub?: string;
  email?: string;
  role?: string;
  companyId?: string | null;
  exp?: number;
  iat?: number;
}

function base64UrlDecode(part: string): string {
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** The payload of a JWT, unverified (the server verifies; the client only schedules and labels). Null if unreadable. */
export function decodeJwtPayload(token: string): TokenClaims | null {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return null;
  try {
    const payload: unknown = JSON.parse(base64UrlDecode(parts[1]));
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return null;
    const p = payload as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
    const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
    const claims: TokenClaims = {};
    const sub = str(p.sub);
    const email = str(p.email);
    const role = str(p.role);
    const exp = num(p.exp);
    const iat = num(p.iat);
    if (sub !== undefined) claims.sub = sub;
    if (email !== undefined) claims.email = email;
    if (role !== undefined) claims.role = role;
    if (typeof p.companyId === 'string' || p.companyId === null) claims.companyId = p.companyId;
    if (exp !== undefined) claims.exp = exp;
    if (iat !== undefined) claims.iat = iat;
    return claims;
  } catch {
    return null;
  }
}

/** When the token expires, in epoch milliseconds by the server's clock; null without a readable `exp`. */
export function tokenExpiryMs(token: string): number | null {
  const exp = decodeJwtPayload(token)?.exp;
  return exp === undefined ? null : exp * 1000;
}

/**
 * Milliseconds the token has left. `serverOffsetMs` is the server's clock minus ours (learnt from a
 * token's `expiresIn`), so a wrong device clock does not make every token look expired. -Infinity when
 * the token has no readable expiry.
 */
export function tokenRemainingMs(token: string, nowMs: number, serverOffsetMs = 0): number {
  const expiry = tokenExpiryMs(token);
  return expiry === null ? -Infinity : expiry - (nowMs + serverOffsetMs);
}

/** Whether a token is good for longer than the refresh margin (else it is refreshed, not used). */
export function isTokenFresh(token: string | null, nowMs: number, serverOffsetMs = 0): token is string {
  return token !== null && tokenRemainingMs(token, nowMs, serverOffsetMs) > REFRESH_MARGIN_MS;
}

/** The delay before refreshing a token: ~60 s before it expires, never below the floor. */
export function refreshDelayMs(token: string, nowMs: number, serverOffsetMs = 0): number {
  const remaining = tokenRemainingMs(token, nowMs, serverOffsetMs);
  return Math.max(MIN_REFRESH_DELAY_MS, remaining - REFRESH_MARGIN_MS);
}

/**
 * The server's clock minus ours, from a token just issued: it expires `expiresIn` seconds after the
 * server's now. 0 when the token's expiry is unreadable.
 */
export function serverOffsetMs(token: string, expiresInSeconds: number, nowMs: number): number {
  const expiry = tokenExpiryMs(token);
  if (expiry === null || !Number.isFinite(expiresInSeconds)) return 0;
  return expiry - expiresInSeconds * 1000 - nowMs;
}

/** Exclusive named locks: the subset of the Web Locks API (navigator.locks) the auth store uses. */
export interface AuthLocks {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

/** No locking, for browsers without navigator.locks: each tab still runs one refresh at a time itself. */
export const noLocks: AuthLocks = {
  request: (_name, callback) => callback(),
};

/**
 * In-memory exclusive locks with the Web Locks semantics the store relies on (one holder per name,
 * granted in request order, released when the callback settles). Tests share one between two stores,
 * as two tabs share navigator.locks.
 */
export function createMemoryLocks(): AuthLocks {
  const tails = new Map<string, Promise<void>>();
  return {
    request<T>(name: string, callback: () => Promise<T>): Promise<T> {
      const previous = tails.get(name) ?? Promise.resolve();
      const result = previous.then(() => callback());
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(name, tail);
      void tail.then(() => {
        if (tails.get(name) === tail) tails.delete(name);
      });
      return result;
    },
  };
}

/** navigator.locks when the browser has it, else no locking. */
export function browserLocks(): AuthLocks {
  const manager = typeof navigator === 'undefined' ? undefined : (navigator as Partial<Navigator>).locks;
  if (!manager) return noLocks;
  // The Web Locks API resolves to the callback's awaited result; lib.dom types it as Promise<Promise<T>>.
  return {
    request: <T>(name: string, callback: () => Promise<T>) =>
      manager.request(name, () => callback()) as unknown as Promise<T>,
  };
}
