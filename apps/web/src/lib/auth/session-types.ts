import type { Role } from '@hornada/domain/roles';
import type { ApiError, HttpClient } from '../api/http';
import type { KeyValueStorage, RandomBytes } from './session-id';
import type { AuthLocks } from './token-refresh';

/** The session's shapes and storage keys (docs/product.md §3/§4), apart from the store that keeps them. */

/** The local storage key of the signed-in e-mail (docs/product.md §4: logout clears "the stored token and email"). */
export const AUTH_EMAIL_KEY = 'auth-email';

/**
 * The local storage key of the signed-in user's name, with their id (`{"uid","name"}`): the header names them
 * when a start-up check gets no answer (a driver's phone without signal). Cleared with the e-mail.
 */
export const AUTH_NAME_KEY = 'auth-name';

/** The session user of docs/product.md §3. */
export interface SessionUser {
  uid: string;
  email: string;
  name: string;
  role: Role;
  companyId: string | null;
  emailVerified: boolean;
}

/** The auth state of docs/product.md §3. */
export interface AuthData {
  user: SessionUser | null;
  idToken: string | null;
  loading: boolean;
  error: ApiError | null;
  sessionId: string;
}

export interface AuthActions {
  /** Spec §4 Login. Rejects with an ApiError (also kept in `error`). */
  login(email: string, password: string): Promise<SessionUser>;
  /** Sign-in with Google: exchanges the callback's single-use code, then docs/product.md §7's google-auth. */
  signInWithGoogle(code: string): Promise<SessionUser>;
  /** Spec §4 Logout: ends the server session (its failure ignored), then clears user, token, stored token and e-mail. */
  logout(): Promise<void>;
  /** Spec §4 Auth check; never rejects. Resolves to the signed-in user or null. */
  checkAuth(): Promise<SessionUser | null>;
  /** Resolves once the first auth check has finished (starting it if nobody has). Never rejects. */
  whenReady(): Promise<void>;
  /** Registers a company_admin with no company (docs/product.md §5/§7), then logs in. */
  signupAdmin(input: { name: string; email: string; password: string }): Promise<SessionUser>;
  /** A shopper's own customer account at the shop, then signed in. */
  signupShopper(input: { name: string; email: string; password: string }): Promise<SessionUser>;
  /** Replaces the user in memory (nothing is stored or sent). */
  setUser(user: SessionUser | null): void;
  /** Re-runs the backend login to re-read name, role and companyId (after createBakery). */
  refreshUser(): Promise<SessionUser>;
  /** POST /api/me/password; adopts the fresh session it returns (every other session ends). */
  changePassword(currentPassword: string, newPassword: string): Promise<void>;
  /** For the shared http client's onUnauthorized: one refresh attempt, else the user is cleared. */
  handleUnauthorized(): Promise<void>;
  /** Stops the refresh timer and the storage listener (tests, hot reload). */
  dispose(): void;
}

export type AuthState = AuthData & AuthActions;

export interface AuthClock {
  now(): number;
}

export interface AuthTimers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/** A change another tab made to local storage (the `storage` event's key and new value; key null on clear()). */
export type StorageChangeListener = (key: string | null, newValue: string | null) => void;

export interface StorageEvents {
  subscribe(listener: StorageChangeListener): () => void;
}

export interface AuthStoreDeps {
  /** The store's own client. Give it no onUnauthorized: the store handles its own 401s. */
  http: HttpClient;
  /** localStorage in the browser; null when there is none (server rendering, blocked storage). */
  storage: KeyValueStorage | null;
  clock?: AuthClock;
  timers?: AuthTimers;
  /** navigator.locks in the browser; noLocks without it. */
  locks?: AuthLocks;
  /** The window's `storage` events, so a tab follows sign-ins, refreshes and logouts of the others. */
  storageEvents?: StorageEvents;
  random?: RandomBytes;
}
