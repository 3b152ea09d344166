/**
 * New and changed orders on the change stream (docs/design.md §3): the back office sees a guest's web order
 * within a second, a driver only the orders assigned to it, a customer only its own, a guest none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStream, type SseStream } from '../helpers/sse';
import { ordersCalls, setupOrdersApp, type OrdersApp } from '../helpers/orders';

let o: OrdersApp;
const { webOrder, staffOrder, patch } = ordersCalls(() => o);
const streams: SseStream[] = [];

beforeAll(async () => {
  o = await setupOrdersApp({ listen: true });
});
afterAll(async () => {
  for (const s of streams) s.close();
  await o?.t.close();
});

async function stream(token?: string) {
  const s = await openStream(
    `${o.t.baseUrl}/api/companies/${o.companyId}/changes?resources=orders`,
    token ? { authorization: `Bearer ${token}` } : {},
  );
  streams.push(s);
  return s;
}

const ids = (s: SseStream) =>
  s.events.flatMap((e) => e.json?.changes.filter((c) => c.type !== 'removed').map((c) => c.doc.id as string) ?? []);

describe('orders on the change stream', () => {
  // What reaches whom, not how fast: commit-to-delivery latency is bench:live's (bench/live.mjs).
  it('brings a web order to staff, and to nobody who may not read it', async () => {
    const staff = await stream(o.staff.token);
    const driver = await stream(o.driver.token);
    const customer = await stream(o.customer.token);
    const guest = await stream();
    expect(guest.status).toBe(401);
    const order = await webOrder(4);
    await staff.waitFor((events) => ids({ events } as SseStream).includes(order.id), 10_000);
    const added = staff.events.flatMap((e) => e.json?.changes ?? []).find((c) => c.doc.id === order.id)!;
    expect(added).toMatchObject({ type: 'added', doc: { number: order.number, status: 'pending' } });
    expect(added.doc).not.toHaveProperty('idempotencyKey');

    // Assigned to the driver and made the customer's: each then sees it, and only then.
    const theirs = await staffOrder({ customerId: o.customer.uid });
    await patch(order.id, o.staff, { deliveryAssistantId: o.driver.uid });
    await driver.waitFor((events) => ids({ events } as SseStream).includes(order.id), 2000);
    await customer.waitFor((events) => ids({ events } as SseStream).includes(theirs.id), 2000);
    expect(ids(driver)).not.toContain(theirs.id);
    expect(ids(customer)).not.toContain(order.id);
  });
});
