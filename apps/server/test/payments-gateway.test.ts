import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config';
import { createPaymentGateway, paymentKeys } from '../src/providers/payments';
import { EventRejected } from '../src/providers/payments/gateway';
import { eventChecksum, integritySignature, verifyEventChecksum } from '../src/providers/payments/signatures';
import { createWompiGateway } from '../src/providers/payments/wompi';

const EVENTS_SECRET = 'test_events_secret_for_hornada';

/** An event as Wompi sends it (docs/design.md §5), signed with `secret`. */
function event(secret = EVENTS_SECRET, status = 'APPROVED') {
  const data = {
    transaction: {
      id: '1234-1610641025-49201',
      reference: '1042-1-abc',
      amount_in_cents: 4490000,
      currency: 'COP',
      status,
      payment_method_type: 'NEQUI',
    },
  };
  const properties = ['transaction.id', 'transaction.status', 'transaction.amount_in_cents'];
  const timestamp = 1530291411;
  const checksum = eventChecksum({ data, signature: { properties }, timestamp }, secret)!;
  return { event: 'transaction.updated', data, environment: 'test', signature: { properties, checksum }, timestamp };
}

describe('Wompi signatures', () => {
  it("computes the integrity signature of Wompi's documentation", () => {
    expect(
      integritySignature({
        reference: 'sk8-438k4-xmxm392-sn2m',
        amountInCents: 2490000,
        currency: 'COP',
        integritySecret: 'prod_integrity_Z5mMke9x0k8gpErbDqwrJXMqsI6SFli6',
      }),
    ).toBe('37c8407747e595535433ef8f6a811d853cd943046624a0ec04662b17bbf33bf5');
  });

  it('computes the event checksum from the properties in order, the timestamp and the secret', () => {
    // Our own vector: sha256("1234-1610641025-49201" + "APPROVED" + "4490000" + "1530291411" + secret),
    // computed apart with `node -e` (Wompi's printed example does not hash to the value it shows).
    expect(event().signature.checksum).toBe('4dd7e7c1edc6dd976897e5a1c7606604ac2a90d85673641baf9f1f4a34af058c');
  });

  it('verifies in any case and refuses a wrong secret, another value or a property that names nothing', () => {
    const e = event();
    expect(verifyEventChecksum(e, e.signature.checksum.toUpperCase(), EVENTS_SECRET)).toBe(true);
    expect(verifyEventChecksum(e, e.signature.checksum, 'another_secret')).toBe(false);
    expect(
      verifyEventChecksum(event('another_secret'), event('another_secret').signature.checksum, EVENTS_SECRET),
    ).toBe(false);
    const tampered = { ...e, data: { transaction: { ...e.data.transaction, status: 'DECLINED' } } };
    expect(verifyEventChecksum(tampered, e.signature.checksum, EVENTS_SECRET)).toBe(false);
    const missing = { ...e, signature: { ...e.signature, properties: ['transaction.nothing'] } };
    expect(eventChecksum(missing, EVENTS_SECRET)).toBeNull();
    expect(verifyEventChecksum(e, 'not-hex', EVENTS_SECRET)).toBe(false);
  });
});

describe('the Wompi driver', () => {
  const calls: string[] = [];
  const gateway = createWompiGateway({
    name: 'wompi',
    publicKey: 'pub_test_abc',
    integritySecret: 'test_integrity_xyz',
    eventsSecret: EVENTS_SECRET,
    privateKey: 'prv_test_abc',
    apiUrl: 'https://sandbox.wompi.co/v1/',
    checkoutUrl: 'https://checkout.wompi.co/p/',
    fetch: (async (url: string) => {
      calls.push(url);
      if (url.endsWith('/unknown')) return new Response('{}', { status: 404 });
      if (url.endsWith('/broken')) return new Response('oops', { status: 502 });
      const t = event().data.transaction;
      return Response.json({ data: { ...t, id: url.split('/').pop() } });
    }) as typeof fetch,
  });

  it('signs the checkout link with the integrity secret and carries the redirect', () => {
    const url = new URL(
      gateway.checkoutUrl({
        reference: '1042-1-abc',
        amountInCents: 4490000,
        currency: 'COP',
        redirectUrl: 'https://pan.example/respuesta-de-pago?pedido=t.k',
      }),
    );
    expect(url.origin + url.pathname).toBe('https://checkout.wompi.co/p/');
    const q = url.searchParams;
    expect(q.get('public-key')).toBe('pub_test_abc');
    expect(q.get('amount-in-cents')).toBe('4490000');
    expect(q.get('redirect-url')).toBe('https://pan.example/respuesta-de-pago?pedido=t.k');
    expect(q.get('signature:integrity')).toBe(
      integritySignature({
        reference: '1042-1-abc',
        amountInCents: 4490000,
        currency: 'COP',
        integritySecret: 'test_integrity_xyz',
      }),
    );
  });

  it('looks a transaction up at apiUrl/transactions/{id}: null when unknown, an error when the gateway fails', async () => {
    await expect(gateway.lookUp('tx-1')).resolves.toEqual({
      id: 'tx-1',
      reference: '1042-1-abc',
      amountInCents: 4490000,
      currency: 'COP',
      status: 'APPROVED',
    });
    expect(calls[0]).toBe('https://sandbox.wompi.co/v1/transactions/tx-1');
    await expect(gateway.lookUp('unknown')).resolves.toBeNull();
    await expect(gateway.lookUp('broken')).rejects.toThrow(/502/);
  });

  it('verifies an event, and refuses a forged or malformed one', () => {
    const e = event();
    // The documentation's event, judged at its own timestamp.
    const at = new Date(1530291411 * 1000);
    expect(gateway.verifyEvent(e, e.signature.checksum, at)).toEqual({
      kind: 'transaction',
      transaction: {
        id: '1234-1610641025-49201',
        reference: '1042-1-abc',
        amountInCents: 4490000,
        currency: 'COP',
        status: 'APPROVED',
      },
      // Wompi's properties leave out reference and currency: the transaction is asked of the gateway.
      covered: false,
    });
    const forged = event('forger');
    expect(() => gateway.verifyEvent(forged, undefined, at)).toThrow(EventRejected);
    expect(() => gateway.verifyEvent(e, event('forger').signature.checksum, at)).toThrow(/does not verify/);
    const { signature: _s, ...unsigned } = e;
    expect(() => gateway.verifyEvent(unsigned, undefined, at)).toThrow(/signature, data or timestamp missing/);
  });
});

describe('the sandbox gateway', () => {
  it('generates its development keys into DATA_DIR once and signs with them', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'hornada-pay-'));
    try {
      const config = parseConfig({ DATA_DIR: dataDir, PUBLIC_URL: 'http://localhost:3900' });
      const first = await createPaymentGateway(config);
      const file = path.join(dataDir, 'keys', 'payments-sandbox.json');
      const keys = JSON.parse(await readFile(file, 'utf8')) as {
        publicKey: string;
        integritySecret: string;
        privateKey: string;
      };
      expect(keys.publicKey).toMatch(/^pub_test_sandbox_[0-9a-f]{48}$/);
      expect(keys.privateKey).toMatch(/^prv_test_sandbox_[0-9a-f]{48}$/);
      const start = {
        reference: '1001-1-x',
        amountInCents: 1000000,
        currency: 'COP',
        redirectUrl: 'http://localhost:3900/r',
      };
      const url = new URL(first.checkoutUrl(start));
      expect(url.origin + url.pathname).toBe('http://localhost:3900/pasarela-de-prueba');
      expect(url.searchParams.get('signature:integrity')).toBe(
        integritySignature({ ...start, integritySecret: keys.integritySecret }),
      );
      // A second start reads the same keys: links signed before a restart still verify.
      const second = await createPaymentGateway(config);
      expect(second.checkoutUrl(start)).toBe(first.checkoutUrl(start));
      expect(first.name).toBe('sandbox');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('adds a private key to development keys written before it existed, keeping the others', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'hornada-pay-'));
    try {
      const file = path.join(dataDir, 'keys', 'payments-sandbox.json');
      const old = {
        publicKey: 'pub_test_sandbox_old',
        integritySecret: 'test_integrity_old',
        eventsSecret: 'test_events_old',
      };
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, JSON.stringify(old));
      const config = parseConfig({ DATA_DIR: dataDir, PUBLIC_URL: 'http://localhost:3900' });
      const keys = await paymentKeys(config);
      expect(keys).toMatchObject(old);
      expect(keys.privateKey).toMatch(/^prv_test_sandbox_[0-9a-f]{48}$/);
      expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(keys);
      expect(await paymentKeys(config)).toEqual(keys);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
