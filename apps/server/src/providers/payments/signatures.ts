import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Wompi's signatures (docs/design.md §5), pure so the documentation's vectors test them. The sandbox signs with
 * the same functions, so what the `wompi` driver accepts is what Wompi sends.
 */

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The checkout link's `signature:integrity`: SHA-256 hex of reference, cents, currency [, expiration] and the secret. */
export function integritySignature(input: {
  reference: string;
  amountInCents: number;
  currency: string;
  integritySecret: string;
  expirationTime?: string;
}): string {
  const { reference, amountInCents, currency, integritySecret, expirationTime } = input;
  return sha256Hex(`${reference}${amountInCents}${currency}${expirationTime ?? ''}${integritySecret}`);
}

/** The value at a dotted path inside `data` (`transaction.amount_in_cents`), or undefined. */
function valueAt(data: unknown, path: string): unknown {
  let at: unknown = data;
  for (const key of path.split('.')) {
    if (at === null || typeof at !== 'object' || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** What an event's checksum is computed from: `data`, the properties named and the timestamp. */
export interface SignedEvent {
  data: unknown;
  signature: { properties: readonly string[] };
  timestamp: number | string;
}

/**
 * An event's checksum: SHA-256 hex of the values of `signature.properties` (paths inside `data`, in the
 * order given), then `timestamp`, then the events secret. Null when a property names nothing or no
 * scalar value: such an event cannot be verified.
 */
export function eventChecksum(event: SignedEvent, eventsSecret: string): string | null {
  let text = '';
  for (const property of event.signature.properties) {
    const v = valueAt(event.data, property);
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') return null;
    text += String(v);
  }
  return sha256Hex(`${text}${event.timestamp}${eventsSecret}`);
}

/** The event's checksum matches `given`, compared in constant time and without regard to case. */
export function verifyEventChecksum(event: SignedEvent, given: string, eventsSecret: string): boolean {
  const expected = eventChecksum(event, eventsSecret);
  if (expected === null || !/^[0-9a-f]{64}$/i.test(given)) return false;
  return timingSafeEqual(Buffer.from(expected, 'utf8'), Buffer.from(given.toLowerCase(), 'utf8'));
}
