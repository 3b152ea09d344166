import { AUTH_ERROR_TEXTS_ES } from '@hornada/domain/errors-auth';
import { AUTH_MESSAGES } from '@hornada/domain/messages';
import { FOUNDER_ROLE, isRole, SHOPPER_ROLE } from '@hornada/domain/roles';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { announceAuthStore } from './auth-registry';
import { addErrorTexts, errorText } from '../api/error-texts';
import { ApiError, AUTH_TOKEN_KEY, createHttpClient } from '../api/http';
import { browserStorage } from './token-storage';
import { restoreSessionId } from './session-id';
import {
  browserLocks,
  decodeJwtPayload,
  isTokenFresh,
  noLocks,
  REFRESH_LOCK_NAME,
  REFRESH_RETRY_MS,
  refreshDelayMs,
  serverOffsetMs,
} from './token-refresh';
import {
  AUTH_EMAIL_KEY,
  AUTH_NAME_KEY,
  type AuthClock,
  type AuthState,
  type AuthStoreDeps,
  type AuthTimers,
  type SessionUser,
  type StorageChangeListener,
  type StorageEvents,
} from './session-types';
import {
  backendError,
  bearer,
  invalidResponse,
  isRecord,
  isSessionRefused,
  isUnauthorized,
  readBackendLogin,
  readIdentityUser,
  readSession,
  registrationError,
  signInError,
  storageTokens,
  toApiError,
  type BackendLogin,
  type IdentitySession,
  type IdentityUser,
  type Obtained,
} from './session-answers';

/**
 * The auth store of docs/product.md §3/§4 on the server's own identity service (docs/design.md §1, §3): sign-in, backend
 * login, logout, the start-up auth check, and id-token refresh shared safely between tabs.
 */

// The sign-in codes' texts load with the store that meets them (and with the auth pages), not with the storefront.
addErrorTexts(AUTH_ERROR_TEXTS_ES);

/** Spec §8's texts, word for word (a zod-free module: the storefront bundle stays small). */
const MESSAGES = AUTH_MESSAGES;

/** How long a sign-out or a Google sign-in waits for a session check under way (settleCheck). */
const CHECK_WAIT_MS = 3_000;

const realClock: AuthClock = { now: () => Date.now() };
const realTimers: AuthTimers = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function createAuthStore(deps: AuthStoreDeps): StoreApi<AuthState> {
  const { http, storage } = deps;
  const clock = deps.clock ?? realClock;
  const timers = deps.timers ?? realTimers;
  const locks = deps.locks ?? noLocks;

  const read = (key: string): string | null => {
    try {
      return storage?.getItem(key) ?? null;
    } catch {
      return null;
    }
  };
  const write = (key: string, value: string): void => {
    try {
      storage?.setItem(key, value);
    } catch {
      // blocked or full storage: the session lives in memory for this page
    }
  };
  const remove = (key: string): void => {
    try {
      storage?.removeItem(key);
    } catch {
      // nothing to remove
    }
  };

  /** Server clock minus ours, learnt from each issued token, so a wrong device clock cannot loop refreshes. */
  let serverOffset = 0;
  /**
   * Bumped whenever the session is set or cleared: a background operation (auth check, timer refresh,
   * another tab's token) commits only if nothing changed the session since it started.
   */
  let generation = 0;
  let refreshTimer: unknown = null;
  let refreshing: Promise<string | null> | null = null;
  let checking: Promise<SessionUser | null> | null = null;
  let firstCheck: Promise<void> | null = null;
  let unsubscribe: (() => void) | null = null;

  const store = createStore<AuthState>()((set, get) => {
    const cancelTimer = (): void => {
      if (refreshTimer !== null) timers.clear(refreshTimer);
      refreshTimer = null;
    };

    const schedule = (token: string): void => {
      cancelTimer();
      refreshTimer = timers.set(
        () => {
          refreshTimer = null;
          void timedRefresh();
        },
        refreshDelayMs(token, clock.now(), serverOffset),
      );
    };

    const learnOffset = (session: IdentitySession): void => {
      serverOffset = serverOffsetMs(session.idToken, session.expiresIn, clock.now());
    };

    const commit = (token: string, user: SessionUser): void => {
      generation += 1;
      write(AUTH_TOKEN_KEY, token);
      write(AUTH_EMAIL_KEY, user.email);
      if (user.name) write(AUTH_NAME_KEY, JSON.stringify({ uid: user.uid, name: user.name }));
      set({ user, idToken: token });
      schedule(token);
    };

    /** Clears the session in memory; with `stored`, also the stored token and e-mail (other tabs follow). */
    const clear = (stored: boolean): void => {
      generation += 1;
      cancelTimer();
      if (stored) {
        remove(AUTH_TOKEN_KEY);
        remove(AUTH_EMAIL_KEY);
        remove(AUTH_NAME_KEY);
      }
      set({ user: null, idToken: null });
    };

    const backendLogin = async (token: string, email: string): Promise<BackendLogin> =>
      readBackendLogin(await http.post('/auth/login', { email }, bearer(token)));

    const storedName = (uid: string): string | null => {
      try {
        const kept = JSON.parse(read(AUTH_NAME_KEY) ?? 'null') as { uid?: unknown; name?: unknown } | null;
        return kept?.uid === uid && typeof kept.name === 'string' ? kept.name : null;
      } catch {
        return null;
      }
    };

    /**
     * The session user for a token: the backend login's name, role and company over the identity
     * service's data. Spec §4: if the backend fails, continue with the identity data only (role and
     * company from the token's claims). A 401 is not a failed backend but a refused token: rethrown.
     * When GET /api/me fails too, the name is the one stored for this user (else '', the header's 'Usuario')
     * and emailVerified false.
     */
    const resolveUser = async (token: string, given: IdentityUser | null): Promise<SessionUser> => {
      const claims = decodeJwtPayload(token);
      const email = given?.email ?? claims?.email ?? read(AUTH_EMAIL_KEY) ?? '';
      // A token read from storage comes without the identity user (name, emailVerified): GET /api/me has it.
      const [backend, me] = await Promise.allSettled([
        backendLogin(token, email),
        given ? Promise.resolve(given) : http.get('/me', bearer(token)).then(readIdentityUser),
      ]);
      for (const outcome of [backend, me]) {
        if (outcome.status === 'rejected' && isUnauthorized(outcome.reason)) throw outcome.reason;
      }
      const identity = me.status === 'fulfilled' ? me.value : null;
      const uid = identity?.uid ?? claims?.sub;
      if (!uid) throw invalidResponse(claims);
      const base: SessionUser = {
        uid,
        email: identity?.email ?? email,
        // Without an answer (offline), the name this phone last knew for this same user, never another's.
        name: identity?.name ?? storedName(uid) ?? '',
        role: isRole(claims?.role) ? claims.role : SHOPPER_ROLE,
        companyId: claims?.companyId ?? null,
        emailVerified: identity?.emailVerified ?? false,
      };
      return backend.status === 'fulfilled' ? { ...base, ...backend.value } : base;
    };

    /**
     * Makes `obtained` this tab's session. The backend login runs when asked or when the token names
     * another user than the one in memory. A stored token the server refuses gets one refresh; an issued
     * one the server refuses ends the session.
     */
    const adopt = async (
      obtained: Obtained,
      forceBackend: boolean,
      since: number,
      mayRetry = true,
    ): Promise<SessionUser | null> => {
      const current = get().user;
      const sub = decodeJwtPayload(obtained.token)?.sub;
      let user: SessionUser;
      if (!forceBackend && current && sub === current.uid) {
        const id = obtained.user;
        user = id ? { ...current, email: id.email, name: id.name, emailVerified: id.emailVerified } : current;
      } else {
        try {
          user = await resolveUser(obtained.token, obtained.user);
        } catch (err) {
          if (!isUnauthorized(err) || since !== generation) throw err;
          // Not the coalesced refreshOnce: this may run inside it, and would then wait for itself.
          if (!obtained.issued && mayRetry)
            return (await refresh(obtained.token, forceBackend, false)) ? get().user : null;
          clear(true);
          return null;
        }
      }
      if (since !== generation) return get().user; // superseded by a login or logout meanwhile
      commit(obtained.token, user);
      return user;
    };

    /**
     * Under the cross-tab lock: a fresher token another tab stored, else POST /refresh. Inside the lock
     * the stored token is read again, since calling /refresh with a cookie another tab already rotated
     * would revoke the whole session family. Null when there is no session.
     */
    const obtainUnderLock = (rejected: string | null): Promise<Obtained | null> => {
      const hadSession = get().idToken !== null;
      return locks.request(REFRESH_LOCK_NAME, async () => {
        const stored = read(AUTH_TOKEN_KEY);
        if (stored !== rejected && isTokenFresh(stored, clock.now(), serverOffset)) {
          return { token: stored, user: null, issued: false };
        }
        // Another tab logged out (it clears the e-mail; a 401 elsewhere removes only the token).
        if (hadSession && storage && read(AUTH_EMAIL_KEY) === null) return null;
        let data: unknown;
        try {
          data = await http.post('/identity/refresh');
        } catch (err) {
          if (!isSessionRefused(err)) throw err;
          data = null;
        }
        if (data === null) {
          remove(AUTH_TOKEN_KEY);
          remove(AUTH_EMAIL_KEY);
          remove(AUTH_NAME_KEY);
          return null;
        }
        const session = readSession(data);
        learnOffset(session);
        // Stored before the lock is released, so the next tab in line adopts it.
        write(AUTH_TOKEN_KEY, session.idToken);
        write(AUTH_EMAIL_KEY, session.user.email);
        return { token: session.idToken, user: session.user, issued: true };
      });
    };

    /**
     * One refresh for this tab (concurrent callers share it). Resolves to the token now in use, or null
     * when the session is over (state cleared); rejects when no answer came (network, 5xx).
     */
    async function refresh(rejected: string | null, forceBackend: boolean, mayRetry: boolean): Promise<string | null> {
      const since = generation;
      const obtained = await obtainUnderLock(rejected);
      if (since !== generation) return get().idToken;
      if (!obtained) {
        clear(false); // storage was handled under the lock
        return null;
      }
      await adopt(obtained, forceBackend, since, mayRetry);
      return get().idToken;
    }

    function refreshOnce(rejected: string | null, forceBackend: boolean): Promise<string | null> {
      refreshing ??= refresh(rejected, forceBackend, true).finally(() => {
        refreshing = null;
      });
      return refreshing;
    }

    async function timedRefresh(): Promise<void> {
      const token = get().idToken;
      try {
        await refreshOnce(null, false);
      } catch {
        // No answer: keep the session and try again, unless it changed meanwhile.
        if (token !== null && get().idToken === token) {
          cancelTimer();
          refreshTimer = timers.set(() => {
            refreshTimer = null;
            void timedRefresh();
          }, REFRESH_RETRY_MS);
        }
      }
    }

    const onStorageChange: StorageChangeListener = (key, newValue) => {
      const signedIn = get().idToken !== null;
      if (key === null || (key === AUTH_EMAIL_KEY && newValue === null)) {
        if (signedIn && read(AUTH_EMAIL_KEY) === null) clear(false); // logged out in another tab
        return;
      }
      if (key !== AUTH_TOKEN_KEY || newValue === null || newValue === get().idToken) return;
      if (!isTokenFresh(newValue, clock.now(), serverOffset)) return;
      // Another tab signed in or refreshed: use its token (and learn the user if it is new to this tab).
      adopt({ token: newValue, user: null, issued: false }, false, generation).catch(() => undefined);
    };
    unsubscribe = deps.storageEvents?.subscribe(onStorageChange) ?? null;

    const runCheck = async (): Promise<SessionUser | null> => {
      set({ loading: true, error: null });
      const since = generation;
      try {
        const stored = read(AUTH_TOKEN_KEY);
        if (isTokenFresh(stored, clock.now(), serverOffset)) {
          return await adopt({ token: stored, user: null, issued: false }, true, since);
        }
        await refreshOnce(stored, true);
        return get().user;
      } catch (err) {
        // No answer (offline, 5xx): stay signed out for now, keep what is stored for the next check.
        set({ error: toApiError(err, MESSAGES.backendAuthFailed) });
        return get().user;
      } finally {
        set({ loading: false });
      }
    };

    /** Waits for a session check; bounded, so a stalled network never holds a sign-in or sign-out. */
    const settleCheck = async (check: Promise<unknown> | null = checking): Promise<void> => {
      if (!check) return;
      let timer: unknown;
      await Promise.race([
        check.catch(() => null),
        new Promise<void>((resolve) => {
          timer = timers.set(resolve, CHECK_WAIT_MS);
        }),
      ]);
      timers.clear(timer);
    };

    /** Runs `action` with loading set and the error cleared; a failure is stored in `error` and rethrown. */
    const tracked = async <T>(action: () => Promise<T>, fallback: string): Promise<T> => {
      set({ loading: true, error: null });
      try {
        const result = await action();
        set({ loading: false });
        return result;
      } catch (err) {
        const error = toApiError(err, fallback);
        set({ loading: false, error });
        throw error;
      }
    };

    /** Spec §4 Login after the identity step: the backend call, then the session; a failed backend signs out. */
    const completeSignIn = async (
      session: IdentitySession,
      backendCall: (s: IdentitySession) => Promise<BackendLogin>,
    ): Promise<SessionUser> => {
      learnOffset(session);
      let backend: BackendLogin;
      try {
        backend = await backendCall(session);
      } catch (err) {
        // Spec §4: a failed backend login signs the user out of the identity service.
        await http.post('/identity/sign-out').catch(() => undefined);
        throw backendError(err);
      }
      const { user: id } = session;
      const user: SessionUser = { uid: id.uid, email: id.email, emailVerified: id.emailVerified, ...backend };
      commit(session.idToken, user);
      return user;
    };

    const login = (email: string, password: string): Promise<SessionUser> =>
      tracked(async () => {
        let session: IdentitySession;
        try {
          session = readSession(await http.post('/identity/sign-in', { email, password }));
        } catch (err) {
          throw signInError(err);
        }
        return completeSignIn(session, (s) => backendLogin(s.idToken, s.user.email));
      }, MESSAGES.loginFailed);

    /**
     * Sign-in with Google (docs/design.md §3): the callback's single-use code for a session, then docs/product.md §7's
     * google-auth (which registers a new user as a customer of the market; role and companyId sent here
     * are never trusted by the server).
     */
    const signInWithGoogle = (code: string): Promise<SessionUser> =>
      tracked(async () => {
        // The page's start-up check runs and ends first: its refresh, were it sent after the exchange set the new
        // cookie, would start a second session whose backend login races google-auth's move of a new user into
        // the market (and is refused: a 401 for the company the user just left).
        await settleCheck(get().whenReady());
        const session = readSession(await http.post('/identity/google/exchange', { code }));
        return completeSignIn(session, async ({ idToken, user: id }) => {
          const answer = await http.post(
            '/auth/google-auth',
            {
              idToken,
              email: id.email,
              name: id.name,
              user: { uid: id.uid, email: id.email, displayName: id.name, emailVerified: id.emailVerified },
              additionalUserInfo: { providerId: 'google.com' },
              uid: id.uid,
              role: SHOPPER_ROLE,
              companyId: null,
            },
            bearer(idToken),
          );
          return readBackendLogin(isRecord(answer) ? answer.user : answer);
        });
      }, MESSAGES.loginFailed);

    return {
      user: null,
      idToken: null,
      loading: false,
      error: null,
      sessionId: restoreSessionId(storage, deps.random),

      login,
      signInWithGoogle,

      async logout() {
        generation += 1; // nothing started before this may sign the tab back in
        cancelTimer();
        // A session check under way ends first: its calls carry this session's token, and one answered after the
        // session ended is a 401.
        await settleCheck();
        // Under the lock: a refresh in another tab must not store a token after the session ended.
        await locks.request(REFRESH_LOCK_NAME, async () => {
          await http.post('/identity/sign-out').catch(() => undefined);
          clear(true);
        });
        set({ loading: false, error: null });
      },

      checkAuth() {
        checking ??= runCheck().finally(() => {
          checking = null;
        });
        return checking;
      },

      whenReady() {
        firstCheck ??= get()
          .checkAuth()
          .then(() => undefined);
        return firstCheck;
      },

      signupAdmin: ({ name, email, password }) =>
        tracked(async () => {
          try {
            // Admin registration goes without a token (docs/product.md §7): an empty header replaces any stored one.
            await http.post(
              '/auth/register',
              { email, password, name, role: FOUNDER_ROLE, companyId: null },
              { headers: { authorization: '' } },
            );
          } catch (err) {
            throw registrationError(err);
          }
          return login(email, password);
        }, MESSAGES.registrationFailed),

      signupShopper: ({ name, email, password }) =>
        tracked(async () => {
          try {
            await http.post('/identity/shoppers', { email, password, name }, { headers: { authorization: '' } });
          } catch (err) {
            throw registrationError(err);
          }
          return login(email, password);
        }, MESSAGES.registrationFailed),

      setUser(user) {
        set({ user });
      },

      refreshUser: () =>
        tracked(async () => {
          const { user, idToken } = get();
          if (!user || !idToken)
            throw new ApiError('Not signed in', 401, 'unauthenticated', errorText('unauthenticated'));
          const backend = await backendLogin(idToken, user.email).catch((err: unknown) => {
            throw backendError(err);
          });
          const next = { ...user, ...backend };
          set({ user: next });
          return next;
        }, MESSAGES.backendAuthFailed),

      changePassword: (currentPassword, newPassword) =>
        tracked(async () => {
          const token = get().idToken;
          const user = get().user;
          if (!user || !token)
            throw new ApiError('Not signed in', 401, 'unauthenticated', errorText('unauthenticated'));
          // Under the lock: it revokes every refresh token, so no tab may be mid-refresh with the old one.
          const session = await locks.request(REFRESH_LOCK_NAME, async () => {
            const s = readSession(await http.post('/me/password', { currentPassword, newPassword }, bearer(token)));
            write(AUTH_TOKEN_KEY, s.idToken);
            write(AUTH_EMAIL_KEY, s.user.email);
            return s;
          });
          learnOffset(session);
          const { email, name, emailVerified } = session.user;
          commit(session.idToken, { ...user, email, name, emailVerified });
        }, MESSAGES.loginFailed),

      async handleUnauthorized() {
        const rejected = get().idToken;
        if (rejected === null) return; // a guest's stale token: the client already dropped it
        try {
          await refreshOnce(rejected, false);
        } catch {
          // No answer: the token was refused and no new one came, so the user is signed out here.
          if (get().idToken === rejected) clear(false);
        }
      },

      dispose() {
        cancelTimer();
        unsubscribe?.();
        unsubscribe = null;
      },
    };
  });
  return store;
}

/** The window's `storage` events for one storage area (they fire only for other tabs' writes). */
export function browserStorageEvents(area: Storage | null): StorageEvents | undefined {
  if (typeof window === 'undefined') return undefined;
  return {
    subscribe(listener) {
      const onStorage = (event: StorageEvent) => {
        if (event.storageArea === area) listener(event.key, event.newValue);
      };
      window.addEventListener('storage', onStorage);
      return () => window.removeEventListener('storage', onStorage);
    },
  };
}

let singleton: StoreApi<AuthState> | null = null;

/**
 * The browser's auth store, made on first use (never at import: server rendering imports this module
 * where there is no window; there it gets an empty, signed-out store).
 */
export function getAuthStore(): StoreApi<AuthState> {
  if (!singleton) {
    const storage = browserStorage();
    singleton = createAuthStore({
      // Its own client, without onUnauthorized: a wrong password's 401 must not start a refresh.
      http: createHttpClient({ tokenStorage: storageTokens(storage) }),
      storage,
      locks: browserLocks(),
      storageEvents: browserStorageEvents(storage),
    });
    announceAuthStore(singleton);
  }
  return singleton;
}

/** The browser's auth store as a StoreApi (for zustand's `useStore`), resolved lazily on each call. */
export const authStore: StoreApi<AuthState> = {
  getState: () => getAuthStore().getState(),
  getInitialState: () => getAuthStore().getInitialState(),
  setState: ((...args: Parameters<StoreApi<AuthState>['setState']>) =>
    getAuthStore().setState(...args)) as StoreApi<AuthState>['setState'],
  subscribe: (listener) => getAuthStore().subscribe(listener),
};
