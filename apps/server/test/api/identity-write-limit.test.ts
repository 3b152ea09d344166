/**
 * The identity writes (PATCH /api/me, POST /api/me/password, POST /api/auth/login, DELETE
 * /api/me/sessions) count against the write limit per user, as the resource writes do (docs/design.md §2).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { identityCalls, json, setupTestApp, type TestApp } from '../helpers/app';

const PASSWORD = 'pan-de-bono-tibio';
let t: TestApp;

beforeAll(async () => {
  t = await setupTestApp({ env: { RATE_LIMIT_WRITES: '3' } });
});
afterAll(async () => {
  await t?.close();
});

function expectWriteLimited(res: { statusCode: number; headers: Record<string, unknown>; body: string }) {
  expect(res.statusCode).toBe(429);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  expect(json(res)).toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/^Too many requests/) });
}

it('counts PATCH /api/me, /api/auth/login, /api/me/password and sign-out everywhere as writes', async () => {
  const companyId = await t.company();
  const patchMe = (token: string, name: string) =>
    t.call({ method: 'PATCH', url: '/api/me', token, payload: { name } });

  const a = await t.user('company_admin', companyId);
  for (let i = 0; i < 3; i++) expect((await patchMe(a.token, `Nombre ${i}`)).statusCode).toBe(200);
  expectWriteLimited(await patchMe(a.token, 'Nombre 3'));
  // Another user of the same address is counted apart.
  const b = await t.user('company_staff', companyId);
  expect((await patchMe(b.token, 'Otra')).statusCode).toBe(200);

  const c = await t.user('company_staff', companyId);
  const login = () => t.call({ method: 'POST', url: '/api/auth/login', token: c.token, payload: { email: c.email } });
  for (let i = 0; i < 3; i++) expect((await login()).statusCode).toBe(200);
  expectWriteLimited(await login());

  const { registerAdmin, tokenOf } = identityCalls(t, PASSWORD);
  await registerAdmin('cambia@ejemplo.co');
  const token = await tokenOf('cambia@ejemplo.co');
  const change = (currentPassword: string) =>
    t.call({
      method: 'POST',
      url: '/api/me/password',
      token,
      payload: { currentPassword, newPassword: 'miga-suave-1' },
    });
  for (let i = 0; i < 3; i++) expect((await change(`no-es-${i}`)).statusCode).toBe(400);
  expectWriteLimited(await change(PASSWORD));

  await registerAdmin('sale@ejemplo.co');
  const signOutEverywhere = async () =>
    t.call({ method: 'DELETE', url: '/api/me/sessions', token: await tokenOf('sale@ejemplo.co') });
  for (let i = 0; i < 3; i++) expect((await signOutEverywhere()).statusCode).toBe(200);
  expectWriteLimited(await signOutEverywhere());
});
