/**
 * The outbox (give-up point 3): without SMTP_URL a system admin reads the mail kept instead of sent,
 * newest first, a page at a time, searched by address; nobody else reads it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxPage } from '@hornada/domain/outbox';
import { identityCalls, json, setupTestApp, TestClock, type TestApp } from '../helpers/app';
import { waitForMail } from '../helpers/mail';

const PASSWORD = 'arepa-de-choclo-tibia';
let t: TestApp;
let root: string;

const outbox = (query: string, token?: string) =>
  t.call({ method: 'GET', url: `/api/outbox${query}`, ...(token ? { token } : {}) });
const pageOf = async (query: string) => {
  const res = await outbox(query, root);
  expect(res.statusCode, res.body).toBe(200);
  return json<OutboxPage>(res);
};

beforeAll(async () => {
  const clock = new TestClock();
  t = await setupTestApp({ clock, env: { RATE_LIMIT_REGISTER_ADDRESS: '100000' } });
  root = (await t.user('system_admin', null)).token;
  const calls = identityCalls(t, PASSWORD);
  // Three owners sign up: each gets a verification mail in the outbox.
  for (const email of ['marta@horno.co', 'MARTA.lopez@pan.co', 'julian_50@pan.co']) {
    expect((await calls.registerAdmin(email)).statusCode).toBe(201);
    await waitForMail(t, root, email.toLowerCase(), /^Confirma tu correo/);
    clock.advance(60_000);
  }
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/outbox', () => {
  it('searches by address, whatever the case, with % and _ read literally', async () => {
    const marta = await pageOf('?q=MARTA');
    expect(marta.data.map((m) => m.to).sort()).toEqual(['marta.lopez@pan.co', 'marta@horno.co']);
    expect(marta.total).toBe(2);
    expect((await pageOf('?q=pan.co')).data.map((m) => m.to).sort()).toEqual([
      'julian_50@pan.co',
      'marta.lopez@pan.co',
    ]);
    expect((await pageOf('?q=_')).data.map((m) => m.to)).toEqual(['julian_50@pan.co']);
    // As wildcards, "marta_" would find "marta.lopez" and "%" everything.
    expect((await pageOf('?q=marta_')).total).toBe(0);
    expect((await pageOf('?q=%25')).total).toBe(0);
    expect((await pageOf('?q=nadie')).data).toEqual([]);
    // Blank is no search.
    expect((await pageOf('?q=%20')).total).toBe(3);
  });

  it('pages newest first with what each mail says and when', async () => {
    const first = await pageOf('?per_page=2');
    expect(first).toMatchObject({ total: 3, page: 1, perPage: 2 });
    expect(first.data).toHaveLength(2);
    const second = await pageOf('?per_page=2&page=2');
    expect(second.data).toHaveLength(1);
    const all = [...first.data, ...second.data];
    expect(all[0]!.to).toBe('julian_50@pan.co');
    const times = all.map((m) => Date.parse(m.createdAt));
    expect(times.every((x) => Number.isFinite(x))).toBe(true);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(all[0]!.text).toMatch(/\/verificar-correo\?token=/);
    expect(new Set(all.map((m) => m.id)).size).toBe(3);
  });

  it('refuses a query it does not know and a search past an address’s length', async () => {
    expect((await outbox('?search=marta', root)).statusCode).toBe(400);
    expect((await outbox(`?q=${'a'.repeat(255)}`, root)).statusCode).toBe(400);
  });

  it('is the system admin’s alone: 401 without a session, 403 for every company role', async () => {
    expect((await outbox('?q=marta')).statusCode).toBe(401);
    const companyId = await t.company('Horno del Outbox');
    for (const role of [
      'company_admin',
      'company_staff',
      'company_customer',
      'delivery_assistant',
      'production_assistant',
    ] as const) {
      const user = await t.user(role, companyId);
      const res = await outbox('?q=marta', user.token);
      expect(res.statusCode, `${role}: ${res.body}`).toBe(403);
      expect(res.body).not.toContain('marta');
    }
  });
});
