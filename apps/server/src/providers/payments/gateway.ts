/**
 * A payment gateway (design §1, §5): a hosted checkout the browser is sent to, a transaction the server
 * looks up, and events it verifies. Wompi's protocol is the model; the sandbox speaks the same, and
 * another gateway (PayU, ePayco) is one more driver of this interface.
 */

/** A transaction's state at the gateway, in Wompi's words. */
export const TRANSACTION_STATUSES = ['PENDING', 'APPROVED', 'DECLINED', 'VOIDED', 'ERROR'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

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

/** An event once verified: a transaction's new state, or another kind of event (ignored). */
export type VerifiedEvent = { kind: 'transaction'; transaction: GatewayTransaction } | { kind: 'other'; event: string };

/** Why an event is refused: it is not an event of this format, or its checksum does not verify. */
export class EventRejected extends Error {
  constructor(
    readonly reason: 'malformed' | 'signature',
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
  /** The event's transaction once its signature verifies; EventRejected otherwise. */
  verifyEvent(body: unknown, checksumHeader: string | undefined): VerifiedEvent;
}
