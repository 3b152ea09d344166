/**
 * The Idempotency-Key of a staff order's submit. One order being entered has one key,
 * shared by the tabs of this browser (local storage) until it is created: a retry after a network error
 * or a timeout, a second click, or the same order submitted from another tab while the first is still on
 * its way all make one order, since the server answers a replayed key with the order it already made. A
 * changed order, or the next one after a success, gets a new key. The server keeps keys 24 hours; so
 * does this.
 */

import { randomKey } from '../../lib/random-key';

/** What of Storage this needs (local storage in the browser; a stand-in in tests or without storage). */
export interface KeyStorage {
  readonly length: number;
  key(index: number): string | null;
  getItem(name: string): string | null;
  setItem(name: string, value: string): void;
  removeItem(name: string): void;
}

const PREFIX = 'hornada-order-entry:';
export const SUBMIT_KEY_TTL_MS = 24 * 3600_000;

/** A short fingerprint of the order's body (FNV-1a, 32 bits); a clash only costs a 409 from the server. */
function fingerprint(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36);
}

function memoryStorage(): KeyStorage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    key: (i) => [...items.keys()][i] ?? null,
    getItem: (n) => items.get(n) ?? null,
    setItem: (n, v) => void items.set(n, v),
    removeItem: (n) => void items.delete(n),
  };
}

/** The browser's local storage, or a memory of this page when it is unavailable (private modes). */
export function browserKeyStorage(): KeyStorage {
  try {
    const storage = window.localStorage;
    storage.getItem(PREFIX);
    return storage;
  } catch {
    return memoryStorage();
  }
}

interface Kept {
  key: string;
  at: number;
}

function read(raw: string | null): Kept | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<Kept>;
    return typeof v.key === 'string' && typeof v.at === 'number' ? { key: v.key, at: v.at } : null;
  } catch {
    return null;
  }
}

export function createSubmitKeys(
  storage: KeyStorage = memoryStorage(),
  newKey: () => string = randomKey,
  now: () => number = () => Date.now(),
) {
  const name = (companyId: string, body: unknown) => `${PREFIX}${companyId}:${fingerprint(JSON.stringify(body))}`;
  /** Forgets keys older than the server keeps them (a tab closed mid-send leaves one behind). */
  const prune = () => {
    const names: string[] = [];
    for (let i = 0; i < storage.length; i++) {
      const n = storage.key(i);
      if (n?.startsWith(PREFIX)) names.push(n);
    }
    for (const n of names) {
      const kept = read(storage.getItem(n));
      if (!kept || now() - kept.at >= SUBMIT_KEY_TTL_MS) storage.removeItem(n);
    }
  };
  return {
    /** The key for submitting this order: the one already in use for it, or a new one. */
    keyFor(companyId: string, body: unknown): string {
      const n = name(companyId, body);
      const kept = read(storage.getItem(n));
      if (kept && now() - kept.at < SUBMIT_KEY_TTL_MS) return kept.key;
      prune();
      const key = newKey();
      storage.setItem(n, JSON.stringify({ key, at: now() }));
      return key;
    },
    /** The order was created: the same form submitted again is another order. */
    settle(companyId: string, body: unknown): void {
      storage.removeItem(name(companyId, body));
    },
  };
}
export type SubmitKeys = ReturnType<typeof createSubmitKeys>;
