import { sql } from 'drizzle-orm';
import {
  addDays,
  dayStartInZone,
  daysInRange,
  ORDER_CHANNELS,
  SALES_REPORT_MAX_DAYS,
  SalesReport,
  type OrderChannel,
} from '@hornada/domain';
import type { AppContext } from '../../context';
import type { RequestContext } from '../../request-context';
import { assertDaysWithinYears } from '../../lib/days';
import { AppError } from '../../lib/errors';
import { getCompany } from '../../resources/tenant';
import { reportReader } from './access';

/**
 * How the report splits money by the order's payment status (anything not paid nor refunded is still owed).
 * A refunded order is no sale: the breakdowns read the orders sold only, the refunds are a figure.
 */
const PAY_BUCKET = sql`CASE payment_status WHEN 'paid' THEN 'paid' WHEN 'refunded' THEN 'refunded' ELSE 'unpaid' END`;

/**
 * What a paid order gave back in partial refunds (a wholly refunded order is the `refunded` bucket instead): its
 * sale counts net of them, and they join the refunds figure. A partial refund is of the order, not of a line,
 * so the products' and collections' figures keep the lines as sold.
 */
const PART_REFUNDED = sql`CASE WHEN payment_status = 'paid' AND refunds <> '[]'::jsonb
  THEN (SELECT coalesce(sum((r->>'amount')::bigint), 0) FROM jsonb_array_elements(refunds) r) ELSE 0 END`;

/** `revenue`, `paid` and `unpaid` of a sum over sold rows carrying `pay` (the SQL of one breakdown's money). */
const moneyOf = (amount: string) =>
  sql.raw(
    `'revenue', coalesce(sum(${amount}), 0), ` +
      `'paid', coalesce(sum(${amount}) FILTER (WHERE pay = 'paid'), 0), ` +
      `'unpaid', coalesce(sum(${amount}) FILTER (WHERE pay = 'unpaid'), 0)`,
  );

/**
 * The sales report (docs/design.md §3 reports/sales): the orders not cancelled whose due day, in the
 * company's time zone, lies in the range, summed by PostgreSQL in one statement, so a year of a busy
 * bakery answers in one round trip (`npm run bench:reports`).
 */
export class SalesReportService {
  constructor(private readonly ctx: AppContext) {}

  async sales(rc: RequestContext, from: string, to: string): Promise<SalesReport> {
    const { companyId } = reportReader(rc);
    assertDaysWithinYears({ from, to });
    const days = daysInRange(from, to);
    if (days < 1) {
      throw new AppError(400, 'reports/invalid-range', 'The range starts after it ends: from must be on or before to', [
        { path: 'from', message: 'Must be on or before to' },
      ]);
    }
    if (days > SALES_REPORT_MAX_DAYS) {
      throw new AppError(
        400,
        'reports/range-too-long',
        `The range spans ${days} days: at most ${SALES_REPORT_MAX_DAYS} are read at once`,
        [{ path: 'to', message: `At most ${SALES_REPORT_MAX_DAYS} days after from` }],
      );
    }
    const company = await getCompany(this.ctx, companyId);
    const start = dayStartInZone(from, company.timeZone);
    const end = dayStartInZone(addDays(to, 1), company.timeZone);

    // The range's orders, read twice by the (company, due date) index: once summed into a few groups
    // (day × channel × client × payment), once with their lines summed by product × payment. Every
    // breakdown then reads those small sets, never the orders again; refunded lines are not read at all.
    const inRange = sql`company_id = ${company.id} AND deleted_at IS NULL AND status <> 'cancelled'
      AND due_date >= ${start.toISOString()}::timestamptz AND due_date < ${end.toISOString()}::timestamptz`;
    const result = await this.ctx.db.execute<{ report: Omit<SalesReport, 'from' | 'to'> }>(sql`
      WITH g AS MATERIALIZED (
        -- Grouped by the instant the due day starts (one a day), turned into the day only per group.
        SELECT (due_date AT TIME ZONE ${company.timeZone})::date AS day, channel, b2b_client_id, pay, n, amount, part
          FROM (SELECT due_date, channel, b2b_client_id, ${PAY_BUCKET} AS pay, count(*) AS n,
                       sum(total - ${PART_REFUNDED}) AS amount, sum(${PART_REFUNDED}) AS part
                  FROM orders WHERE ${inRange}
                 GROUP BY 1, 2, 3, 4) x
      ),
      sold AS (SELECT * FROM g WHERE pay <> 'refunded'),
      line AS MATERIALIZED (
        SELECT li."productId" AS product_id, ${PAY_BUCKET} AS pay, max(li.name) AS line_name,
               sum(li.quantity) AS quantity, sum(li."lineTotal") AS amount
          FROM orders
         CROSS JOIN LATERAL jsonb_to_recordset(items) AS li("productId" text, name text, quantity bigint, "lineTotal" bigint)
         WHERE ${inRange} AND payment_status <> 'refunded'
         GROUP BY 1, 2
      ),
      product AS (
        SELECT line.product_id, coalesce(max(p.name), max(line.line_name)) AS name, max(p.collection_id) AS collection_id,
               jsonb_build_object('quantity', sum(line.quantity), ${moneyOf('amount')}) AS money,
               sum(line.amount) AS revenue, sum(line.quantity) AS quantity
          FROM line
          LEFT JOIN products p ON p.id = line.product_id AND p.company_id = ${company.id}
         GROUP BY line.product_id
      ),
      collection_line AS (
        SELECT c.id AS collection_id, c.name AS collection_name, line.pay, line.quantity, line.amount
          FROM line
          LEFT JOIN products p ON p.id = line.product_id AND p.company_id = ${company.id}
          LEFT JOIN product_collections c ON c.id = p.collection_id AND c.company_id = ${company.id}
      )
      SELECT jsonb_build_object(
        'totals', (SELECT jsonb_build_object(
                     'revenue', coalesce(sum(amount) FILTER (WHERE pay <> 'refunded'), 0),
                     'paid', coalesce(sum(amount) FILTER (WHERE pay = 'paid'), 0),
                     'unpaid', coalesce(sum(amount) FILTER (WHERE pay = 'unpaid'), 0),
                     'refunded', coalesce(sum(amount) FILTER (WHERE pay = 'refunded'), 0) + coalesce(sum(part), 0),
                     'refundedOrders', coalesce(sum(n) FILTER (WHERE pay = 'refunded'), 0),
                     'orders', coalesce(sum(n) FILTER (WHERE pay <> 'refunded'), 0)) FROM g),
        'byDay', (SELECT jsonb_agg(jsonb_build_object('date', to_char(d.day, 'YYYY-MM-DD'),
                                    'revenue', coalesce(x.revenue, 0), 'orders', coalesce(x.orders, 0)) ORDER BY d.day)
                    FROM generate_series(${from}::date, ${to}::date, interval '1 day') AS d(day)
                    LEFT JOIN (SELECT day, sum(amount) AS revenue, sum(n) AS orders FROM sold GROUP BY day) x
                      ON x.day = d.day::date),
        'byProduct', (SELECT coalesce(jsonb_agg(jsonb_build_object('productId', product_id, 'name', name)
                                                 || money ORDER BY revenue DESC, quantity DESC, name), '[]')
                        FROM product),
        'byCollection', (SELECT coalesce(jsonb_agg(row ORDER BY (row->>'revenue')::bigint DESC, row->>'name'), '[]')
                           FROM (SELECT jsonb_build_object('collectionId', collection_id,
                                          'name', coalesce(collection_name, 'Sin colección'),
                                          'quantity', sum(quantity), ${moneyOf('amount')}) AS row
                                   FROM collection_line GROUP BY collection_id, collection_name) c),
        'byChannel', (SELECT coalesce(jsonb_agg(jsonb_build_object('channel', channel, 'orders', orders) || money), '[]')
                        FROM (SELECT channel, sum(n) AS orders, jsonb_build_object(${moneyOf('amount')}) AS money
                                FROM sold GROUP BY channel) ch),
        'byB2bClient', (SELECT coalesce(jsonb_agg(row ORDER BY (row->>'revenue')::bigint DESC, row->>'name'), '[]')
                          FROM (SELECT jsonb_build_object('b2bClientId', g.b2b_client_id,
                                         'name', coalesce(max(b.business_name), 'Cliente eliminado'),
                                         'orders', sum(g.n), ${moneyOf('g.amount')}) AS row
                                  FROM sold g LEFT JOIN b2b_clients b ON b.id = g.b2b_client_id AND b.company_id = ${company.id}
                                 WHERE g.b2b_client_id IS NOT NULL GROUP BY g.b2b_client_id) bc)
      ) AS report
    `);
    const report = result.rows[0]!.report;
    // Every channel is listed, zeros included, in the domain's order (a table with a steady shape).
    const channels = new Map(report.byChannel.map((c) => [c.channel, c]));
    const byChannel = ORDER_CHANNELS.map(
      (channel: OrderChannel) => channels.get(channel) ?? { channel, orders: 0, revenue: 0, paid: 0, unpaid: 0 },
    );
    const { revenue, orders } = report.totals;
    return SalesReport.parse({
      ...report,
      from,
      to,
      totals: { ...report.totals, averageTicket: orders === 0 ? 0 : Math.round(revenue / orders) },
      byChannel,
    });
  }
}
