/**
 * The change feed delivers: one listening connection per instance, committed changes and nothing of a
 * rolled-back transaction, each subscriber only what it may read (public, staff, restricted readers),
 * and a disabled user's stream ends at once.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids';
import { LISTENER_APPLICATION_NAME } from '../../src/live/feed';
import { RESOURCES } from '../../src/resources/definitions';
import { createVisibility } from '../../src/live/visibility';
import type { TestApp, TestUser } from '../helpers/app';
import { closeListeningApp, eventually, liveCalls, names, setupLiveApp, sleep } from '../helpers/live';
import { changeEvents, openStream, type SseStream } from '../helpers/sse';

let t: TestApp;
let companyId: string;
let admin: TestUser;
let staff: TestUser;
const { streams, api, changesUrl, open, post } = liveCalls(() => ({ t, companyId, admin }));

beforeAll(async () => {
  ({ t, companyId, admin, staff } = await setupLiveApp());
});
// A test that fails half-way must not leave its streams to the next one.
afterEach(() => {
  for (const s of streams.splice(0)) s.close();
});
afterAll(() => closeListeningApp(t));

describe('change feed', () => {
  it('listens on exactly one connection per instance, however many subscribers', async () => {
    const subs = await Promise.all(Array.from({ length: 12 }, () => open('products,brands')));
    subs.push(await open('products', { token: staff.token }));
    expect(subs.every((s) => s.status === 200)).toBe(true);
    const { rows } = await t.db.$client.query<{ byName: number; listening: number }>(
      `SELECT count(*) FILTER (WHERE application_name = $1)::int AS "byName",
              count(*) FILTER (WHERE query ILIKE 'LISTEN %')::int AS listening
         FROM pg_stat_activity WHERE datname = current_database()`,
      [LISTENER_APPLICATION_NAME],
    );
    expect(rows[0]).toEqual({ byName: 1, listening: 1 });
    for (const s of subs) s.close();
  });

  it('delivers a committed change to a subscriber', async () => {
    const s = await open('products', { token: staff.token });
    expect(s.status).toBe(200);
    await post('products', { name: 'Pan en vivo', price: 1000 });
    await s.waitFor((e) => names({ events: e } as SseStream).includes('added:Pan en vivo'));
    const ev = changeEvents(s.events)[0]!;
    expect(Number(ev.id)).toBeGreaterThan(0);
    expect(ev.json).toMatchObject({
      resource: 'products',
      changes: [{ type: 'added', doc: { companyId, price: 1000 } }],
    });
    s.close();
  });

  it('emits nothing for a rolled-back transaction', async () => {
    const s = await open('brands', { token: staff.token });
    await expect(
      t.app.ctx.write(companyId, async (_tx, changes) => {
        changes.add('brands', 'added', { id: 'ghost', name: 'Fantasma' });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    // A duplicate-key failure in the engine rolls back too.
    await post('brands', { name: 'Después' });
    await s.waitFor((e) => changeEvents(e).length >= 1);
    await new Promise((r) => setTimeout(r, 200));
    expect(names(s)).toEqual(['added:Después']);
    s.close();
  });

  it('shows the public only active products, never ingredients; staff sees everything', async () => {
    const anonIngredients = await openStream(changesUrl('ingredients'));
    expect(anonIngredients.status).toBe(401);
    const pub = await open('products,productCollections,brands');
    const priv = await open('products,ingredients', { token: staff.token });
    const visible = await post('products', { name: 'Visible', price: 100 });
    await post('products', { name: 'Oculto', price: 100, active: false });
    await post('ingredients', { name: 'Harina secreta', unit: 'kg' });
    const hide = await t.call({
      method: 'PATCH',
      url: `${api('products')}/${visible.id}`,
      token: admin.token,
      payload: { active: false },
    });
    expect(hide.statusCode).toBe(200);
    await priv.waitFor((e) => changeEvents(e).length >= 4);
    expect(names(priv)).toEqual(['added:Visible', 'added:Oculto', 'added:Harina secreta', 'modified:Visible']);
    await pub.waitFor((e) => changeEvents(e).length >= 2);
    await new Promise((r) => setTimeout(r, 200));
    const pubChanges = changeEvents(pub.events).flatMap((e) => e.json!.changes);
    expect(pubChanges.map((c) => c.type)).toEqual(['added', 'removed']);
    expect(pubChanges[1]!.doc).toEqual({ id: visible.id, companyId });
    expect(JSON.stringify(pub.events)).not.toContain('Oculto');
    expect(JSON.stringify(pub.events)).not.toContain('Harina');
    pub.close();
    priv.close();
  });

  it('validates the stream request like a read', async () => {
    expect((await openStream(changesUrl('nothing'))).status).toBe(400);
    expect((await openStream(`${t.baseUrl}${api('changes')}`)).status).toBe(400);
    const customer = await t.user('company_customer', companyId);
    expect((await openStream(changesUrl('recipes'), { authorization: `Bearer ${customer.token}` })).status).toBe(403);
    const other = await t.company('Otra');
    const otherAdmin = await t.user('company_admin', other);
    expect((await openStream(changesUrl('ingredients'), { authorization: `Bearer ${otherAdmin.token}` })).status).toBe(
      404,
    );
  });

  it('never sends recipes to a public subscriber; staff receives them', async () => {
    expect((await openStream(changesUrl('recipes'))).status).toBe(401);
    const pub = await open('products,productCollections,brands');
    const priv = await open('recipes', { token: staff.token });
    const recipe = await post('recipes', { name: 'Receta secreta', yield: 12 });
    await post('brands', { name: 'Marca tras receta' });
    await priv.waitFor((e) => names({ events: e } as SseStream).includes('added:Receta secreta'));
    await pub.waitFor((e) => names({ events: e } as SseStream).includes('added:Marca tras receta'));
    expect(JSON.stringify(pub.events)).not.toContain('Receta');
    // The one deciding function refuses it too, whatever stream asked.
    const visibility = createVisibility(t.app.ctx.users, RESOURCES);
    const row = { position: 1, companyId, resource: 'recipes', changes: [{ type: 'added' as const, doc: recipe }] };
    const views = visibility.row(row);
    expect(views.of(null)).toBeNull();
    const customer = await t.user('company_customer', companyId);
    const asCaller = async (uid: string) => {
      const caller = await visibility.caller(uid);
      if (caller === 'close') throw new Error(`${uid} may not stream`);
      return caller;
    };
    expect(views.of(await asCaller(customer.uid))).toBeNull();
    expect(views.of(await asCaller(staff.uid))).toEqual(row.changes);
    pub.close();
    priv.close();
  });

  it('sends `removed` to a restricted reader when a record leaves its scope', async () => {
    // Staff read customers only among users (docs/design.md §4).
    const s = await open('users', { token: staff.token });
    const created = await post('users', {
      email: `cliente-${newId().slice(0, 6)}@ejemplo.co`.toLowerCase(),
      password: 'pan-de-bono-tibio',
      name: 'Cliente Ascendido',
      role: 'company_customer',
    });
    await post('users', {
      email: `staff-${newId().slice(0, 6)}@ejemplo.co`.toLowerCase(),
      password: 'pan-de-bono-tibio',
      name: 'Nunca Visible',
      role: 'company_staff',
    });
    const promote = await t.call({
      method: 'PATCH',
      url: `${api('users')}/${created.id}`,
      token: admin.token,
      payload: { role: 'company_staff' },
    });
    expect(promote.statusCode, promote.body).toBe(200);
    await s.waitFor((e) => changeEvents(e).length >= 2);
    await sleep(200);
    const changes = changeEvents(s.events).flatMap((e) => e.json!.changes);
    expect(changes.map((c) => c.type)).toEqual(['added', 'removed']);
    expect(changes[1]!.doc).toEqual({ id: created.id, companyId });
    expect(JSON.stringify(s.events)).not.toContain('Nunca Visible');
    s.close();
  });

  it('closes the open stream of a user who is disabled, at once', async () => {
    const victim = await t.user('company_staff', companyId);
    const s = await open('products', { token: victim.token });
    expect(s.status).toBe(200);
    await eventually(() => s.comments.includes('connected'));
    const res = await t.call({
      method: 'PATCH',
      url: `${api('users')}/${victim.uid}`,
      token: admin.token,
      payload: { disabled: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    // No product event is needed: the change to the user itself ends the stream.
    await Promise.race([s.closed, sleep(2000).then(() => Promise.reject(new Error('stream still open')))]);
  });
});
