import { describe, expect, it } from 'vitest';
import {
  createMemoryLocks,
  decodeJwtPayload,
  isTokenFresh,
  MIN_REFRESH_DELAY_MS,
  REFRESH_MARGIN_MS,
  refreshDelayMs,
  serverOffsetMs,
} from './token-refresh';

const jwt = (payload: unknown) =>
  ['eyJhbGciOiJFZERTQSJ9', Buffer.from(JSON.stringify(payload)).toString('base64url'), 'sig'].join('.');

const NOW = 1_800_000_000_000;
const tokenFor = (secondsLeft: number) => jwt({ sub: 'u1', exp: NOW / 1000 + secondsLeft });

describe('decodeJwtPayload', () => {
  it('reads base64url claims, UTF-8 included', () => {
    // 'ñ' and '~' give '-' and '_' in base64url, which plain atob rejects.
    const token = jwt({ sub: 'u1', email: 'peña~?@example.com', role: 'company_admin', companyId: null, exp: 2 });
    expect(token.split('.')[1]).toMatch(/[-_]/);
    expect(decodeJwtPayload(token)).toEqual({
      sub: 'u1',
      email: 'peña~?@example.com',
      role: 'company_admin',
      companyId: null,
      exp: 2,
    });
  });

  it('is null for what is not a JWT', () => {
    for (const bad of ['', 'abc', 'a.b', 'a.%%%.c', `a.${Buffer.from('[1]').toString('base64url')}.c`]) {
      expect(decodeJwtPayload(bad)).toBeNull();
    }
  });
});

describe('expiry', () => {
  it('a token is fresh only with more than the margin left', () => {
    expect(isTokenFresh(tokenFor(3600), NOW)).toBe(true);
    expect(isTokenFresh(tokenFor(REFRESH_MARGIN_MS / 1000 + 1), NOW)).toBe(true);
    expect(isTokenFresh(tokenFor(REFRESH_MARGIN_MS / 1000), NOW)).toBe(false);
    expect(isTokenFresh(tokenFor(-5), NOW)).toBe(false);
    expect(isTokenFresh(jwt({ sub: 'u1' }), NOW)).toBe(false);
    expect(isTokenFresh(null, NOW)).toBe(false);
  });

  it('schedules the refresh ~60 s before expiry, never sooner than the floor', () => {
    expect(refreshDelayMs(tokenFor(3600), NOW)).toBe(3600_000 - REFRESH_MARGIN_MS);
    expect(refreshDelayMs(tokenFor(30), NOW)).toBe(MIN_REFRESH_DELAY_MS);
  });

  it('corrects a wrong device clock with the offset learnt from expiresIn', () => {
    const token = tokenFor(3600);
    const deviceNow = NOW + 2 * 3600_000; // the device runs two hours fast
    const offset = serverOffsetMs(token, 3600, deviceNow);
    expect(isTokenFresh(token, deviceNow)).toBe(false);
    expect(isTokenFresh(token, deviceNow, offset)).toBe(true);
    expect(refreshDelayMs(token, deviceNow, offset)).toBe(3600_000 - REFRESH_MARGIN_MS);
  });
});

describe('createMemoryLocks', () => {
  it('grants one holder at a time, in request order, and releases on failure', async () => {
    const locks = createMemoryLocks();
    const log: string[] = [];
    const hold = (name: string, ms: number, fail = false) =>
      locks.request('l', async () => {
        log.push(`${name}+`);
        await new Promise((resolve) => setTimeout(resolve, ms));
        log.push(`${name}-`);
        if (fail) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([hold('a', 30, true), hold('b', 5), hold('c', 1)]);
    expect(log).toEqual(['a+', 'a-', 'b+', 'b-', 'c+', 'c-']);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    // Other names do not wait.
    const other = createMemoryLocks();
    const order: string[] = [];
    await Promise.all([
      other.request('x', () => new Promise((r) => setTimeout(() => r(order.push('x')), 20))),
      other.request('y', async () => order.push('y')),
    ]);
    expect(order).toEqual(['y', 'x']);
  });
});
