import { z } from 'zod';
import {
  EventRejected,
  TRANSACTION_STATUSES,
  type GatewayTransaction,
  type PaymentGateway,
  type PaymentStart,
  type VerifiedEvent,
} from './gateway';
import { integritySignature, verifyEventChecksum } from './signatures';

/** Wompi's keys and addresses (design §3's WOMPI_* variables). */
export interface WompiOptions {
  /** `wompi`, or `sandbox` for the look-alike the app serves itself at its own addresses. */
  name: string;
  publicKey: string;
  integritySecret: string;
  eventsSecret: string;
  /** The bearer Wompi requires of its transaction search (`prv_test_…`, `prv_prod_…`); server side only. */
  privateKey: string;
  /** `…/v1`: transactions are looked up at `{apiUrl}/transactions/{id}`. */
  apiUrl: string;
  /** The Web Checkout page (`https://checkout.wompi.co/p/`). */
  checkoutUrl: string;
  /** Injected by tests; the global fetch otherwise. */
  fetch?: typeof fetch;
  /** How long a look-up may take before it counts as not answered. */
  lookUpTimeoutMs?: number;
}

/** A transaction in Wompi's shape (events and look-ups alike); other fields are left as they come. */
const WompiTransaction = z.looseObject({
  id: z.string().min(1).max(200),
  reference: z.string().min(1).max(200),
  amount_in_cents: z.number().int().min(0),
  currency: z.string().min(1).max(10),
  status: z.enum(TRANSACTION_STATUSES),
});

/** Wompi's event (design §5): `data`, the properties its checksum covers, the checksum and a timestamp. */
const WompiEvent = z.looseObject({
  event: z.string().min(1).max(100),
  data: z.looseObject({}),
  environment: z.string().max(50).optional(),
  signature: z.looseObject({
    properties: z.array(z.string().min(1).max(200)).min(1).max(50),
    checksum: z.string().min(1).max(200),
  }),
  timestamp: z.union([z.number().int(), z.string().regex(/^\d{1,20}$/)]),
});

const toTransaction = (t: z.infer<typeof WompiTransaction>): GatewayTransaction => ({
  id: t.id,
  reference: t.reference,
  amountInCents: t.amount_in_cents,
  currency: t.currency,
  status: t.status,
});

/**
 * Wompi's protocol: the Web Checkout link with `signature:integrity`, the look-up at
 * `{apiUrl}/transactions/{id}`, `transaction.updated` events with a SHA-256 checksum. The sandbox is the
 * same driver pointed at the app's own look-alike.
 */
export function createWompiGateway(opts: WompiOptions): PaymentGateway {
  const doFetch = opts.fetch ?? fetch;
  return {
    name: opts.name,

    checkoutUrl(start: PaymentStart): string {
      const url = new URL(opts.checkoutUrl);
      url.searchParams.set('public-key', opts.publicKey);
      url.searchParams.set('currency', start.currency);
      url.searchParams.set('amount-in-cents', String(start.amountInCents));
      url.searchParams.set('reference', start.reference);
      url.searchParams.set(
        'signature:integrity',
        integritySignature({ ...start, integritySecret: opts.integritySecret }),
      );
      url.searchParams.set('redirect-url', start.redirectUrl);
      return url.toString();
    },

    async lookUp(transactionId: string): Promise<GatewayTransaction | null> {
      const res = await doFetch(`${opts.apiUrl.replace(/\/$/, '')}/transactions/${encodeURIComponent(transactionId)}`, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(opts.lookUpTimeoutMs ?? 10_000),
      });
      if (res.status === 404) return null;
      if (!res.ok) throw new Error(`${opts.name}: transaction look-up answered ${res.status}`);
      const body = z.object({ data: WompiTransaction }).safeParse(await res.json());
      if (!body.success) throw new Error(`${opts.name}: transaction look-up answered an unexpected shape`);
      return toTransaction(body.data.data);
    },

    async findByReference(reference: string): Promise<GatewayTransaction | null> {
      const url = new URL(`${opts.apiUrl.replace(/\/$/, '')}/transactions`);
      url.searchParams.set('reference', reference);
      const res = await doFetch(url, {
        // Wompi lists transactions only to the merchant: its private key, never sent to a browser.
        headers: { accept: 'application/json', authorization: `Bearer ${opts.privateKey}` },
        signal: AbortSignal.timeout(opts.lookUpTimeoutMs ?? 10_000),
      });
      if (res.status === 404) return null;
      if (!res.ok) throw new Error(`${opts.name}: transaction search answered ${res.status}`);
      const body = z.object({ data: z.array(WompiTransaction).max(100) }).safeParse(await res.json());
      if (!body.success) throw new Error(`${opts.name}: transaction search answered an unexpected shape`);
      // Only this reference's transactions count, whatever else the gateway lists; money received wins.
      const found = body.data.data.filter((t) => t.reference === reference);
      const chosen = found.find((t) => t.status === 'APPROVED') ?? found.at(-1);
      return chosen ? toTransaction(chosen) : null;
    },

    verifyEvent(body: unknown, checksumHeader: string | undefined): VerifiedEvent {
      const parsed = WompiEvent.safeParse(body);
      if (!parsed.success)
        throw new EventRejected('malformed', 'Not a gateway event: signature, data or timestamp missing');
      const event = parsed.data;
      const checksum = event.signature.checksum;
      // The header, when sent, must say the same as the body (design §5).
      const headerAgrees = checksumHeader === undefined || checksumHeader.toLowerCase() === checksum.toLowerCase();
      if (!headerAgrees || !verifyEventChecksum(event, checksum, opts.eventsSecret)) {
        throw new EventRejected('signature', 'The event checksum does not verify');
      }
      if (event.event !== 'transaction.updated') return { kind: 'other', event: event.event };
      const transaction = WompiTransaction.safeParse(event.data.transaction);
      if (!transaction.success) throw new EventRejected('malformed', 'The event carries no transaction');
      return { kind: 'transaction', transaction: toTransaction(transaction.data) };
    },
  };
}
