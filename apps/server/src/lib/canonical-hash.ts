import { createHash } from 'node:crypto';

/** The value with the keys of every object sorted, so two bodies that differ only in key order are equal. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

/** A stable sha256 (hex) of a JSON value: what an Idempotency-Key is compared on (checkout, resource writes). */
export function canonicalHash(value: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(canonical(value)))
    .digest('hex');
}
