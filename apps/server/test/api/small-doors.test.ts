/**
 * Two small doors: the bearer is read for every API route the router matched,
 * however its path was spelled (`/%61pi/…` is `/api/…` to the router); and the redirect kept for
 * after sign-in with Google is a path of this origin after normalisation, never `//host`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeRedirect } from '../../src/modules/identity/google.service';
import { json, setupTestApp, type TestApp } from '../helpers/app';

let t: TestApp;

beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('the bearer check', () => {
  it('reads the bearer on an API route whatever the spelling of its path', async () => {
    const company = await t.company();
    const user = await t.user('company_admin', company);
    for (const url of ['/api/me', '/%61pi/me', '/%61%70%69/me']) {
      const res = await t.call({ method: 'GET', url, token: user.token });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      expect(json<{ data: { uid: string } }>(res).data.uid).toBe(user.uid);
      // A bad bearer is refused as such on every spelling (the client learns to drop it).
      const bad = await t.call({ method: 'GET', url, headers: { authorization: 'Bearer nope' } });
      expect(bad.statusCode).toBe(401);
      expect(json(bad).code).toBe('auth/invalid-token');
    }
  });
});

describe('safeRedirect', () => {
  const base = 'https://panaderia.example';
  it('keeps paths of this origin', () => {
    expect(safeRedirect(base, '/carrito')).toBe('/carrito');
    expect(safeRedirect(base, '/dashboard/orders?status=pending')).toBe('/dashboard/orders?status=pending');
    expect(safeRedirect(base, '/a/../carrito')).toBe('/carrito');
  });
  it.each([
    '//evil.test',
    '/\\evil.test',
    'https://evil.test/',
    '/.//evil.test',
    '/..//evil.test',
    '/a/..//evil.test/x',
    '/%2F/evil.test',
    '/%2f%2fevil.test',
    '/%5Cevil.test',
    '/.%2F/evil.test',
    '/\t/evil.test',
    '/\n/evil.test',
    '',
    undefined,
  ])('refuses %j', (wanted) => {
    expect(safeRedirect(base, wanted)).toBeNull();
  });
});
