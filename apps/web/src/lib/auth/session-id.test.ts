import { describe, expect, it } from 'vitest';
import { isSessionId, newSessionId, restoreSessionId, SESSION_ID_KEY, type KeyValueStorage } from './session-id';

function memoryStorage(initial: Record<string, string> = {}): KeyValueStorage & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  };
}

describe('newSessionId', () => {
  it('is 20 alphanumerics, different each time', () => {
    const ids = new Set(Array.from({ length: 200 }, () => newSessionId()));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{20}$/);
  });

  it('drops bytes that would favour some characters (248 and above)', () => {
    // First call: only biased bytes; then bytes 0..39 map to A..Z, a..n.
    let call = 0;
    const id = newSessionId((bytes) => {
      call += 1;
      bytes.forEach((_, i) => (bytes[i] = call === 1 ? 250 + (i % 6) : i));
      return bytes;
    });
    expect(id).toBe('ABCDEFGHIJKLMNOPQRST');
  });
});

describe('restoreSessionId', () => {
  it('keeps a stored session id', () => {
    const storage = memoryStorage({ [SESSION_ID_KEY]: 'Zz09Zz09Zz09Zz09Zz09' });
    expect(restoreSessionId(storage)).toBe('Zz09Zz09Zz09Zz09Zz09');
  });

  it('stores a new one when none or a malformed one is stored', () => {
    for (const stored of [undefined, 'short', 'with-dash-0123456789', 'ñandúñandúñandúñandú']) {
      const storage = memoryStorage(stored === undefined ? {} : { [SESSION_ID_KEY]: stored });
      const id = restoreSessionId(storage);
      expect(isSessionId(id)).toBe(true);
      expect(id).not.toBe(stored);
      expect(storage.data.get(SESSION_ID_KEY)).toBe(id);
    }
  });

  it('still gives an id without storage or when storage throws', () => {
    expect(isSessionId(restoreSessionId(null))).toBe(true);
    const blocked: KeyValueStorage = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => undefined,
    };
    expect(isSessionId(restoreSessionId(blocked))).toBe(true);
  });
});
