/**
 * A payment gateway (docs/design.md §1, §5): a hosted checkout the browser is sent to, a transaction the server
 * looks up, and events it verifies. Wompi's protocol is the model; the sandbox speaks the same, and
 * another gateway (PayU, ePayco) is one more driver of this interface.
 */

/** A transaction's state at the gateway, in Wompi's words (packages/domain: the web reads it too). */
import type { TransactionStatus } from '@hornada/domain/schemas/answers';
export { TRANSACTION_STATUSES, type TransactionStatus } from '@hornada/domain/schemas/answers';

/** A transaction as the gateway reports it (an event's or a look-up's). */
export interface GatewayTransaction {
  id: string;
  reference: string;
  amountInCents: number;
  currency: string;
  status: TransactionStatus;
}

/** One payment attempt to start: its own reference, the amount in cents, where the browser comes back. */
export interface PaymentStart {
  reference: string;
  amountInCents: number;
  currency: string;
  redirectUrl: string;
}

/**
 * An event once verified (providers/payments/event-rules.ts): a transaction's new state (`covered`: the
 * checksum covers every field acted on; else only its id is believed), one outside its time window (not
 * applied), or another kind of event (ignored).
 */
export type VerifiedEvent =
  | { kind: 'transaction'; transaction: GatewayTransaction; covered: boolean }
  | { kind: 'untimely'; transactionId: string; timestamp: number; when: 'too-old' | 'ahead' }
  | { kind: 'other'; event: string };

/**
 * Why an event is refused: it is not an event of this format, its checksum does not verify, or the
 * checksum leaves out a property it must cover.
 */
export class EventRejected extends Error {
  constructor(
    readonly reason: 'malformed' | 'signature' | 'uncovered',
    message: string,
  ) {
    super(message);
  }
}

export interface PaymentGateway {
  /** The name history and `payment.gateway` record (`sandbox`, `wompi`). */
  readonly name: string;
  /** The hosted checkout's URL for this attempt (signed on the server). */
  checkoutUrl(start: PaymentStart): string;
  /** The transaction by its gateway id, server to server; null when the gateway does not know it. */
  lookUp(transactionId: string): Promise<GatewayTransaction | null>;
  /**
   * The transaction of an attempt whose id never reached us (no event, no redirect), by its reference:
   * the approved one when there is one, else the latest; null when the gateway knows none.
   */
  findByReference(reference: string): Promise<GatewayTransaction | null>;
  /** The event once its signature and rules hold at `now` (the app's clock); EventRejected otherwise. */
  verifyEvent(body: unknown, checksumHeader: string | undefined, now: Date): VerifiedEvent;
}
