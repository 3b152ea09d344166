/**
 * An order's history names the people a change pointed at (a driver assigned, taken off, replaced), as they
 * were called then, so its line reads "Asignado a Carlos Pérez" rather than an id; and says an address
 * changed in words.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryEntry, Order } from '@hornada/domain';
import { historyLine } from '@hornada/domain/order-history';
import { json } from '../helpers/app';
import { ordersCalls, setupOrdersApp, type OrdersApp } from '../helpers/orders';

let o: OrdersApp;
const { staffOrder, patch, get } = ordersCalls(() => o);
const orderOf = (res: { body: string }) => json<{ data: Order }>(res).data;

const rename = async (uid: string, name: string) => {
  const res = await o.t.call({
    method: 'PATCH',
    url: `/api/companies/${o.companyId}/users/${uid}`,
    token: o.admin.token,
    payload: { name },
  });
  expect(res.statusCode, res.body).toBe(200);
};

beforeAll(async () => {
  o = await setupOrdersApp();
  await rename(o.driver.uid, 'Carlos Pérez');
  await rename(o.otherDriver.uid, 'Ana Gómez');
});
afterAll(async () => {
  await o?.t.close();
});

const lines = (history: readonly HistoryEntry[]) => history.map((h) => historyLine(h, [], 'America/Bogota').what);

describe('history names people', () => {
  it('keeps the names of the drivers an order went from and to, and words the lines with them', async () => {
    const order = await staffOrder();
    const assigned = await patch(order.id, o.staff, { deliveryAssistantId: o.driver.uid });
    expect(assigned.statusCode, assigned.body).toBe(200);
    const moved = await patch(order.id, o.staff, { deliveryAssistantId: o.otherDriver.uid });
    expect(moved.statusCode, moved.body).toBe(200);
    const cleared = await patch(order.id, o.staff, { deliveryAssistantId: null });
    expect(cleared.statusCode, cleared.body).toBe(200);

    const history = orderOf(await get(order.id, o.staff)).history;
    const driverEntries = history.filter((h) => h.field === 'deliveryAssistantId');
    expect(driverEntries.map((h) => h.names)).toEqual([
      { from: null, to: 'Carlos Pérez' },
      { from: 'Carlos Pérez', to: 'Ana Gómez' },
      { from: 'Ana Gómez', to: null },
    ]);
    expect(lines(driverEntries)).toEqual([
      'Asignado a Carlos Pérez',
      'Asignado a Ana Gómez (antes: Carlos Pérez)',
      'Sin domiciliario (antes: Ana Gómez)',
    ]);
    // The name as it was then: a later rename does not rewrite what happened.
    await rename(o.driver.uid, 'Carlos A. Pérez');
    expect(orderOf(await get(order.id, o.staff)).history.find((h) => h.field === 'deliveryAssistantId')?.names).toEqual(
      { from: null, to: 'Carlos Pérez' },
    );
  });

  it('says an address changed, in words, with its new line', async () => {
    const order = await staffOrder();
    const address = { ...order.address!, line: 'Carrera 7 # 45-10' };
    const res = await patch(order.id, o.staff, { address });
    expect(res.statusCode, res.body).toBe(200);
    const history = orderOf(res).history;
    expect(lines(history.filter((h) => h.field === 'address'))).toEqual(['Dirección cambiada: Carrera 7 # 45-10']);
    expect(lines(history).join('\n')).not.toMatch(/cambió → cambió|— → asignado/);
  });
});
