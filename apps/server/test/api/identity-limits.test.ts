/**
 * Brute-force limits of sign-in, registration and password change (docs/design.md §2), sequential and in
 * parallel, and the pruning of what they and the sessions leave behind. Time comes from the test clock.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authAttempts, refreshTokens } from '../../src/db/schema';
import { prepareDummyHash } from '../../src/lib/passwords';
import { identityCalls, json, refreshCookieOf, setupTestApp, type TestApp } from '../helpers/app';

const PASSWORD = 'pan-de-bono-tibio';
let t: TestApp;

beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(async () => {
  await t?.close();
});

const statusCounts = (list: { statusCode: number }[]) =>
  list.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.statusCode]: (acc[r.statusCode] ?? 0) + 1 }), {});

function expectRetryAfter(res: { statusCode: number; headers: Record<string, unknown>; body: string }) {
  expect(res.statusCode).toBe(429);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  expect(json(res)).toMatchObject({ code: 'rate_limited' });
}

describe('sign-in limits', () => {
  it('slows an account after 10 failures, even across forged X-Forwarded-For, and lets the owner in after the window', async () => {
    const { signIn, registerAdmin } = identityCalls(t, PASSWORD);
    await registerAdmin('victima@ejemplo.co');
    const statuses: number[] = [];
    let retryAfter = '';
    for (let i = 0; i < 40; i++) {
      const res = await signIn('victima@ejemplo.co', `wrong-${i}`, { 'x-forwarded-for': `203.0.113.${i}` });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) retryAfter = String(res.headers['retry-after']);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    // Limited: even the right password waits.
    expect((await signIn('victima@ejemplo.co')).statusCode).toBe(429);
    t.clock.advance(16 * 60_000);
    try {
      expect((await signIn('victima@ejemplo.co')).statusCode).toBe(200);
    } finally {
      t.clock.advance(-16 * 60_000);
    }
  });

  it('lets no more than the limit through when 40 wrong passwords arrive at once', async () => {
    const { signIn, registerAdmin } = identityCalls(t, PASSWORD);
    await registerAdmin('paralelo@ejemplo.co');
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => signIn('paralelo@ejemplo.co', `wrong-parallel-${i}`)),
    );
    // Each one evaluated is a 401; the limit is 10 failures an account.
    expect(statusCounts(results)).toEqual({ 401: 10, 429: 30 });
    for (const r of results.filter((x) => x.statusCode === 429)) expectRetryAfter(r);
    const failures = await t.db
      .select()
      .from(authAttempts)
      .where(eq(authAttempts.key, 'signin-email:paralelo@ejemplo.co'));
    expect(failures).toHaveLength(10);
    expectRetryAfter(await signIn('paralelo@ejemplo.co'));
  });

  it('limits an address across accounts', async () => {
    const few = await setupTestApp({ env: { RATE_LIMIT_SIGNIN_ADDRESS: '5' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        const res = await few.call({
          method: 'POST',
          url: '/api/identity/sign-in',
          payload: { email: `n${i}@ejemplo.co`, password: 'x-x-x-x-x' },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
      // In parallel too: once limited, nothing more goes through.
      const burst = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          few.call({
            method: 'POST',
            url: '/api/identity/sign-in',
            payload: { email: `m${i}@ejemplo.co`, password: 'x-x-x-x-x' },
          }),
        ),
      );
      expect(statusCounts(burst)).toEqual({ 429: 10 });
    } finally {
      await few.close();
    }
  });

  it('counts wrong current passwords at a password change against the same account limit', async () => {
    const { signIn, registerAdmin, tokenOf } = identityCalls(t, PASSWORD);
    await registerAdmin('adivina@ejemplo.co');
    const token = await tokenOf('adivina@ejemplo.co');
    const change = (currentPassword: string) =>
      t.call({
        method: 'POST',
        url: '/api/me/password',
        token,
        payload: { currentPassword, newPassword: 'corteza-crujiente' },
      });
    const guesses = await Promise.all(Array.from({ length: 25 }, (_, i) => change(`guess-${i}`)));
    expect(statusCounts(guesses)).toEqual({ 400: 10, 429: 15 });
    for (const r of guesses.filter((x) => x.statusCode === 429)) expectRetryAfter(r);
    // Limited: the right one waits too, and so does sign-in (one limiter per account).
    expectRetryAfter(await change(PASSWORD));
    expectRetryAfter(await signIn('adivina@ejemplo.co'));
    t.clock.advance(16 * 60_000);
    try {
      const ok = await change(PASSWORD);
      expect(ok.statusCode, ok.body).toBe(200);
    } finally {
      t.clock.advance(-16 * 60_000);
    }
  });
});

describe('registration limits', () => {
  it('answers 429 with Retry-After past RATE_LIMIT_REGISTER_ADDRESS, in parallel too, until the hour passes', async () => {
    const few = await setupTestApp({ env: { RATE_LIMIT_REGISTER_ADDRESS: '3' } });
    try {
      const { registerAdmin } = identityCalls(few, PASSWORD);
      const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => registerAdmin(`r${i}@ejemplo.co`)));
      expect(statusCounts(burst)).toEqual({ 201: 3, 429: 7 });
      for (const r of burst.filter((x) => x.statusCode === 429)) expectRetryAfter(r);
      const retry = Number(burst.find((r) => r.statusCode === 429)!.headers['retry-after']);
      expect(retry).toBeGreaterThan(3500);
      expect(retry).toBeLessThanOrEqual(3600);
      expectRetryAfter(await registerAdmin('tarde@ejemplo.co'));
      few.clock.advance(61 * 60_000);
      expect((await registerAdmin('tarde@ejemplo.co')).statusCode).toBe(201);
    } finally {
      await few.close();
    }
  });
});

describe('housekeeping', () => {
  it('has the dummy hash ready when the app is', async () => {
    let settled = false;
    void prepareDummyHash().then(() => {
      settled = true;
    });
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(true);
  });

  it('prunes attempt rows past every window and expired or revoked refresh tokens', async () => {
    const own = await setupTestApp();
    try {
      const { signIn, registerAdmin } = identityCalls(own, PASSWORD);
      const service = own.app.modules.identity;
      await registerAdmin('poda@ejemplo.co');
      for (let i = 0; i < 3; i++) expect((await signIn('poda@ejemplo.co', `wrong-${i}`)).statusCode).toBe(401);
      const live = refreshCookieOf(await signIn('poda@ejemplo.co'))!;
      const gone = refreshCookieOf(await signIn('poda@ejemplo.co'))!;
      await own.call({ method: 'POST', url: '/api/identity/sign-out', headers: { cookie: gone } });
      // Rotating `live` leaves a spent token, which must stay: it is what detects reuse.
      const rotated = await own.call({ method: 'POST', url: '/api/identity/refresh', headers: { cookie: live } });
      expect(rotated.statusCode).toBe(200);
      const tokens = () => own.db.select().from(refreshTokens);
      const attempts = () => own.db.select().from(authAttempts);
      expect(await tokens()).toHaveLength(3);
      expect((await attempts()).length).toBeGreaterThan(0);

      // Now: only the signed-out family goes; every attempt is inside its window.
      expect(await service.prune()).toEqual({ attempts: 0, refreshTokens: 1 });
      expect((await tokens()).every((r) => r.revokedAt === null)).toBe(true);
      // The spent one still revokes its family when reused.
      const reuse = await own.call({ method: 'POST', url: '/api/identity/refresh', headers: { cookie: live } });
      expect(reuse.statusCode).toBe(401);
      expect(await service.prune()).toEqual({ attempts: 0, refreshTokens: 2 });

      // After an hour (the longest window) the attempts go.
      const fresh = refreshCookieOf(await signIn('poda@ejemplo.co'))!;
      const before = (await attempts()).length;
      own.clock.advance(61 * 60_000);
      expect(await service.prune()).toEqual({ attempts: before, refreshTokens: 0 });
      expect(await attempts()).toHaveLength(0);
      // After 30 days the live token has expired and goes too.
      own.clock.advance(30 * 86_400_000);
      expect(await service.prune()).toEqual({ attempts: 0, refreshTokens: 1 });
      expect(await tokens()).toHaveLength(0);
      const late = await own.call({ method: 'POST', url: '/api/identity/refresh', headers: { cookie: fresh } });
      expect(late.statusCode).toBe(401);
    } finally {
      await own.close();
    }
  });
});
