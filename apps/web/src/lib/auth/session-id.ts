import { SESSION_ID_LENGTH } from '@hornada/domain/constants';

/**
 * The browser session id of docs/product.md §3/§4/§9: 20 random alphanumerics, kept in local storage so a cart
 * (docs/design.md §3, `X-Session-Id`) survives reloads and is shared by the tabs of one browser.
 */

/** The local storage key of the session id. */
export const SESSION_ID_KEY = 'session-id';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const SESSION_ID_PATTERN = new RegExp(`^[A-Za-z0-9]{${SESSION_ID_LENGTH}}$`);
/** 62 × 4: bytes at or above it are dropped so every character is equally likely. */
const UNBIASED_LIMIT = 248;

/** What the session id needs of local storage. */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** Fills a byte array with cryptographically strong random values (crypto.getRandomValues). */
export type RandomBytes = (bytes: Uint8Array) => Uint8Array;

const cryptoRandom: RandomBytes = (bytes) => globalThis.crypto.getRandomValues(bytes);

export function isSessionId(value: unknown): value is string {
  return typeof value === 'string' && SESSION_ID_PATTERN.test(value);
}

/** A new session id: 20 characters of [A-Za-z0-9], each uniformly random. */
export function newSessionId(random: RandomBytes = cryptoRandom): string {
  let id = '';
  while (id.length < SESSION_ID_LENGTH) {
    for (const byte of random(new Uint8Array(SESSION_ID_LENGTH * 2))) {
      if (byte >= UNBIASED_LIMIT) continue;
      id += ALPHABET[byte % ALPHABET.length];
      if (id.length === SESSION_ID_LENGTH) break;
    }
  }
  return id;
}

/**
 * The stored session id, or a new one stored in its place (a missing or malformed value is replaced).
 * Blocked storage (private mode, sandboxed frames) still yields an id, for this page's life only.
 */
export function restoreSessionId(storage: KeyValueStorage | null, random: RandomBytes = cryptoRandom): string {
  let stored: string | null = null;
  try {
    stored = storage?.getItem(SESSION_ID_KEY) ?? null;
  } catch {
    stored = null;
  }
  if (isSessionId(stored)) return stored;
  const id = newSessionId(random);
  try {
    storage?.setItem(SESSION_ID_KEY, id);
  } catch {
    // Not persisted: the id still serves this page.
  }
  return id;
}
