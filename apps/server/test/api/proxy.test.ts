import { describe, expect, it } from 'vitest';
import { setupTestApp, type TestApp } from '../helpers/app';

/**
 * TRUST_PROXY: only a listed proxy may say who the client is. The per-address
 * sign-in limit (RATE_LIMIT_SIGNIN_ADDRESS) shows which address a request was counted against.
 */
async function signInStatuses(t: TestApp, from: string, forwardedFor: (i: number) => string, count: number) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await t.call({
      method: 'POST',
      url: '/api/identity/sign-in',
      payload: { email: `nadie${i}@ejemplo.co`, password: 'x-x-x-x-x' },
      remoteAddress: from,
      headers: { 'x-forwarded-for': forwardedFor(i) },
    });
    statuses.push(res.statusCode);
  }
  return statuses;
}

describe('TRUST_PROXY', () => {
  it("counts a listed proxy's forwarded clients apart", async () => {
    const t = await setupTestApp({ env: { TRUST_PROXY: '127.0.0.1', RATE_LIMIT_SIGNIN_ADDRESS: '3' } });
    try {
      // Six clients behind the proxy, one try each: none reaches the limit of 3.
      expect(await signInStatuses(t, '127.0.0.1', (i) => `203.0.113.${i + 1}`, 6)).toEqual([
        401, 401, 401, 401, 401, 401,
      ]);
      // One client behind it: its fourth try is refused, whatever the proxy's own address.
      expect(await signInStatuses(t, '127.0.0.1', () => '198.51.100.7', 4)).toEqual([401, 401, 401, 429]);
    } finally {
      await t.close();
    }
  });

  it('trusts a CIDR range of proxies, and only the hops inside it', async () => {
    const t = await setupTestApp({ env: { TRUST_PROXY: '10.0.0.0/8', RATE_LIMIT_SIGNIN_ADDRESS: '2' } });
    try {
      // Two proxies of the range in a row: the client is the address before them.
      expect(await signInStatuses(t, '10.1.2.3', (i) => `203.0.113.${i + 1}, 10.4.5.6`, 3)).toEqual([401, 401, 401]);
      // A client forging a first hop before its real address: counted at its real (forwarded) address.
      expect(await signInStatuses(t, '10.1.2.3', (i) => `192.0.2.${i + 1}, 198.51.100.9`, 3)).toEqual([401, 401, 429]);
    } finally {
      await t.close();
    }
  });

  it('ignores a forged X-Forwarded-For from a peer that is not a listed proxy', async () => {
    const t = await setupTestApp({ env: { TRUST_PROXY: '10.9.9.9', RATE_LIMIT_SIGNIN_ADDRESS: '3' } });
    try {
      // Every try names another client; all are counted against the peer, 127.0.0.1.
      expect(await signInStatuses(t, '127.0.0.1', (i) => `203.0.113.${i + 1}`, 5)).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await t.close();
    }
  });
});
