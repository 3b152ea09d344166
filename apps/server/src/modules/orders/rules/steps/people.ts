import { users } from '../../../../db/schema';
import { assertCustomer, assertDriver, namesOf } from '../lookups';
import { logged, type OrderUpdate, type StepResult } from '../order-update';

/** The customer and the driver an order names must have those roles; a new driver lands in history by name. */
export async function checkPeople(u: OrderUpdate): Promise<StepResult | void> {
  const { db, companyId, current, data } = u;
  if (data.customerId && u.changed('customerId')) await assertCustomer(db, companyId, data.customerId);
  if (!u.changed('deliveryAssistantId')) return;
  if (data.deliveryAssistantId) await assertDriver(db, companyId, data.deliveryAssistantId);
  const from = current.deliveryAssistantId;
  const to = data.deliveryAssistantId ?? null;
  return { log: [logged('deliveryAssistantId', from, to, undefined, await namesOf(db, users, companyId, from, to))] };
}
