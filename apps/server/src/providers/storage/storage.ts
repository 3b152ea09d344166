import type { Readable } from 'node:stream';

/**
 * Where files live (docs/design.md §1, style habit 5): one interface, a local-disk driver (the default) and an
 * S3-compatible one, chosen by `STORAGE`. Keys are relative paths such as `<companyId>/<name>.webp`;
 * every driver refuses a key that is not safe (isSafeKey), so no key reaches outside its root or bucket prefix.
 */
export interface StoredObject {
  body: Readable;
  /** Bytes, when the driver knows them (it always does here). */
  size: number | undefined;
}

export interface StorageDriver {
  readonly name: 'local' | 's3';
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The object's bytes as a stream, or null when there is none at `key`. */
  get(key: string): Promise<StoredObject | null>;
  /** Removes the object; nothing happens when there is none. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Segments of letters, digits, `_`, `-` and `.`, none starting with a dot (so no `.`, `..` or hidden
 * file), joined by single slashes; no leading slash, no backslash, at most 500 characters.
 */
const SAFE_KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(?:\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

export function isSafeKey(key: string): boolean {
  return key.length > 0 && key.length <= 500 && SAFE_KEY.test(key);
}

export function assertSafeKey(key: string): void {
  if (!isSafeKey(key)) throw new Error(`Unsafe storage key: ${JSON.stringify(key.slice(0, 100))}`);
}
