import { z } from 'zod';
import { TRANSACTION_STATUSES, type GatewayTransaction } from './gateway';
import { verifyEventChecksum } from './signatures';

/**
 * What an event must be before anything it says is believed (docs/design.md §5), pure so that
 * the documentation's vectors and the relabelling attack test it. The sender names the properties its
 * checksum covers, so a checksum alone proves nothing about a field it does not name.
 */

/** Refused unless the checksum covers these: without them one captured event pays any order. */
export const REQUIRED_PROPERTIES = ['transaction.id', 'transaction.status', 'transaction.amount_in_cents'] as const;

/**
 * Every field of a transaction the server acts on. An event covering these and no other is applied as
 * it comes; any other (Wompi's own events leave out reference and currency) is confirmed by asking the
 * gateway for its transaction id, so an uncovered value is never acted on.
 */
export const ACTED_ON_PROPERTIES = [...REQUIRED_PROPERTIES, 'transaction.reference', 'transaction.currency'] as const;

/** An event older than this is not applied: reconciliation asks the gateway instead. */
export const EVENT_MAX_AGE_MS = 3 * 24 * 60 * 60 * 1000;
/** Nor one stamped further ahead than this (clocks drift a little, never days). */
export const EVENT_MAX_LEAD_MS = 5 * 60 * 1000;

/** A transaction in Wompi's shape (events and look-ups alike); other fields are left as they come. */
export const WompiTransaction = z.looseObject({
  id: z.string().min(1).max(200),
  reference: z.string().min(1).max(200),
  amount_in_cents: z.number().int().min(0),
  currency: z.string().min(1).max(10),
  status: z.enum(TRANSACTION_STATUSES),
});

/** Wompi's event (docs/design.md §5): `data`, the properties its checksum covers, the checksum and a timestamp. */
const WompiEvent = z.looseObject({
  event: z.string().min(1).max(100),
  data: z.looseObject({}),
  environment: z.string().max(50).optional(),
  signature: z.looseObject({
    properties: z.array(z.string().min(1).max(200)).min(1).max(50),
    checksum: z.string().min(1).max(200),
  }),
  // Seconds since the epoch, as Wompi's `1530291411`.
  timestamp: z.union([z.number().int(), z.string().regex(/^\d{1,20}$/)]),
});

export const toTransaction = (t: z.infer<typeof WompiTransaction>): GatewayTransaction => ({
  id: t.id,
  reference: t.reference,
  amountInCents: t.amount_in_cents,
  currency: t.currency,
  status: t.status,
});

/** What the server may do with an event. */
export type EventVerdict =
  /** Not believed at all: 4xx, nothing read or written. */
  | { kind: 'refused'; reason: 'malformed' | 'signature' | 'uncovered'; message: string }
  /** Authentic, another kind of event: nothing to do. */
  | { kind: 'other'; event: string }
  /** Authentic but outside the time window: answered 200, logged, not applied. */
  | { kind: 'untimely'; transactionId: string; timestamp: number; when: 'too-old' | 'ahead' }
  /**
   * A transaction's new state. `covered`: every field acted on is covered by the checksum; when false,
   * only `id` may be believed and the transaction must be asked of the gateway.
   */
  | { kind: 'transaction'; transaction: GatewayTransaction; covered: boolean };

/**
 * Judges an event body: its format, its checksum (and the `X-Event-Checksum` header, when sent), that the
 * checksum covers the required properties, and its timestamp against `now`.
 */
export function judgeEvent(
  body: unknown,
  checksumHeader: string | undefined,
  opts: { eventsSecret: string; now: Date },
): EventVerdict {
  const parsed = WompiEvent.safeParse(body);
  if (!parsed.success) {
    return {
      kind: 'refused',
      reason: 'malformed',
      message: 'Not a gateway event: signature, data or timestamp missing',
    };
  }
  const event = parsed.data;
  const checksum = event.signature.checksum;
  // The header, when sent, must say the same as the body (docs/design.md §5).
  const headerAgrees = checksumHeader === undefined || checksumHeader.toLowerCase() === checksum.toLowerCase();
  if (!headerAgrees || !verifyEventChecksum(event, checksum, opts.eventsSecret)) {
    return { kind: 'refused', reason: 'signature', message: 'The event checksum does not verify' };
  }
  if (event.event !== 'transaction.updated') return { kind: 'other', event: event.event };
  const properties = event.signature.properties;
  const missing = REQUIRED_PROPERTIES.filter((p) => !properties.includes(p));
  if (missing.length > 0) {
    return {
      kind: 'refused',
      reason: 'uncovered',
      message: `The event checksum must cover ${REQUIRED_PROPERTIES.join(', ')}; signature.properties leaves out ${missing.join(', ')}`,
    };
  }
  const transaction = WompiTransaction.safeParse(event.data.transaction);
  if (!transaction.success)
    return { kind: 'refused', reason: 'malformed', message: 'The event carries no transaction' };
  const timestamp = Number(event.timestamp);
  const lead = timestamp * 1000 - opts.now.getTime();
  if (lead > EVENT_MAX_LEAD_MS || -lead > EVENT_MAX_AGE_MS) {
    return { kind: 'untimely', transactionId: transaction.data.id, timestamp, when: lead > 0 ? 'ahead' : 'too-old' };
  }
  // Exactly the fields acted on: the values are concatenated without separators, so a further property
  // (a made-up one) could take digits off the amount's end while the checksum still verifies.
  const covered =
    properties.length === ACTED_ON_PROPERTIES.length && ACTED_ON_PROPERTIES.every((p) => properties.includes(p));
  return { kind: 'transaction', transaction: toTransaction(transaction.data), covered };
}
