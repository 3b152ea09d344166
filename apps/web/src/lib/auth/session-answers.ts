import { AUTH_MESSAGES } from '@hornada/domain/messages';
import { isRole, type Role } from '@hornada/domain/roles';
import { errorText } from '../api/error-texts';
import { ApiError, AUTH_TOKEN_KEY, type TokenStorage } from '../api/http';
import type { KeyValueStorage } from './session-id';

/**
 * The identity service's answers as the store reads them (docs/design.md §1, §3), and its refusals said as
 * docs/product.md §8 says them.
 */

/** Spec §8's texts, word for word (a zod-free module: the storefront bundle stays small). */
const MESSAGES = AUTH_MESSAGES;

export interface IdentityUser {
  uid: string;
  email: string;
  name: string;
  emailVerified: boolean;
}

export interface IdentitySession {
  idToken: string;
  expiresIn: number;
  user: IdentityUser;
}

export interface BackendLogin {
  name: string;
  role: Role;
  companyId: string | null;
}

/** A token this tab may use, and what the identity service said about its user when it issued it. */
export interface Obtained {
  token: string;
  user: IdentityUser | null;
  /** Issued to this tab just now (not read from storage): a 401 for it is final. */
  issued: boolean;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function invalidResponse(data: unknown): ApiError {
  return new ApiError('Invalid response format', null, 'invalid_response', errorText('invalid_response'), data);
}

export function toApiError(err: unknown, fallback: string): ApiError {
  if (err instanceof ApiError) return err;
  const message = err instanceof Error && err.message ? err.message : fallback;
  return new ApiError(message, null, 'request_failed', errorText('request_failed'), undefined, { cause: err });
}

/** The same error with another English message (the code, status, Spanish text and body stay). */
function withMessage(err: ApiError, message: string): ApiError {
  if (err.message === message) return err;
  return new ApiError(message, err.status, err.code, err.userMessage, err.data, { cause: err });
}

/** Whether a server answer carried its own message or error field (else the client wrote 'Server error'). */
function bodyHasText(err: ApiError): boolean {
  return isRecord(err.data) && (nonEmpty(err.data.message) ?? nonEmpty(err.data.error)) !== undefined;
}

/** Spec §8's sign-in rows. */
export function signInError(err: unknown): ApiError {
  const e = toApiError(err, MESSAGES.loginFailed);
  switch (e.code) {
    case 'auth/operation-not-allowed':
      return withMessage(e, MESSAGES.operationNotAllowed);
    case 'auth/user-disabled':
      return withMessage(e, MESSAGES.userDisabled);
    case 'auth/invalid-credential':
    case 'auth/user-not-found':
    case 'auth/wrong-password':
      return withMessage(e, MESSAGES.invalidCredential);
    default:
      return e.status !== null && !bodyHasText(e) ? withMessage(e, MESSAGES.loginFailed) : e;
  }
}

/** Spec §8: the server's error field, else 'Backend authentication failed'. */
export function backendError(err: unknown): ApiError {
  const e = toApiError(err, MESSAGES.backendAuthFailed);
  const field = isRecord(e.data) ? nonEmpty(e.data.error) : undefined;
  return withMessage(e, field ?? MESSAGES.backendAuthFailed);
}

/** Spec §8: the message, else 'Registration failed'. */
export function registrationError(err: unknown): ApiError {
  const e = toApiError(err, MESSAGES.registrationFailed);
  return e.status !== null && !bodyHasText(e) ? withMessage(e, MESSAGES.registrationFailed) : e;
}

export function readIdentityUser(value: unknown): IdentityUser | null {
  if (!isRecord(value) || !nonEmpty(value.uid) || typeof value.email !== 'string') return null;
  return {
    uid: value.uid as string,
    email: value.email,
    name: typeof value.name === 'string' ? value.name : '',
    emailVerified: value.emailVerified === true,
  };
}

export function readSession(value: unknown): IdentitySession {
  if (isRecord(value) && nonEmpty(value.idToken) && typeof value.expiresIn === 'number') {
    const user = readIdentityUser(value.user);
    if (user) return { idToken: value.idToken as string, expiresIn: value.expiresIn, user };
  }
  throw invalidResponse(value);
}

export function readBackendLogin(value: unknown): BackendLogin {
  if (
    isRecord(value) &&
    typeof value.name === 'string' &&
    isRole(value.role) &&
    (typeof value.companyId === 'string' || value.companyId === null)
  ) {
    return { name: value.name, role: value.role, companyId: value.companyId };
  }
  throw invalidResponse(value);
}

export const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

export const isUnauthorized = (err: unknown): boolean => err instanceof ApiError && err.status === 401;
/** The identity service refused the refresh (expired, revoked, disabled): the session is over. */
export const isSessionRefused = (err: unknown): boolean =>
  err instanceof ApiError && err.status !== null && err.status >= 400 && err.status < 500;

/** The bearer the http client sends, read from the same storage the store writes. */
export function storageTokens(storage: KeyValueStorage | null): TokenStorage {
  return {
    get: () => {
      try {
        return storage?.getItem(AUTH_TOKEN_KEY) ?? null;
      } catch {
        return null;
      }
    },
    remove: () => {
      try {
        storage?.removeItem(AUTH_TOKEN_KEY);
      } catch {
        // blocked storage: nothing was stored
      }
    },
  };
}
