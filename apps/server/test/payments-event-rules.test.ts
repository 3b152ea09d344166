/**
 * The event rules (docs/design.md §5), pure: the documentation's example event, and the
 * relabelled event that moved its signed values into a made-up field so that reference, status, amount
 * and transaction id were free.
 */
import { describe, expect, it } from 'vitest';
import {
  ACTED_ON_PROPERTIES,
  EVENT_MAX_AGE_MS,
  EVENT_MAX_LEAD_MS,
  judgeEvent,
} from '../src/providers/payments/event-rules';
import { eventChecksum, verifyEventChecksum } from '../src/providers/payments/signatures';

const EVENTS_SECRET = 'test_events_secret_for_hornada';
/** Wompi's documented example: its transaction, properties and timestamp (seconds). */
const TIMESTAMP = 1530291411;
const AT = new Date(TIMESTAMP * 1000);
const WOMPI_PROPERTIES = ['transaction.id', 'transaction.status', 'transaction.amount_in_cents'];

function event(properties: readonly string[] = WOMPI_PROPERTIES, extra: { timestamp?: number | string } = {}) {
  const data = {
    transaction: {
      id: '1234-1610641025-49201',
      reference: 'MZQ3X2DE2SMX',
      amount_in_cents: 4490000,
      currency: 'COP',
      status: 'APPROVED',
      payment_method_type: 'NEQUI',
    },
  };
  const timestamp = extra.timestamp ?? TIMESTAMP;
  const checksum = eventChecksum({ data, signature: { properties }, timestamp }, EVENTS_SECRET)!;
  return { event: 'transaction.updated', data, environment: 'prod', signature: { properties, checksum }, timestamp };
}

const judge = (body: unknown, now = AT, header?: string) =>
  judgeEvent(body, header, { eventsSecret: EVENTS_SECRET, now });

const TRANSACTION = {
  id: '1234-1610641025-49201',
  reference: 'MZQ3X2DE2SMX',
  amountInCents: 4490000,
  currency: 'COP',
  status: 'APPROVED',
};

describe('the event rules', () => {
  it("takes the documentation's example, only its id believed: its properties leave out the reference", () => {
    const e = event();
    // Built from the documented algorithm on the documented values (our secret: the printed example's
    // checksum does not hash from its printed inputs): sha256(id + status + cents + timestamp + secret).
    expect(e.signature.checksum).toBe('4dd7e7c1edc6dd976897e5a1c7606604ac2a90d85673641baf9f1f4a34af058c');
    expect(judge(e)).toEqual({ kind: 'transaction', transaction: TRANSACTION, covered: false });
    // The header says the same in capitals: still the same event.
    expect(judge(e, AT, e.signature.checksum.toUpperCase())).toMatchObject({ kind: 'transaction' });
  });

  it('applies as it comes an event whose checksum covers every field acted on, the timestamp as text too', () => {
    expect(judge(event(ACTED_ON_PROPERTIES))).toEqual({ kind: 'transaction', transaction: TRANSACTION, covered: true });
    expect(judge(event(ACTED_ON_PROPERTIES, { timestamp: String(TIMESTAMP) }))).toMatchObject({ covered: true });
    // Reference covered but currency not: still asked of the gateway.
    expect(judge(event([...WOMPI_PROPERTIES, 'transaction.reference']))).toMatchObject({ covered: false });
  });

  it('asks the gateway when a further property could shift a boundary of the concatenated values', () => {
    // Signed over id, status, cents "4490000", reference…; resent with the cents' last digit moved into
    // a made-up field: the same text, so the same checksum, and 449000 cents.
    const signed = event(ACTED_ON_PROPERTIES);
    const t = signed.data.transaction;
    const shifted = {
      ...signed,
      data: { transaction: { ...t, amount_in_cents: 449000 }, nota: '0' },
      signature: {
        properties: [
          'transaction.id',
          'transaction.status',
          'transaction.amount_in_cents',
          'nota',
          'transaction.reference',
          'transaction.currency',
        ],
        checksum: signed.signature.checksum,
      },
    };
    expect(verifyEventChecksum(shifted, shifted.signature.checksum, EVENTS_SECRET)).toBe(true);
    expect(judge(shifted)).toMatchObject({ kind: 'transaction', covered: false });
    // A property named twice is no cover either.
    expect(judge(event([...ACTED_ON_PROPERTIES.slice(0, 4), 'transaction.id']))).toMatchObject({ covered: false });
  });

  it('refuses a relabelled event whose checksum verifies over a made-up field alone', () => {
    const captured = event();
    const t = captured.data.transaction;
    const relabelled = {
      ...captured,
      data: {
        transaction: { ...t, id: 'tx-free', reference: '1042-1-anyorder', amount_in_cents: 999900 },
        nota: `${t.id}${t.status}${t.amount_in_cents}`,
      },
      signature: { properties: ['nota'], checksum: captured.signature.checksum },
    };
    // The attack's premise: the checksum alone verifies.
    expect(verifyEventChecksum(relabelled, relabelled.signature.checksum, EVENTS_SECRET)).toBe(true);
    expect(judge(relabelled)).toEqual({
      kind: 'refused',
      reason: 'uncovered',
      message:
        'The event checksum must cover transaction.id, transaction.status, transaction.amount_in_cents; ' +
        'signature.properties leaves out transaction.id, transaction.status, transaction.amount_in_cents',
    });
  });

  it('refuses an event whose properties leave out any one of id, status and amount', () => {
    for (const left of WOMPI_PROPERTIES) {
      const verdict = judge(event([...WOMPI_PROPERTIES.filter((p) => p !== left), 'transaction.reference']));
      expect(verdict).toMatchObject({ kind: 'refused', reason: 'uncovered' });
      expect(verdict.kind === 'refused' && verdict.message.endsWith(`leaves out ${left}`)).toBe(true);
    }
  });

  it('refuses a forged checksum or a header that disagrees, before any other rule', () => {
    const forged = { ...event(), signature: { properties: ['nota'], checksum: 'a'.repeat(64) } };
    expect(judge(forged)).toMatchObject({ kind: 'refused', reason: 'signature' });
    expect(judge(event(), AT, 'b'.repeat(64))).toMatchObject({ kind: 'refused', reason: 'signature' });
    const { signature: _s, ...unsigned } = event();
    expect(judge(unsigned)).toMatchObject({ kind: 'refused', reason: 'malformed' });
  });

  it('lets another kind of event through as such, whatever its properties', () => {
    const data = { nequi_token: { id: 'nequi_1', status: 'APPROVED' } };
    const properties = ['nequi_token.id', 'nequi_token.status'];
    const checksum = eventChecksum({ data, signature: { properties }, timestamp: TIMESTAMP }, EVENTS_SECRET)!;
    const other = { event: 'nequi_token.updated', data, signature: { properties, checksum }, timestamp: TIMESTAMP };
    expect(judge(other)).toEqual({ kind: 'other', event: 'nequi_token.updated' });
  });

  it('takes an event up to 3 days old or 5 minutes ahead, and not a second more', () => {
    const e = event();
    const later = (ms: number) => new Date(AT.getTime() + ms);
    expect(judge(e, later(EVENT_MAX_AGE_MS))).toMatchObject({ kind: 'transaction' });
    expect(judge(e, later(EVENT_MAX_AGE_MS + 1000))).toEqual({
      kind: 'untimely',
      transactionId: TRANSACTION.id,
      timestamp: TIMESTAMP,
      when: 'too-old',
    });
    expect(judge(e, later(-EVENT_MAX_LEAD_MS))).toMatchObject({ kind: 'transaction' });
    expect(judge(e, later(-EVENT_MAX_LEAD_MS - 1000))).toMatchObject({ kind: 'untimely', when: 'ahead' });
    expect(EVENT_MAX_AGE_MS).toBe(3 * 24 * 3600 * 1000);
    expect(EVENT_MAX_LEAD_MS).toBe(5 * 60 * 1000);
  });
});
