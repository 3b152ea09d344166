import type { DbOrTx } from '../../db';
import type { Row } from '../../resources/definition';
import type { WriteScope } from '../../resources/service';
import type { OrderRow } from './order-rules';

/** An online order's attempt at the gateway: its reference and the hosted checkout the browser goes to. */
export interface PaymentLink {
  reference: string;
  checkoutUrl: string;
}

/**
 * What checkout asks of online payments (docs/design.md §3, §5): the payments module implements it and is
 * handed to orders where the services are built, so orders never imports payments.
 */
export interface OrderPayments {
  /** The order's first (or next) attempt, in the order's own transaction: its payment pending at the gateway. */
  startAttempt(
    scope: WriteScope,
    order: Pick<OrderRow, 'id' | 'companyId' | 'number' | 'total'>,
    redirectUrl: string,
  ): Promise<{ order: Row; link: PaymentLink }>;
  /** The link of the order's latest attempt, if it has one. */
  latestLink(db: DbOrTx, orderId: string, redirectUrl: string): Promise<PaymentLink | null>;
}
