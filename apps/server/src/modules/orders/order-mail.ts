import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { can, type OrderStatus } from '@hornada/domain';
import { formatDayChoice } from '@hornada/domain/format';
import { windowLabel } from '@hornada/domain/order-display';
import { balanceDue } from '@hornada/domain/order-history';
import { PAYMENT_METHOD_ES } from '@hornada/domain/order-status';
import { refundedSoFar, refundHowCustomerEs } from '@hornada/domain/refunds';
import type { AppContext } from '../../context';
import { onCommit } from '../../db/change-log';
import { fileUrl } from '../files';
import { users } from '../../db/schema';
import type { EmailDriver } from '../../providers/email';
import {
  newOrderNoticeMail,
  orderMail,
  type OrderMailFacts,
  type OrderMailKind,
} from '../../providers/email/order-templates';
import { isImport } from '../../resources/actor';
import type { AfterWrite } from '../../resources/definition';
import type { OrderRow } from './order-rules';
import type { OrdersService } from './orders.service';

/** The status moves a customer is told of by mail. */
const TOLD: Partial<Record<OrderStatus, OrderMailKind>> = {
  confirmed: 'confirmed',
  out_for_delivery: 'out_for_delivery',
  delivered: 'delivered',
  cancelled: 'cancelled',
};

/** What the customer reads as their order: a change of any of these after it was placed is mailed. */
const CONTENT: readonly (keyof OrderRow)[] = ['items', 'total', 'dueDate', 'window', 'fulfillment', 'address'];

/** What a committed write of an order means for mail: placed, a status told, its content changed, or nothing. */
export function orderMailKind(before: OrderRow | null, after: OrderRow): OrderMailKind | null {
  if (!before) return 'placed';
  // A refund recorded (whole or partial): the customer learns how much and how the money comes back.
  if ((after.refunds ?? []).length > (before.refunds ?? []).length) return 'refunded';
  if (before.status !== after.status) return TOLD[after.status] ?? null;
  const changed = CONTENT.some((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f]));
  return changed && after.status !== 'cancelled' ? 'changed' : null;
}

/** The last refund of an order as its mail tells it. */
function refundFacts(order: OrderRow): OrderMailFacts['refund'] {
  const last = (order.refunds ?? []).at(-1);
  if (!last) return null;
  return {
    amount: last.amount,
    how: refundHowCustomerEs(order.paymentMethod, last.amount),
    refundedInAll: refundedSoFar(order),
  };
}

/**
 * Mail about orders: the customer's confirmation and the news of its status (confirmed, out for
 * delivery, delivered, cancelled), and the bakery's notice of a new web order when its settings ask for it.
 * Decided in the order's write (the hook below) and sent after it commits, in the background: a mail that
 * cannot be sent is logged and never fails the order. Each message is signed with the ORDER's bakery.
 */
export class OrderMailService {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly ctx: AppContext,
    private readonly orders: OrdersService,
    private readonly email: EmailDriver,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Resolves once every message started so far has been handed over (or failed and been logged). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  send(kind: OrderMailKind, order: OrderRow, cancelledByBakery: boolean): void {
    const job = this.write(kind, order, cancelledByBakery)
      .catch((err: unknown) => this.log.error({ err, purpose: `order-${kind}` }, 'e-mail could not be sent'))
      .finally(() => this.pending.delete(job));
    this.pending.add(job);
  }

  private async write(kind: OrderMailKind, order: OrderRow, cancelledByBakery: boolean): Promise<void> {
    const s = await this.orders.rules.settingsOf(this.ctx.db, order.companyId);
    // On the order's own shop (its host), not the market's.
    const origin = await this.ctx.shops.originOf(order.companyId);
    const facts: OrderMailFacts = {
      bakery: s.marketName,
      logoUrl: s.logo ? fileUrl(origin, s.logo.path) : null,
      number: order.number,
      lines: order.items.map((l) => ({ name: l.name, quantity: l.quantity, lineTotal: l.lineTotal })),
      subtotal: order.subtotal,
      discount: order.discount,
      deliveryFee: order.deliveryFee,
      total: order.total,
      pickup: order.fulfillment === 'pickup',
      // The weekday and date without "hoy"/"mañana": a mail is read on another day than it was sent.
      day: formatDayChoice(order.dueDate, { timeZone: s.timeZone, now: 0 }),
      window: windowLabel(order.window, s.deliveryWindows),
      paymentMethod: PAYMENT_METHOD_ES[order.paymentMethod],
      paid: order.paymentStatus === 'paid',
      transferInstructions: order.paymentMethod === 'transfer' ? s.transferInstructions : null,
      link: this.orders.paymentReturnUrl(order.id, origin),
      cancelReason: cancelledByBakery ? order.cancelReason : null,
      balanceDue: balanceDue(order),
      refund: kind === 'refunded' ? refundFacts(order) : null,
    };
    const to = await this.recipientOf(order);
    if (to) await this.email.send({ ...orderMail(kind, facts), to, fromName: s.marketName });
    if (kind === 'placed' && order.channel === 'web' && s.newOrderEmail) {
      const notice = newOrderNoticeMail(facts, {
        name: order.contact.name,
        phone: order.contact.phone,
        address: order.address,
        notes: order.notes,
        link: `${this.ctx.config.publicUrl}/dashboard/orders?order=${encodeURIComponent(order.id)}`,
      });
      await this.email.send({ ...notice, to: s.newOrderEmail, fromName: s.marketName });
    }
  }

  /** The order's contact e-mail, else its customer's account e-mail; none for an order without either. */
  private async recipientOf(order: OrderRow): Promise<string | null> {
    if (order.contact.email) return order.contact.email;
    if (!order.customerId) return null;
    const [u] = await this.ctx.db
      .select({ email: users.email })
      .from(users)
      .where(and(eq(users.id, order.customerId), isNull(users.deletedAt)))
      .limit(1);
    return u?.email ?? null;
  }
}

/**
 * The orders hook that decides the mail (compose.ts): the customer's orders, not a B2B client's (their terms
 * and statements are another conversation), and nothing for the demo's import
 * (nor the moves it replays as the people who made them). Sent once the write commits.
 */
export function orderMailHook(mailer: OrderMailService): AfterWrite<OrderRow> {
  return async (_ctx, tx, actor, before, after, scope) => {
    if (isImport(actor, scope)) return;
    if (after.channel === 'b2b' || after.deletedAt) return;
    const kind = orderMailKind(before, after);
    if (!kind) return;
    // A reason the bakery wrote is the bakery's word; a customer's own is not repeated back to an address.
    const byBakery = actor.kind === 'user' && !can(actor.role, 'orders:own');
    onCommit(tx, () => mailer.send(kind, after, byBakery));
  };
}
