/**
 * The sandbox gateway (docs/design.md §3): its hosted checkout page, the transaction its
 * buttons create, the redirect with `id=`, the signed event to the app's own events endpoint (retried as
 * Wompi does), a pending transaction decided later, and the look-up in Wompi's shape.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { companies, paymentSandboxTransactions, settings } from '../../src/db/schema';
import { integritySignature } from '../../src/providers/payments/signatures';
import type { PaymentSandbox } from '../../src/modules/payment-sandbox/sandbox.service';
import { MONDAY_10AM, type OrdersApp } from '../helpers/orders';
import { PAYMENT_KEYS, paymentsCalls, setupPaymentsApp, type OnlineOrder } from '../helpers/payments';

let o: OrdersApp;
let sandbox: PaymentSandbox;
const { onlineOrder, staffView } = paymentsCalls(() => o);

beforeAll(async () => {
  o = await setupPaymentsApp();
  sandbox = o.t.app.paymentSandbox!;
});
// The retry tests move the clock; every test starts on the bakery's Monday morning.
beforeEach(() => {
  o.t.clock.set(MONDAY_10AM);
});
afterAll(async () => {
  await o?.t.close();
});

const MINUTE = 60_000;

/** The order's checkout link as a path on this app, with `change` applied to its query. */
function checkoutPath(order: OnlineOrder, change: (q: URLSearchParams) => void = () => {}): string {
  const url = new URL(order.payment.checkoutUrl);
  change(url.searchParams);
  return `${url.pathname}?${url.searchParams.toString()}`;
}

const openPage = (url: string) => o.t.call({ method: 'GET', url });

/** Submits the checkout form as the browser would: its fields plus the button pressed. */
function choose(order: OnlineOrder, decision: string) {
  const form = new URLSearchParams(new URL(order.payment.checkoutUrl).searchParams);
  form.set('decision', decision);
  return o.t.call({
    method: 'POST',
    url: '/pasarela-de-prueba',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: form.toString(),
  });
}

const decideLater = (id: string, decision: string) =>
  o.t.call({
    method: 'POST',
    url: `/pasarela-de-prueba/transacciones/${encodeURIComponent(id)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ decision }).toString(),
  });

/** The transaction id the redirect carries, checked to go back to the order's response page. */
function returnedId(res: { statusCode: number; headers: Record<string, unknown>; body: string }, order: OnlineOrder) {
  expect(res.statusCode, res.body).toBe(303);
  const back = new URL(String(res.headers.location));
  expect(back.pathname).toBe('/respuesta-de-pago');
  expect(back.searchParams.get('pedido')).toBe(order.accessToken);
  return back.searchParams.get('id')!;
}

const lookUp = (id: string) =>
  o.t.call({ method: 'GET', url: `/api/pasarela-de-prueba/v1/transactions/${encodeURIComponent(id)}` });

const paidEntries = async (orderId: string) =>
  (await staffView(orderId)).history.filter((h) => h.field === 'paymentStatus' && h.to === 'paid');

describe('the sandbox checkout page', () => {
  it('shows the bakery, the amount in pesos and the reference, with the three choices', async () => {
    const order = await onlineOrder(4);
    const res = await openPage(checkoutPath(order));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    // No script; the form may redirect to the order's response page (browsers check a form's redirects).
    expect(res.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(res.headers['content-security-policy']).toContain("form-action 'self' http://localhost:0;");
    expect(res.body).toContain('lang="es-CO"');
    expect(res.body).toContain('Panadería Uno');
    expect(res.body).toContain(`$${order.total.toLocaleString('en-US')} COP`);
    expect(res.body).toContain(order.payment.reference);
    for (const label of ['Aprobar', 'Rechazar', 'Dejar pendiente']) expect(res.body).toContain(`>${label}</button>`);
    expect(res.body).not.toContain('<script');
    // Its own icon, linked, so a browser never asks for /favicon.ico.
    expect(res.body).toContain('<link rel="icon" href="/pasarela-de-prueba/icono.svg" type="image/svg+xml">');
    const icon = await openPage('/pasarela-de-prueba/icono.svg');
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.body).toMatch(/^<svg /);
    const css = await openPage('/pasarela-de-prueba/estilos.css');
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
  });

  it('refuses a wrong integrity signature, another public key, a changed amount or a missing field with 400', async () => {
    const order = await onlineOrder();
    const cases: [(q: URLSearchParams) => void, string][] = [
      [(q) => q.set('signature:integrity', 'a'.repeat(64)), 'Enlace de pago no válido'],
      [(q) => q.set('amount-in-cents', '100'), 'Enlace de pago no válido'],
      [(q) => q.set('public-key', 'pub_test_otro_comercio'), 'Comercio no reconocido'],
      [(q) => q.delete('redirect-url'), 'Enlace de pago incompleto'],
      // Not covered by the signature: a link sending the buyer elsewhere afterwards is refused (open redirect).
      [(q) => q.set('redirect-url', 'https://evil.example/respuesta-de-pago'), 'Enlace de pago no permitido'],
      [(q) => q.set('redirect-url', 'http://localhost:1/respuesta-de-pago'), 'Enlace de pago no permitido'],
    ];
    for (const [change, title] of cases) {
      const res = await openPage(checkoutPath(order, change));
      expect(res.statusCode, title).toBe(400);
      expect(res.body).toContain(title);
      expect(res.body).not.toContain('>Aprobar</button>');
    }
    // The same refusal when the form itself is posted with a forged signature: no transaction.
    const form = new URLSearchParams(new URL(order.payment.checkoutUrl).searchParams);
    form.set('signature:integrity', 'b'.repeat(64));
    form.set('decision', 'APPROVED');
    const post = await o.t.call({
      method: 'POST',
      url: '/pasarela-de-prueba',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
    expect(post.statusCode).toBe(400);
    // Nor is a posted form with another redirect-url followed.
    const elsewhere = new URLSearchParams(new URL(order.payment.checkoutUrl).searchParams);
    elsewhere.set('redirect-url', 'https://evil.example/');
    elsewhere.set('decision', 'APPROVED');
    const away = await o.t.call({
      method: 'POST',
      url: '/pasarela-de-prueba',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: elsewhere.toString(),
    });
    expect(away.statusCode).toBe(400);
    expect(away.headers.location).toBeUndefined();
    expect(away.body).toContain('Por seguridad no lo seguimos');
    const made = await o.t.db
      .select()
      .from(paymentSandboxTransactions)
      .where(eq(paymentSandboxTransactions.reference, order.payment.reference));
    expect(made).toEqual([]);
    expect((await staffView(order.id)).paymentStatus).toBe('pending');
  });

  it('accepts an expiration time the signature covers, and refuses it once past', async () => {
    const order = await onlineOrder();
    const at = (ms: number) => new Date(o.t.clock.now().getTime() + ms).toISOString();
    const signed = (expiration: string) =>
      checkoutPath(order, (q) => {
        q.set('expiration-time', expiration);
        q.set(
          'signature:integrity',
          integritySignature({
            reference: order.payment.reference,
            amountInCents: order.total * 100,
            currency: 'COP',
            expirationTime: expiration,
            integritySecret: PAYMENT_KEYS.WOMPI_INTEGRITY_SECRET,
          }),
        );
      });
    expect((await openPage(signed(at(10 * MINUTE)))).statusCode).toBe(200);
    const past = await openPage(signed(at(-MINUTE)));
    expect(past.statusCode).toBe(400);
    expect(past.body).toContain('El enlace de pago venció');
  });
});

describe('choosing on the sandbox page', () => {
  it('approve: redirects with id=, the event pays and confirms the order, one paid entry in history', async () => {
    const order = await onlineOrder();
    const id = returnedId(await choose(order, 'APPROVED'), order);
    expect(id).toMatch(/^prueba-/);
    const after = await staffView(order.id);
    expect(after).toMatchObject({
      paymentStatus: 'paid',
      status: 'confirmed',
      payment: { gateway: 'sandbox', transactionId: id, status: 'APPROVED' },
    });
    expect(await paidEntries(order.id)).toHaveLength(1);
    // The response page's look-up after the event: the same answer, nothing applied twice.
    const res = await o.t.call({ method: 'GET', url: `/api/orders/link/${order.accessToken}/payment?id=${id}` });
    expect(res.json()).toEqual({ data: { paymentStatus: 'paid', transactionStatus: 'APPROVED' } });
    expect(await paidEntries(order.id)).toHaveLength(1);
    const [row] = await o.t.db.select().from(paymentSandboxTransactions).where(eq(paymentSandboxTransactions.id, id));
    expect(row).toMatchObject({ status: 'APPROVED', eventAttempts: 1, eventDueAt: null });
  });

  it('decline: the order payment fails and it stays pending', async () => {
    const order = await onlineOrder();
    returnedId(await choose(order, 'DECLINED'), order);
    expect(await staffView(order.id)).toMatchObject({ paymentStatus: 'failed', status: 'pending' });
  });

  it('pending, then approved later from the transaction page: paid; a second decision is refused', async () => {
    const order = await onlineOrder();
    const id = returnedId(await choose(order, 'PENDING'), order);
    expect((await staffView(order.id)).paymentStatus).toBe('pending');
    const page = await openPage(`/pasarela-de-prueba/transacciones/${id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Pendiente');
    expect(page.body).toContain('>Aprobar</button>');
    expect(page.body).toContain('>Rechazar</button>');
    expect(page.body).not.toContain('Dejar pendiente');
    const res = await decideLater(id, 'APPROVED');
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe(`/pasarela-de-prueba/transacciones/${id}`);
    expect(await staffView(order.id)).toMatchObject({ paymentStatus: 'paid', status: 'confirmed' });
    const decided = await openPage(`/pasarela-de-prueba/transacciones/${id}`);
    expect(decided.body).toContain('Aprobada');
    expect(decided.body).not.toContain('>Aprobar</button>');
    expect(decided.body).toContain(`/respuesta-de-pago?pedido=${order.accessToken}&amp;id=${id}`);
    const again = await decideLater(id, 'DECLINED');
    expect(again.statusCode).toBe(409);
    expect((await staffView(order.id)).paymentStatus).toBe('paid');
    expect((await decideLater('no-such-transaction', 'APPROVED')).statusCode).toBe(404);
    expect((await openPage('/pasarela-de-prueba/transacciones/no-such-transaction')).statusCode).toBe(404);
  });

  it('retries an event not answered 200 once 30 minutes of the clock have passed, and not before', async () => {
    const order = await onlineOrder();
    const deliver = sandbox.sendEvent;
    let refused = 0;
    sandbox.sendEvent = async () => {
      refused++;
      return 503;
    };
    let id: string;
    try {
      id = returnedId(await choose(order, 'APPROVED'), order);
    } finally {
      sandbox.sendEvent = deliver;
    }
    expect(refused).toBe(1);
    expect((await staffView(order.id)).paymentStatus).toBe('pending');
    o.t.clock.advance(29 * MINUTE);
    expect(await sandbox.deliverDue()).toBe(0);
    expect((await staffView(order.id)).paymentStatus).toBe('pending');
    o.t.clock.advance(2 * MINUTE);
    expect(await sandbox.deliverDue()).toBe(1);
    expect(await staffView(order.id)).toMatchObject({ paymentStatus: 'paid', status: 'confirmed' });
    expect(await paidEntries(order.id)).toHaveLength(1);
    const [row] = await o.t.db.select().from(paymentSandboxTransactions).where(eq(paymentSandboxTransactions.id, id));
    expect(row).toMatchObject({ eventAttempts: 2, eventDueAt: null });
    // Delivered: nothing more to send, however much later.
    o.t.clock.advance(25 * 60 * MINUTE);
    expect(await sandbox.deliverDue()).toBe(0);
  });

  it('sends a due retry once when two instances run their timers at the same moment', async () => {
    const second = await o.t.secondInstance();
    const other = second.app.paymentSandbox!;
    const deliver = sandbox.sendEvent;
    const sent: string[] = [];
    try {
      sandbox.sendEvent = async () => 503;
      const order = await onlineOrder();
      const id = returnedId(await choose(order, 'APPROVED'), order);
      // Each instance counts what it sends, then sends it as it would.
      sandbox.sendEvent = async (body, checksum) => {
        sent.push(`first:${id}`);
        return deliver(body, checksum);
      };
      const otherDeliver = other.sendEvent;
      other.sendEvent = async (body, checksum) => {
        sent.push(`second:${id}`);
        return otherDeliver(body, checksum);
      };
      o.t.clock.advance(31 * MINUTE);
      const counts = await Promise.all([sandbox.deliverDue(), other.deliverDue()]);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
      expect(sent).toHaveLength(1);
      expect(await staffView(order.id)).toMatchObject({ paymentStatus: 'paid' });
      expect(await paidEntries(order.id)).toHaveLength(1);
    } finally {
      sandbox.sendEvent = deliver;
      await second.close();
    }
  });

  it('gives up after the 24 h retry, as Wompi does', async () => {
    const order = await onlineOrder();
    const deliver = sandbox.sendEvent;
    const sent: number[] = [];
    sandbox.sendEvent = async (body) => {
      sent.push((body as { timestamp: number }).timestamp);
      return 500;
    };
    try {
      const id = returnedId(await choose(order, 'DECLINED'), order);
      for (const minutes of [30, 180, 1440, 1440]) {
        o.t.clock.advance(minutes * MINUTE);
        await sandbox.deliverDue();
      }
      const [row] = await o.t.db.select().from(paymentSandboxTransactions).where(eq(paymentSandboxTransactions.id, id));
      expect(row).toMatchObject({ eventAttempts: 4, eventDueAt: null, eventDeliveredAt: null });
    } finally {
      sandbox.sendEvent = deliver;
    }
    // The same event each time (its timestamp is the decision's).
    expect(sent).toHaveLength(4);
    expect(new Set(sent).size).toBe(1);
  });
});

describe("the sandbox's look-up", () => {
  it("answers a transaction in Wompi's shape, and an unknown id with Wompi's 404, to anyone", async () => {
    const order = await onlineOrder();
    const id = returnedId(await choose(order, 'PENDING'), order);
    const res = await lookUp(id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      data: expect.objectContaining({
        id,
        reference: order.payment.reference,
        amount_in_cents: order.total * 100,
        currency: 'COP',
        status: 'PENDING',
        redirect_url: `http://localhost:0/respuesta-de-pago?pedido=${order.accessToken}`,
        finalized_at: null,
      }),
    });
    const missing = await lookUp('no-such-transaction');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      error: { type: 'NOT_FOUND_ERROR', reason: expect.any(String) },
    });
  });
});

describe('the checkout of a bakery on its own host', () => {
  /** The order's checkout link, signed as the app signs it, going back to `redirectUrl`. */
  const linkBackTo = (order: OnlineOrder, redirectUrl: string) => {
    const url = new URL(
      o.t.app.ctx.payments.checkoutUrl({
        reference: order.payment.reference,
        amountInCents: order.total * 100,
        currency: 'COP',
        redirectUrl,
      }),
    );
    return `${url.pathname}${url.search}`;
  };

  it("goes back to a bakery's slug host or custom domain, never to a host no bakery has", async () => {
    const order = await onlineOrder(4);
    await o.t.db.update(companies).set({ slug: 'panaderia-uno' }).where(eq(companies.id, o.companyId));
    const [row] = await o.t.db.select().from(settings).where(eq(settings.companyId, o.companyId));
    await o.t.db
      .update(settings)
      .set({ data: { ...row!.data, domains: ['pan-uno.example'] } })
      .where(eq(settings.companyId, o.companyId));
    o.t.app.ctx.shops.forget();
    const back = `/respuesta-de-pago?pedido=${encodeURIComponent(order.accessToken)}`;

    for (const origin of ['http://panaderia-uno.localhost:0', 'http://pan-uno.example:0']) {
      const res = await openPage(linkBackTo(order, `${origin}${back}`));
      expect(res.body).not.toContain('Enlace de pago no permitido');
      expect(res.statusCode).toBe(200);
      // The form's redirect goes to the shop: CSP's form-action names its origin.
      expect(String(res.headers['content-security-policy'])).toContain(`form-action 'self' ${origin}`);
    }
    for (const origin of [
      'http://no-existe.localhost:0',
      'http://panaderia-uno.localhost:1',
      'https://panaderia-uno.localhost:0',
      'http://otro.example:0',
      'http://pan-uno.example.evil.example:0',
    ]) {
      const res = await openPage(linkBackTo(order, `${origin}${back}`));
      expect(res.statusCode, origin).toBe(400);
      expect(res.body).toContain('Enlace de pago no permitido');
    }

    // Paying there goes back to the shop's own host, with the transaction id.
    const form = new URLSearchParams(
      new URL(linkBackTo(order, `http://panaderia-uno.localhost:0${back}`), 'http://x').searchParams,
    );
    form.set('decision', 'APPROVED');
    const paid = await o.t.call({
      method: 'POST',
      url: '/pasarela-de-prueba',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
    expect(paid.statusCode, paid.body).toBe(303);
    expect(new URL(String(paid.headers.location)).origin).toBe('http://panaderia-uno.localhost:0');
    expect((await staffView(order.id)).paymentStatus).toBe('paid');
  });
});
