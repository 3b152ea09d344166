import { and, asc, eq, inArray, isNull, ne, notInArray, sql } from 'drizzle-orm';
import { agingBucketOf, dayInZone, unpaidAgeDays, type UnpaidOrder, type UnpaidParty } from '@hornada/domain';
import type { AppContext } from '../../context';
import type { RequestContext } from '../../request-context';
import { b2bClients, orders, users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { asUser } from '../../resources/actor';
import type { ResourceRegistry, ServiceOf } from '../../resources/registry';
import type { WriteScope } from '../../resources/service';
import { getCompany } from '../../resources/tenant';
import { cancelledNotPayable } from '../orders';
import { reportReader } from './access';

/** The most open orders one report reads: far beyond a bakery's receivables, a bound on the answer. */
export const MAX_UNPAID_ORDERS = 10_000;

/** Payment statuses that close a balance: anything else (unpaid, pending, failed) is still owed. */
const SETTLED = ['paid', 'refunded'] as const;

/**
 * The bakery's receivables (docs/design.md §3 reports/unpaid): open balances by who owes them, aged
 * from the due day plus a B2B client's terms, and settling several at once through the orders service.
 */
export class ReceivablesService {
  private readonly orders: ServiceOf<'orders'>;

  constructor(
    private readonly ctx: AppContext,
    private readonly resources: ResourceRegistry,
  ) {
    this.orders = resources.get('orders');
  }

  async unpaid(rc: RequestContext): Promise<UnpaidParty[]> {
    const { companyId } = reportReader(rc);
    const company = await getCompany(this.ctx, companyId);
    const today = dayInZone(rc.now, company.timeZone);
    const rows = await this.ctx.db
      .select({
        id: orders.id,
        number: orders.number,
        dueDate: orders.dueDate,
        total: orders.total,
        status: orders.status,
        paymentStatus: orders.paymentStatus,
        paymentMethod: orders.paymentMethod,
        contact: orders.contact,
        phoneKey: orders.phoneKey,
        customerId: orders.customerId,
        customerName: users.name,
        b2bClientId: orders.b2bClientId,
        businessName: b2bClients.businessName,
        terms: b2bClients.paymentTermsDays,
        creditLimit: b2bClients.creditLimit,
      })
      .from(orders)
      .leftJoin(users, eq(users.id, orders.customerId))
      .leftJoin(b2bClients, eq(b2bClients.id, orders.b2bClientId))
      .where(
        and(
          eq(orders.companyId, company.id),
          isNull(orders.deletedAt),
          ne(orders.status, 'cancelled'),
          notInArray(orders.paymentStatus, [...SETTLED]),
        ),
      )
      .orderBy(asc(orders.dueDate), asc(orders.number))
      .limit(MAX_UNPAID_ORDERS);

    const parties = new Map<string, UnpaidParty>();
    for (const r of rows) {
      const dueDay = dayInZone(r.dueDate, company.timeZone);
      const b2b = r.b2bClientId !== null;
      const terms = b2b ? (r.terms ?? 0) : 0;
      const ageDays = unpaidAgeDays(dueDay, terms, today);
      const party: UnpaidParty['party'] = b2b
        ? { type: 'b2bClient', id: r.b2bClientId!, name: r.businessName ?? r.contact.name, phone: r.contact.phone }
        : r.customerId
          ? { type: 'customer', id: r.customerId, name: r.customerName ?? r.contact.name, phone: r.contact.phone }
          : // A guest has no account: its orders are one party by their phone (the name may be typed differently).
            { type: 'guest', id: r.phoneKey || r.contact.name, name: r.contact.name, phone: r.contact.phone };
      const key = `${party.type}:${party.id}`;
      let entry = parties.get(key);
      if (!entry) {
        entry = {
          party,
          balance: 0,
          orders: 0,
          oldestDueDate: dueDay,
          buckets: { '0-30': 0, '31-60': 0, '61-90': 0, '90+': 0 },
          paymentTermsDays: b2b ? terms : null,
          creditLimit: b2b ? (r.creditLimit ?? 0) : null,
          creditUsed: b2b ? 0 : null,
          unpaidOrders: [],
        };
        parties.set(key, entry);
      }
      const order: UnpaidOrder = {
        id: r.id,
        number: r.number,
        dueDate: dueDay,
        total: r.total,
        status: r.status,
        paymentMethod: r.paymentMethod,
        paymentStatus: r.paymentStatus,
        ageDays,
        bucket: agingBucketOf(ageDays),
      };
      entry.unpaidOrders.push(order);
      entry.orders += 1;
      entry.balance += r.total;
      entry.buckets[order.bucket] += r.total;
      if (entry.creditUsed !== null) entry.creditUsed += r.total;
      if (dueDay < entry.oldestDueDate) entry.oldestDueDate = dueDay;
    }
    return [...parties.values()].sort((a, b) => b.balance - a.balance || a.party.name.localeCompare(b.party.name));
  }

  /**
   * "Marcar como pagado": every order paid in one transaction, or none. Each must be this
   * company's, not cancelled (a 422, the order rules' own `cancelledNotPayable`) and still unpaid (a 409),
   * checked under the rows' locks, so a second submission of the same orders waits for the first and is
   * then refused naming them; the payment move itself
   * is the orders service's (the user as actor, the payment axis, a history entry per order).
   */
  async markPaid(rc: RequestContext, orderIds: string[], within?: WriteScope): Promise<number> {
    const { caller, companyId } = reportReader(rc);
    const actor = asUser(caller);
    const ids = [...new Set(orderIds)];
    // In the caller's transaction when given one (an Idempotency-Key's claim and answer go with it).
    const inTransaction = (work: (scope: WriteScope) => Promise<void>) =>
      within ? work(within) : this.resources.transaction(companyId, work);
    await inTransaction(async (scope) => {
      const locked = await scope.tx
        .select({ id: orders.id, number: orders.number, status: orders.status, paymentStatus: orders.paymentStatus })
        .from(orders)
        .where(and(eq(orders.companyId, companyId), isNull(orders.deletedAt), inArray(orders.id, ids)))
        .orderBy(sql`${orders.id} COLLATE "C"`)
        .for('update');
      const byId = new Map(locked.map((r) => [r.id, r]));
      const missing = ids.find((id) => !byId.has(id));
      if (missing !== undefined) {
        throw new AppError(404, 'not_found', `Order not found: ${missing}`, [
          { path: `orderIds.${orderIds.indexOf(missing)}`, message: 'No order with this id in this bakery' },
        ]);
      }
      // A cancelled one: the orders' own rule, the same 422 a PATCH gets.
      const refused = cancelledNotPayable(
        locked.map((r) => ({ number: r.number, status: r.status, path: `orderIds.${orderIds.indexOf(r.id)}` })),
      );
      if (refused) throw refused;
      const closed = locked.filter((r) => SETTLED.some((s) => s === r.paymentStatus));
      if (closed.length > 0) {
        const names = closed.map((r) => `#${r.number}`).join(', ');
        throw new AppError(
          409,
          'orders/not-unpaid',
          `These orders are not unpaid any more (paid or refunded): ${names}`,
          closed.map((r) => ({ path: `orderIds.${orderIds.indexOf(r.id)}`, message: `#${r.number} is not unpaid` })),
        );
      }
      await this.orders.bulkUpdate(
        actor,
        companyId,
        ids.map((id) => ({ id, data: { paymentStatus: 'paid' } })),
        scope,
      );
    });
    return ids.length;
  }
}
