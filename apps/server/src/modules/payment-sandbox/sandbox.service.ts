import { randomBytes, timingSafeEqual } from 'node:crypto';
import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import { companies, paymentAttempts, paymentSandboxTransactions } from '../../db/schema';
import type { GatewayKeys, TransactionStatus } from '../../providers/payments';
import { ACTED_ON_PROPERTIES } from '../../providers/payments/event-rules';
import { eventChecksum, integritySignature } from '../../providers/payments/signatures';

export type SandboxTransaction = typeof paymentSandboxTransactions.$inferSelect;

const MINUTE_MS = 60_000;
/** Wompi retries an event not answered 200 after 30 min, 3 h and 24 h (docs/design.md §5), then gives up. */
export const EVENT_RETRY_DELAYS_MS = [30 * MINUTE_MS, 180 * MINUTE_MS, 1440 * MINUTE_MS] as const;
/** A claimed delivery's lease: another instance may send it again only after this (a crash mid-send). */
const DELIVERY_LEASE_MS = 5 * MINUTE_MS;
/** Deliveries one run claims: a backlog goes in short statements. */
const BATCH = 20;

/** The checkout's query, as Wompi's Web Checkout takes it (already parsed). */
export interface CheckoutRequest {
  publicKey: string;
  currency: string;
  amountInCents: number;
  reference: string;
  signature: string;
  redirectUrl: string;
  expirationTime?: string | undefined;
}

/** Why the checkout refuses a request, in words the buyer reads. */
export type CheckoutProblem = 'public-key' | 'signature' | 'expired';

/** Posts a signed event to the app's events endpoint; resolves to the HTTP status it was answered. */
export type EventSender = (body: unknown, checksum: string) => Promise<number>;

/** A transaction in Wompi's look-up and event shape. */
export function wompiShape(t: SandboxTransaction) {
  return {
    id: t.id,
    created_at: t.createdAt.toISOString(),
    finalized_at: t.status === 'PENDING' ? null : t.updatedAt.toISOString(),
    amount_in_cents: t.amountInCents,
    reference: t.reference,
    currency: t.currency,
    payment_method_type: 'SANDBOX',
    redirect_url: t.redirectUrl,
    status: t.status as TransactionStatus,
    status_message: null,
  };
}

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a.toLowerCase(), 'utf8');
  const y = Buffer.from(b.toLowerCase(), 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * The sandbox gateway (PAYMENT_GATEWAY=sandbox): Wompi's hosted checkout, transactions and events played
 * by the app itself, with the same keys the driver signs and verifies with. Each decision is a
 * transaction whose `transaction.updated` event is sent to the app's events endpoint at once and, when
 * not answered 200, again after 30 min, 3 h and 24 h of the app's clock. Deliveries are claimed with
 * `FOR UPDATE SKIP LOCKED` and a lease, so several instances never send one twice at once.
 */
export class PaymentSandbox {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly keys: GatewayKeys,
    /** How an event reaches the app (its events endpoint); tests swap it to play an app that fails. */
    public sendEvent: EventSender,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Refuses what Wompi refuses: another public key, a signature that does not verify, an expired link. */
  check(req: CheckoutRequest): CheckoutProblem | null {
    if (!sameText(req.publicKey, this.keys.publicKey)) return 'public-key';
    const expected = integritySignature({ ...req, integritySecret: this.keys.integritySecret });
    if (!/^[0-9a-f]{64}$/i.test(req.signature) || !sameText(req.signature, expected)) return 'signature';
    if (req.expirationTime !== undefined) {
      const at = Date.parse(req.expirationTime);
      if (Number.isNaN(at) || at <= this.ctx.clock.now().getTime()) return 'expired';
    }
    return null;
  }

  /** The bakery an attempt's reference belongs to, when it is one of this app's. */
  async bakeryOf(reference: string): Promise<string | null> {
    const [row] = await this.ctx.db
      .select({ name: companies.name })
      .from(paymentAttempts)
      .innerJoin(companies, eq(companies.id, paymentAttempts.companyId))
      .where(eq(paymentAttempts.reference, reference))
      .limit(1);
    return row?.name ?? null;
  }

  /** `Authorization: Bearer <private key>`, as Wompi requires of its transaction search. */
  authorizes(authorization: string | undefined): boolean {
    const match = /^Bearer (\S+)$/i.exec(authorization ?? '');
    return match !== null && sameText(match[1]!, this.keys.privateKey);
  }

  /** The transactions of a reference, oldest first (Wompi's search by reference); at most 100. */
  byReference(reference: string): Promise<SandboxTransaction[]> {
    return this.ctx.db
      .select()
      .from(paymentSandboxTransactions)
      .where(eq(paymentSandboxTransactions.reference, reference))
      .orderBy(asc(paymentSandboxTransactions.createdAt), asc(paymentSandboxTransactions.id))
      .limit(100);
  }

  async get(id: string): Promise<SandboxTransaction | null> {
    const [row] = await this.ctx.db
      .select()
      .from(paymentSandboxTransactions)
      .where(eq(paymentSandboxTransactions.id, id))
      .limit(1);
    return row ?? null;
  }

  /** A checked request's transaction with the buyer's decision; its event is sent before this returns. */
  async create(req: CheckoutRequest, status: TransactionStatus): Promise<SandboxTransaction> {
    const now = this.ctx.clock.now();
    const [row] = await this.ctx.db
      .insert(paymentSandboxTransactions)
      .values({
        // Wompi's ids are `{merchant}-{epoch}-{random}`; ours say they are the sandbox's.
        id: `prueba-${Math.floor(now.getTime() / 1000)}-${randomBytes(6).toString('hex')}`,
        reference: req.reference,
        amountInCents: req.amountInCents,
        currency: req.currency,
        status,
        redirectUrl: req.redirectUrl,
        eventDueAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await this.deliver([row!.id]);
    return row!;
  }

  /**
   * A pending transaction approved or declined later; null when it is not pending (decided already, in
   * this tab or another). The new status's event is sent before this returns.
   */
  async decide(id: string, status: 'APPROVED' | 'DECLINED'): Promise<SandboxTransaction | null> {
    const now = this.ctx.clock.now();
    const [row] = await this.ctx.db
      .update(paymentSandboxTransactions)
      .set({ status, updatedAt: now, eventAttempts: 0, eventDueAt: now, eventDeliveredAt: null })
      .where(and(eq(paymentSandboxTransactions.id, id), eq(paymentSandboxTransactions.status, 'PENDING')))
      .returning();
    if (!row) return null;
    await this.deliver([row.id]);
    return row;
  }

  /** The signed `transaction.updated` event of the transaction's current status, in Wompi's format. */
  event(t: SandboxTransaction) {
    const data = { transaction: wompiShape(t) };
    // Every field the app acts on is covered (event-rules.ts), so the app applies it without asking back.
    const properties = [...ACTED_ON_PROPERTIES];
    // The status change's time: the same event, byte for byte, however often it is retried.
    const timestamp = Math.floor(t.updatedAt.getTime() / 1000);
    const checksum = eventChecksum({ data, signature: { properties }, timestamp }, this.keys.eventsSecret)!;
    return {
      event: 'transaction.updated',
      data,
      environment: 'test',
      signature: { properties, checksum },
      timestamp,
      sent_at: this.ctx.clock.now().toISOString(),
    };
  }

  start(): void {
    this.timer = setInterval(() => void this.deliverDue(), MINUTE_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Sends every event due by the app's clock (a run under way is waited for); how many were sent. */
  deliverDue(): Promise<number> {
    if (this.running) return this.running;
    this.running = this.deliver(null)
      .catch((err: unknown) => {
        this.log.warn({ err }, 'payment sandbox: event delivery failed');
        return 0;
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  /**
   * Claims the due deliveries (of `ids` only, when given), each under a lease, sends them and records
   * the answer: 200 ends it, anything else sets the next retry, or none after the last.
   */
  private async deliver(ids: string[] | null): Promise<number> {
    const t = paymentSandboxTransactions;
    let sent = 0;
    for (;;) {
      const now = this.ctx.clock.now();
      const due = this.ctx.db
        .select({ id: t.id })
        .from(t)
        .where(and(lte(t.eventDueAt, now), ids ? inArray(t.id, ids) : undefined))
        .orderBy(t.eventDueAt)
        .limit(BATCH)
        .for('update', { skipLocked: true });
      const claimed = await this.ctx.db
        .update(t)
        .set({ eventDueAt: new Date(now.getTime() + DELIVERY_LEASE_MS) })
        .where(inArray(t.id, due))
        .returning();
      for (const row of claimed) {
        const status = await this.post(row);
        const attempts = row.eventAttempts + 1;
        const delay = EVENT_RETRY_DELAYS_MS[attempts - 1];
        const ok = status === 200;
        const at = this.ctx.clock.now();
        // Only if the status is still the one sent: a decision since has its own delivery.
        await this.ctx.db
          .update(t)
          .set({
            eventAttempts: attempts,
            eventDueAt: ok || delay === undefined ? null : new Date(at.getTime() + delay),
            ...(ok ? { eventDeliveredAt: at } : {}),
          })
          .where(and(eq(t.id, row.id), eq(t.status, row.status)));
        if (ok) sent++;
        else this.log.warn({ transactionId: row.id, status, attempts }, 'payment sandbox: event not answered 200');
      }
      if (ids || claimed.length < BATCH) return sent;
    }
  }

  private async post(row: SandboxTransaction): Promise<number> {
    const body = this.event(row);
    try {
      return await this.sendEvent(body, body.signature.checksum);
    } catch (err) {
      this.log.warn({ err, transactionId: row.id }, 'payment sandbox: event could not be sent');
      return 0;
    }
  }
}
