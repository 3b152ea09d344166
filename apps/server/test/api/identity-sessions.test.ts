/**
 * Sessions end for real: after a password change or a sign-out everywhere, the id tokens issued
 * before are refused on their next request, refresh cookies no longer refresh, and the user's open
 * change streams end. The test clock stands still, so every step happens within one second: the
 * whole-second resolution of `iat` is what is tested.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { identityCalls, json, refreshCookieOf, setupTestApp, type TestApp } from '../helpers/app';
import { openStream, type SseStream } from '../helpers/sse';

const PASSWORD = 'pan-de-bono-tibio';
const NEW_PASSWORD = 'corteza-crujiente';
let t: TestApp;
const streams: SseStream[] = [];

beforeAll(async () => {
  t = await setupTestApp({ listen: true });
});
afterEach(() => {
  for (const s of streams.splice(0)) s.close();
});
afterAll(async () => {
  await t?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const me = (token: string) => t.call({ method: 'GET', url: '/api/me', token });
const refresh = (cookie: string) => t.call({ method: 'POST', url: '/api/identity/refresh', headers: { cookie } });

async function expectRefused(token: string) {
  const res = await me(token);
  expect(res.statusCode).toBe(401);
  expect(json(res)).toMatchObject({ code: 'auth/invalid-token', message: 'Session expired, sign in again' });
}

async function stream(companyId: string, token: string) {
  const s = await openStream(`${t.baseUrl}/api/companies/${companyId}/changes?resources=products`, {
    authorization: `Bearer ${token}`,
  });
  streams.push(s);
  expect(s.status).toBe(200);
  return s;
}

async function expectEnds(s: SseStream) {
  await Promise.race([s.closed, sleep(5000).then(() => Promise.reject(new Error('stream still open')))]);
}

async function session(signIn: ReturnType<typeof identityCalls>['signIn'], email: string, pw = PASSWORD) {
  const res = await signIn(email, pw);
  expect(res.statusCode).toBe(200);
  return { token: json<{ data: { idToken: string } }>(res).data.idToken, cookie: refreshCookieOf(res)! };
}

describe('ending sessions', () => {
  it('refuses the id tokens issued before a password change and ends their streams; the new one works', async () => {
    const calls = identityCalls(t, PASSWORD);
    const { companyId, token: before } = await calls.bakery('clave-nueva@ejemplo.co');
    const other = await session(calls.signIn, 'clave-nueva@ejemplo.co');
    const open = await stream(companyId, before);
    expect((await me(before)).statusCode).toBe(200);

    const changed = await t.call({
      method: 'POST',
      url: '/api/me/password',
      token: before,
      payload: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect(changed.statusCode).toBe(200);
    const fresh = json<{ data: { idToken: string } }>(changed).data.idToken;

    await expectRefused(before);
    await expectRefused(other.token);
    expect((await me(fresh)).statusCode).toBe(200);
    expect((await refresh(other.cookie)).statusCode).toBe(401);
    await expectEnds(open);
    // A stream opened with the new token stays open, and a sign-in with the new password works.
    const reopened = await stream(companyId, fresh);
    const again = await session(calls.signIn, 'clave-nueva@ejemplo.co', NEW_PASSWORD);
    expect((await me(again.token)).statusCode).toBe(200);
    const stillOpen = await Promise.race([reopened.closed.then(() => false), sleep(300).then(() => true)]);
    expect(stillOpen).toBe(true);
  });

  it('signs out everywhere: every earlier id token, refresh cookie and stream of the user ends', async () => {
    const calls = identityCalls(t, PASSWORD);
    const { companyId } = await calls.bakery('todas@ejemplo.co');
    const a = await session(calls.signIn, 'todas@ejemplo.co');
    const b = await session(calls.signIn, 'todas@ejemplo.co');
    const bystander = await calls.bakery('vecina@ejemplo.co');
    const openA = await stream(companyId, a.token);
    const openB = await stream(companyId, b.token);
    const openBystander = await stream(bystander.companyId, bystander.token);

    expect((await t.call({ method: 'DELETE', url: '/api/me/sessions' })).statusCode).toBe(401);
    const out = await t.call({ method: 'DELETE', url: '/api/me/sessions', token: a.token });
    expect(out.statusCode).toBe(200);
    expect(out.headers['cache-control']).toBe('no-store');
    expect(String(out.headers['set-cookie'])).toMatch(/hornada_refresh=;/);

    await expectRefused(a.token);
    await expectRefused(b.token);
    for (const c of [a.cookie, b.cookie]) {
      const res = await refresh(c);
      expect(res.statusCode).toBe(401);
      expect(json(res)).toMatchObject({ code: 'auth/invalid-token' });
    }
    await expectEnds(openA);
    await expectEnds(openB);
    // Another user is untouched.
    expect((await me(bystander.token)).statusCode).toBe(200);
    expect(await Promise.race([openBystander.closed.then(() => false), sleep(300).then(() => true)])).toBe(true);

    // Signing in again, within the same second, gives a working session…
    const c = await session(calls.signIn, 'todas@ejemplo.co');
    expect((await me(c.token)).statusCode).toBe(200);
    expect(json<{ data: { idToken: string } }>(await refresh(c.cookie)).data.idToken).toBeTruthy();
    // …which a second sign-out everywhere, still within that second, ends in turn.
    expect((await t.call({ method: 'DELETE', url: '/api/me/sessions', token: c.token })).statusCode).toBe(200);
    await expectRefused(c.token);
    const d = await session(calls.signIn, 'todas@ejemplo.co');
    expect((await me(d.token)).statusCode).toBe(200);
  });

  it('documents sign-out everywhere in the OpenAPI document', async () => {
    const doc = json<{ paths: Record<string, Record<string, { summary?: string }>> }>(
      await t.call({ method: 'GET', url: '/api/docs/json' }),
    );
    expect(doc.paths['/api/me/sessions']?.delete?.summary).toBe('Sign out everywhere');
  });
});
