/**
 * The gateway's events (docs/design.md §3 and §5) on the real database: applied once per transaction
 * and status however many copies arrive at once, amount and currency checked, every effect in the
 * order's history, a paid web order confirmed, and bad or forged input changing nothing.
 */
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryEntry } from '@hornada/domain';
import { loggerOptions } from '../../src/app';
import { paymentAttempts, paymentEvents, paymentSandboxTransactions } from '../../src/db/schema';
import type { OrdersApp } from '../helpers/orders';
import {
  EVENT_TIMESTAMP,
  WOMPI_PROPERTIES,
  paymentsCalls,
  setupPaymentsApp,
  signedEvent,
  transactionOf,
  type WompiTransactionBody,
} from '../helpers/payments';

let o: OrdersApp;
const lines: string[] = [];
const { onlineOrder, sendEvent, staffView, patch } = paymentsCalls(() => o);

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  o = await setupPaymentsApp({ loggerInstance: pino(loggerOptions('info') as pino.LoggerOptions, sink) });
});
afterAll(async () => {
  await o?.t.close();
});

const GATEWAY = { uid: null, name: 'sandbox', role: 'gateway' };
const entriesOf = (history: HistoryEntry[], field: string) => history.filter((h) => h.field === field);
const eventsOf = (transactionId: string) =>
  o.t.db.select().from(paymentEvents).where(eq(paymentEvents.transactionId, transactionId));

describe('payment events', () => {
  it('marks the order paid and confirms it, each effect in its history by the gateway', async () => {
    const order = await onlineOrder();
    const tx = transactionOf(order);
    const res = await sendEvent(signedEvent(tx));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: { received: true } });
    const after = await staffView(order.id);
    expect(after).toMatchObject({ paymentStatus: 'paid', status: 'confirmed' });
    expect(after.payment).toEqual({
      gateway: 'sandbox',
      reference: tx.reference,
      transactionId: tx.id,
      status: 'APPROVED',
    });
    const at = after.history.at(-1)!.at;
    expect(after.history.slice(-3)).toEqual([
      { at, by: GATEWAY, field: 'paymentStatus', from: 'pending', to: 'paid' },
      {
        at,
        by: GATEWAY,
        field: 'payment',
        from: { gateway: 'sandbox', reference: tx.reference, transactionId: null },
        to: after.payment,
      },
      { at, by: GATEWAY, field: 'status', from: 'pending', to: 'confirmed', note: 'paid-online' },
    ]);
    const [attempt] = await o.t.db.select().from(paymentAttempts).where(eq(paymentAttempts.reference, tx.reference));
    expect(attempt).toMatchObject({ status: 'APPROVED', transactionId: tx.id });
  });

  it('applies one event sent 5 times at once once: one history entry, one confirmation', async () => {
    const order = await onlineOrder();
    const before = await staffView(order.id);
    const event = signedEvent(transactionOf(order));
    const answers = await Promise.all(Array.from({ length: 5 }, () => sendEvent(event)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const after = await staffView(order.id);
    expect(after).toMatchObject({ paymentStatus: 'paid', status: 'confirmed' });
    const added = after.history.slice(before.history.length);
    expect(added.map((h) => `${h.field}:${String(h.to && typeof h.to === 'object' ? 'payment' : h.to)}`)).toEqual([
      'paymentStatus:paid',
      'payment:payment',
      'status:confirmed',
    ]);
    expect(await eventsOf(event.data.transaction.id)).toHaveLength(1);
    // Sent again later (Wompi retries after 30 min, 3 h, 24 h): still nothing more.
    expect((await sendEvent(event)).statusCode).toBe(200);
    expect((await staffView(order.id)).history).toHaveLength(after.history.length);
  });

  it('never marks paid an underpaid or other-currency event, and writes it to the history', async () => {
    for (const wrong of [{ amount_in_cents: 100 }, { currency: 'USD' }]) {
      const order = await onlineOrder();
      const tx = transactionOf(order, wrong);
      const res = await sendEvent(signedEvent(tx));
      expect(res.statusCode, res.body).toBe(200);
      const after = await staffView(order.id);
      expect(after).toMatchObject({ paymentStatus: 'pending', status: 'pending' });
      expect(after.payment).toMatchObject({ transactionId: tx.id, status: 'APPROVED', problem: expect.any(String) });
      expect(entriesOf(after.history, 'payment').at(-1)).toMatchObject({ by: GATEWAY, note: 'mismatch' });
      expect(entriesOf(after.history, 'paymentStatus').map((h) => h.to)).toEqual(['pending']);
      expect(await eventsOf(tx.id)).toMatchObject([{ outcome: 'mismatch' }]);
    }
    expect(lines.some((l) => l.includes('is not the attempt'))).toBe(true);
  });

  it('changes nothing for a forged event: a wrong secret, a tampered value, a header that disagrees', async () => {
    const order = await onlineOrder();
    const before = await staffView(order.id);
    const tx = transactionOf(order);
    const forged = signedEvent(tx, 'not_the_events_secret');
    const tampered = { ...signedEvent({ ...tx, status: 'DECLINED' }), data: signedEvent(tx).data };
    const good = signedEvent(tx);
    for (const [body, headers] of [
      [forged, {}],
      [tampered, {}],
      [good, { 'x-event-checksum': forged.signature.checksum }],
    ] as const) {
      const res = await sendEvent(body, headers);
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json()).toMatchObject({ code: 'payments/invalid-signature' });
    }
    expect(await staffView(order.id)).toEqual(before);
    expect(await eventsOf(tx.id)).toHaveLength(0);
  });

  it('refuses malformed JSON, a missing signature and a body over 64 KB with a 4xx, changing nothing', async () => {
    const order = await onlineOrder();
    const before = await staffView(order.id);
    const tx = transactionOf(order);
    const { signature: _s, ...unsigned } = signedEvent(tx);
    const big = { ...signedEvent(tx), padding: 'x'.repeat(65 * 1024) };
    const answers = [
      await sendEvent('{"event": "transaction.updated", '),
      await sendEvent(unsigned),
      await sendEvent(big),
      await sendEvent({ ...signedEvent(tx), timestamp: 'yesterday' }),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([400, 400, 413, 400]);
    expect(await staffView(order.id)).toEqual(before);
    expect(await eventsOf(tx.id)).toHaveLength(0);
  });

  it('answers 200 to an event for an unknown reference and logs it', async () => {
    const order = await onlineOrder();
    const tx = transactionOf(order, { reference: '9999-1-000000000000' });
    const res = await sendEvent(signedEvent(tx));
    expect(res.statusCode, res.body).toBe(200);
    expect(await eventsOf(tx.id)).toHaveLength(0);
    const line = lines.find((l) => l.includes('unknown reference') && l.includes(tx.id));
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ level: 40, reference: '9999-1-000000000000' });
  });

  it('marks a declined attempt failed, and a later approval of it paid through pending', async () => {
    const order = await onlineOrder();
    const declined = transactionOf(order, { status: 'DECLINED' });
    expect((await sendEvent(signedEvent(declined))).statusCode).toBe(200);
    expect(await staffView(order.id)).toMatchObject({ paymentStatus: 'failed', status: 'pending' });
    const approved = transactionOf(order);
    expect((await sendEvent(signedEvent(approved))).statusCode).toBe(200);
    const after = await staffView(order.id);
    expect(after).toMatchObject({ paymentStatus: 'paid', status: 'confirmed' });
    expect(entriesOf(after.history, 'paymentStatus').map((h) => `${String(h.from)}→${String(h.to)}`)).toEqual([
      'unpaid→pending',
      'pending→failed',
      'failed→pending',
      'pending→paid',
    ]);
    // A decline arriving after the payment changes nothing on the order.
    const late = transactionOf(order, { status: 'DECLINED' });
    expect((await sendEvent(signedEvent(late))).statusCode).toBe(200);
    expect((await staffView(order.id)).history).toHaveLength(after.history.length);
    expect(await eventsOf(late.id)).toMatchObject([{ outcome: 'stale' }]);
  });

  it('applies a transaction and status once, never again after a later status (a replayed PENDING)', async () => {
    const order = await onlineOrder();
    const pending = transactionOf(order, { status: 'PENDING' });
    const pendingEvent = signedEvent(pending);
    expect((await sendEvent(pendingEvent)).statusCode).toBe(200);
    expect((await sendEvent(signedEvent({ ...pending, status: 'DECLINED' }))).statusCode).toBe(200);
    const declined = await staffView(order.id);
    expect(declined.paymentStatus).toBe('failed');
    // The PENDING retried after the decline (Wompi retries an event it thinks unanswered) changes nothing.
    expect((await sendEvent(pendingEvent)).statusCode).toBe(200);
    expect(await staffView(order.id)).toEqual(declined);
    expect((await eventsOf(pending.id)).map((e) => e.status).sort()).toEqual(['DECLINED', 'PENDING']);
  });

  it('flags a payment approved after staff cancelled the order, never reviving it; the refund clears it', async () => {
    const order = await onlineOrder();
    const cancel = await patch(order.id, o.staff, { status: 'cancelled', cancelReason: 'El cliente llamó' });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const late = transactionOf(order);
    expect((await sendEvent(signedEvent(late))).statusCode).toBe(200);
    const after = await staffView(order.id);
    expect(after).toMatchObject({
      status: 'cancelled',
      paymentStatus: 'paid',
      payment: { transactionId: late.id, status: 'APPROVED' },
      refundsDue: [
        { reason: 'after-cancel', transactionId: late.id, reference: late.reference, amountInCents: order.total * 100 },
      ],
    });
    expect(entriesOf(after.history, 'status').at(-1)).toMatchObject({ to: 'cancelled' });
    expect(entriesOf(after.history, 'refundsDue')).toMatchObject([{ by: GATEWAY, from: [], to: after.refundsDue }]);
    expect(await eventsOf(late.id)).toMatchObject([{ outcome: 'refund-due' }]);
    // The same event again changes nothing.
    expect((await sendEvent(signedEvent(late))).statusCode).toBe(200);
    expect((await staffView(order.id)).history).toHaveLength(after.history.length);

    // Staff cannot clear it; the admin's refund (paid → refunded) does, in history.
    const byStaff = await patch(order.id, o.staff, { refundsDue: [] });
    expect(byStaff.statusCode).toBe(422);
    expect(byStaff.json()).toMatchObject({ code: 'orders/invalid-payment' });
    const refund = await patch(order.id, o.admin, { paymentStatus: 'refunded', refundReason: 'Pagó tras cancelar' });
    expect(refund.statusCode, refund.body).toBe(200);
    const refunded = await staffView(order.id);
    expect(refunded).toMatchObject({ paymentStatus: 'refunded', refundsDue: [], status: 'cancelled' });
    expect(entriesOf(refunded.history, 'refundsDue').at(-1)).toMatchObject({ to: [] });
  });

  it('flags a second approved transaction of a paid order; the admin says the money went back', async () => {
    const order = await onlineOrder();
    const first = transactionOf(order);
    expect((await sendEvent(signedEvent(first))).statusCode).toBe(200);
    const paid = await staffView(order.id);
    expect(paid).toMatchObject({ paymentStatus: 'paid', status: 'confirmed', refundsDue: [] });
    const second = transactionOf(order);
    expect((await sendEvent(signedEvent(second))).statusCode).toBe(200);
    const twice = await staffView(order.id);
    expect(twice).toMatchObject({
      paymentStatus: 'paid',
      status: 'confirmed',
      // The order's payment stays the one that paid it.
      payment: { transactionId: first.id },
      refundsDue: [{ reason: 'duplicate', transactionId: second.id }],
    });
    expect(await eventsOf(second.id)).toMatchObject([{ outcome: 'refund-due' }]);
    // A decline of yet another attempt is still only stale.
    const declined = transactionOf(order, { status: 'DECLINED' });
    expect((await sendEvent(signedEvent(declined))).statusCode).toBe(200);
    expect(await eventsOf(declined.id)).toMatchObject([{ outcome: 'stale' }]);

    const cleared = await patch(order.id, o.admin, { refundsDue: [] });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(await staffView(order.id)).toMatchObject({ paymentStatus: 'paid', refundsDue: [] });
    // Only emptied: an admin cannot write entries of its own.
    const forged = await patch(order.id, o.admin, { refundsDue: [{ reason: 'duplicate' }] });
    expect(forged.statusCode).toBe(400);
  });

  it('answers 200 to another kind of event and changes nothing', async () => {
    const order = await onlineOrder();
    const before = await staffView(order.id);
    const other = { ...signedEvent(transactionOf(order)), event: 'nequi_token.updated' };
    expect((await sendEvent(other)).statusCode).toBe(200);
    expect(await staffView(order.id)).toEqual(before);
  });
});

/** What a captured event's checksum was computed over: its covered values, concatenated in order. */
function signedText(event: ReturnType<typeof signedEvent>): string {
  const t = event.data.transaction as unknown as Record<string, unknown>;
  return event.signature.properties.map((p) => String(t[p.replace(/^transaction\./, '')])).join('');
}

describe('events the checksum does not cover', () => {
  const DAY_S = 24 * 3600;

  it('refuses a relabelled event: its signed values moved into a made-up field that the properties name alone', async () => {
    const captured = signedEvent(transactionOf(await onlineOrder(), { status: 'DECLINED' }));
    const victim = await onlineOrder();
    const before = await staffView(victim.id);
    const relabelled = {
      ...captured,
      data: {
        transaction: { ...transactionOf(victim), id: 'tx-relabelled' },
        nota: signedText(captured),
      },
      signature: { properties: ['nota'], checksum: captured.signature.checksum },
    };
    const res = await sendEvent(relabelled);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'payments/uncovered-event',
      message: expect.stringContaining('transaction.id'),
    });
    expect(await staffView(victim.id)).toEqual(before);
    expect(await eventsOf('tx-relabelled')).toHaveLength(0);
  });

  it("asks the gateway when the reference is not covered (Wompi's own properties): a relabelled reference pays nothing", async () => {
    const payer = await onlineOrder();
    const victim = await onlineOrder();
    const beforeVictim = await staffView(victim.id);
    // The payer's transaction as the gateway knows it; its event names the victim's reference instead.
    const real = transactionOf(payer);
    const now = o.t.clock.now();
    await o.t.db.insert(paymentSandboxTransactions).values({
      id: real.id,
      reference: real.reference,
      amountInCents: real.amount_in_cents,
      currency: real.currency,
      status: real.status,
      redirectUrl: 'http://localhost:0/respuesta-de-pago',
      createdAt: now,
      updatedAt: now,
    });
    const relabelled = signedEvent({ ...real, reference: victim.payment.reference }, undefined, {
      properties: WOMPI_PROPERTIES,
    });
    expect((await sendEvent(relabelled)).statusCode).toBe(200);
    expect(await staffView(victim.id)).toEqual(beforeVictim);
    // What the gateway says is what is applied: the payer's order.
    expect(await staffView(payer.id)).toMatchObject({ paymentStatus: 'paid', payment: { transactionId: real.id } });
    // A transaction the gateway does not know: 200 (nothing to retry), logged, nothing applied.
    const unknown: WompiTransactionBody = { ...transactionOf(victim), id: 'tx-gateway-never-saw' };
    const res = await sendEvent(signedEvent(unknown, undefined, { properties: WOMPI_PROPERTIES }));
    expect(res.statusCode, res.body).toBe(200);
    expect(await staffView(victim.id)).toEqual(beforeVictim);
    expect(lines.some((l) => l.includes('the gateway does not know') && l.includes('tx-gateway-never-saw'))).toBe(true);
  });

  it('binds a transaction id to the first reference it came with: another reference is refused and logged', async () => {
    const first = await onlineOrder();
    const victim = await onlineOrder();
    const tx = transactionOf(first, { status: 'PENDING' });
    expect((await sendEvent(signedEvent(tx))).statusCode).toBe(200);
    const before = await staffView(victim.id);
    const other = signedEvent({ ...tx, status: 'APPROVED', reference: victim.payment.reference });
    const res = await sendEvent(other);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ code: 'payments/transaction-reference' });
    expect(await staffView(victim.id)).toEqual(before);
    expect(await eventsOf(tx.id)).toMatchObject([{ status: 'PENDING', reference: tx.reference }]);
    const line = lines.find((l) => l.includes('another reference') && l.includes(tx.id));
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({
      level: 40,
      reference: victim.payment.reference,
      firstReference: tx.reference,
    });
  });

  it('answers 200 to an event over 3 days old or over 5 minutes ahead, logs it and applies nothing', async () => {
    const order = await onlineOrder();
    const before = await staffView(order.id);
    const now = o.t.clock.now().getTime() / 1000;
    expect(now).toBe(EVENT_TIMESTAMP);
    for (const timestamp of [now - 3 * DAY_S - 1, now + 5 * 60 + 1]) {
      const tx = transactionOf(order);
      const res = await sendEvent(signedEvent(tx, undefined, { timestamp }));
      expect(res.statusCode, res.body).toBe(200);
      expect(await staffView(order.id)).toEqual(before);
      expect(await eventsOf(tx.id)).toHaveLength(0);
      expect(lines.some((l) => l.includes('outside its time') && l.includes(tx.id))).toBe(true);
    }
    // Just inside both bounds: applied.
    const late = transactionOf(order, { status: 'PENDING' });
    expect((await sendEvent(signedEvent(late, undefined, { timestamp: now - 3 * DAY_S + 60 }))).statusCode).toBe(200);
    expect(await eventsOf(late.id)).toHaveLength(1);
    const early = transactionOf(order);
    expect((await sendEvent(signedEvent(early, undefined, { timestamp: now + 4 * 60 }))).statusCode).toBe(200);
    expect(await staffView(order.id)).toMatchObject({ paymentStatus: 'paid' });
  });
});
