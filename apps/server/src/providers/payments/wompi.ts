import { z } from 'zod';
import { judgeEvent, toTransaction, WompiTransaction } from './event-rules';
import {
  EventRejected,
  type GatewayTransaction,
  type PaymentGateway,
  type PaymentStart,
  type VerifiedEvent,
} from './gateway';
import { integritySignature } from './signatures';

/** Wompi's keys and addresses (docs/design.md §3's WOMPI_* variables). */
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

    verifyEvent(body: unknown, checksumHeader: string | undefined, now: Date): VerifiedEvent {
      const verdict = judgeEvent(body, checksumHeader, { eventsSecret: opts.eventsSecret, now });
      if (verdict.kind === 'refused') throw new EventRejected(verdict.reason, verdict.message);
      return verdict;
    },
  };
}
