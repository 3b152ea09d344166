/**
 * E-mail verification (docs/design.md §1): a single-use link of 30 minutes sent at registration, confirmed once,
 * asked for again by the signed-in user. E-mail delivery: with SMTP_URL the message goes to that server
 * (an smtp-server started here) and not to the outbox.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityCalls, json, setupTestApp, type TestApp } from '../helpers/app';
import { outboxOf, tokenIn, waitForMail } from '../helpers/mail';

const PASSWORD = 'pan-de-bono-tibio';
let t: TestApp;
let root: string;
let calls: ReturnType<typeof identityCalls>;

beforeAll(async () => {
  t = await setupTestApp({ env: { RATE_LIMIT_REGISTER_ADDRESS: '100000' } });
  root = (await t.user('system_admin', null)).token;
  calls = identityCalls(t, PASSWORD);
});
afterAll(async () => {
  await t?.close();
});

const verify = (token: string) => t.call({ method: 'POST', url: '/api/identity/verify-email', payload: { token } });
const me = async (token: string) =>
  json<{ data: { emailVerified: boolean } }>(await t.call({ method: 'GET', url: '/api/me', token })).data;

describe('e-mail verification', () => {
  it('sends a link at registration that verifies the e-mail once', async () => {
    const email = 'nueva@prueba.test';
    expect((await calls.registerAdmin(email)).statusCode).toBe(201);
    const mail = await waitForMail(t, root, email, /^Confirma tu correo/);
    expect(mail.text).toContain('Confirmar correo: http://localhost:0/verificar-correo?token=');
    const token = await calls.tokenOf(email);
    expect((await me(token)).emailVerified).toBe(false);

    const link = tokenIn(mail.text, '/verificar-correo');
    const ok = await verify(link);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(json(ok).data).toEqual({ email, emailVerified: true });
    expect((await me(token)).emailVerified).toBe(true);
    expect(json(await verify(link)).code).toBe('auth/invalid-action-code');
    // A reset link is not a verification link, nor the other way round.
    expect(
      json(
        await t.call({
          method: 'POST',
          url: '/api/identity/password-reset/confirm',
          payload: { token: link, password: 'otra-clave-larga' },
        }),
      ).code,
    ).toBe('auth/invalid-action-code');
    // Already verified: nothing more is sent.
    const again = await t.call({ method: 'POST', url: '/api/identity/verify-email/resend', token });
    expect(json(again).data).toEqual({ sent: false });
  });

  it('sends a new link on request; the link expires after 30 minutes', async () => {
    const email = 'reenvio@prueba.test';
    await calls.registerAdmin(email);
    const seen = new Set<string>();
    await waitForMail(t, root, email, /^Confirma tu correo/, seen);
    const token = await calls.tokenOf(email);
    expect((await t.call({ method: 'POST', url: '/api/identity/verify-email/resend' })).statusCode).toBe(401);
    const res = await t.call({ method: 'POST', url: '/api/identity/verify-email/resend', token });
    expect(json(res).data).toEqual({ sent: true });
    const second = await waitForMail(t, root, email, /^Confirma tu correo/, seen);
    t.clock.advance(31 * 60_000);
    const late = await verify(tokenIn(second.text, '/verificar-correo'));
    expect(json(late).code).toBe('auth/expired-action-code');
    expect((await me(await calls.tokenOf(email))).emailVerified).toBe(false);
  });
});

describe('e-mail over SMTP', () => {
  it('hands the message to SMTP_URL and keeps nothing in the outbox', async () => {
    const received: { to: string; raw: string }[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, done) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), raw });
          done();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    const mailed = await setupTestApp({
      env: { SMTP_URL: `smtp://127.0.0.1:${port}`, EMAIL_FROM: 'pedidos@panaderia.example' },
    });
    try {
      const admin = (await mailed.user('system_admin', null)).token;
      const reg = await identityCalls(mailed, PASSWORD).registerAdmin('smtp@prueba.test');
      expect(reg.statusCode).toBe(201);
      for (let i = 0; i < 100 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(received).toHaveLength(1);
      expect(received[0]!.to).toBe('smtp@prueba.test');
      expect(received[0]!.raw).toMatch(/^From: .*<pedidos@panaderia\.example>/m);
      expect(received[0]!.raw).toContain('Content-Type: text/html');
      expect(received[0]!.raw).toContain('Content-Type: text/plain');
      // Quoted-printable: soft line breaks undone.
      expect(received[0]!.raw.replace(/=\r?\n/g, '')).toContain('/verificar-correo?token');
      expect(await outboxOf(mailed, admin)).toEqual([]);
    } finally {
      await mailed.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });
});
