import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CompanyParams,
  MARK_PAID_MAX,
  MarkPaidInput,
  SALES_REPORT_MAX_DAYS,
  SalesReport,
  SalesReportQuery,
  UnpaidParty,
} from '@hornada/domain';
import { z } from 'zod';
import { writeLimit } from '../../plugins/rate-limit';
import { replaySafe, writeHeaders } from '../../resources/idempotency';
import { csvSeparatorFor, salesReportCsv } from './sales-csv';
import { noStore } from '../../lib/no-store';

/** The reports of docs/design.md §3 "operations" that this module answers, and the unpaid screen's bulk payment. */
export function registerReportRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = app.modules.receivables;
  const sales = app.modules.sales;

  r.get(
    '/api/companies/:companyId/reports/unpaid',
    {
      onRequest: noStore,
      schema: {
        tags: ['reports'],
        summary: 'Open balances by customer, B2B client or guest, aged',
        description:
          'Unpaid orders (not cancelled, payment not paid nor refunded: unpaid, pending and failed count) grouped by ' +
          'who owes them: a B2B client (`party.type` "b2bClient"), else a customer account ("customer"), else a ' +
          'guest without an account ("guest"), whose orders are grouped by the contact phone (its last ten digits are ' +
          "`party.id`, the name is the latest order's). An order's age (`ageDays`) counts in the company's time zone " +
          "from its due day plus the B2B client's `paymentTermsDays`; one not due yet is in the 0-30 bucket. " +
          '`buckets` sums the totals by age; `creditLimit` (0: none set) and `creditUsed` (its open balance) are a ' +
          "B2B client's, null for others. `unpaidOrders` lists the orders behind the balance, oldest due first (the " +
          'orders list filters `customerId`, `b2bClientId` and `paymentStatus` read the same). Parties by balance, ' +
          'largest first; at most 10,000 orders are read. Admin and staff (`reports:read`).',
        params: CompanyParams,
        response: { 200: z.object({ data: z.array(UnpaidParty) }) },
      },
    },
    async (req) => ({ data: await service.unpaid(req.rc) }),
  );

  r.get(
    '/api/companies/:companyId/reports/sales',
    {
      onRequest: noStore,
      schema: {
        tags: ['reports'],
        summary: 'Sales of a range of days: totals, every day, by product, collection, channel and B2B client',
        description:
          'The orders not cancelled whose due day, in the company time zone, is from `from` to `to` (both included, ' +
          `at most ${SALES_REPORT_MAX_DAYS} days: a longer range is a 400 \`reports/range-too-long\`, a reversed one ` +
          "`reports/invalid-range`; a day outside the years 2000 to 2100 `days/out-of-range`). Revenue is the orders' totals (by product and collection, the lines' totals at " +
          "the price each was sold for, a B2B client's included), split into `paid`, `unpaid` (unpaid, pending, " +
          'failed) and, in the totals, `refunded`. `byDay` lists every day of the range, zeros included; `byChannel` ' +
          'every channel. `format=csv` answers the same as `text/csv` (UTF-8 with a BOM, Spanish headers, money as ' +
          'plain integers, a cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return written with a ' +
          "leading `'`). Its cells are split by `;` with `separator=semicolon` (Excel in Spanish: numbers with a " +
          'decimal comma), by `,` with `separator=comma`; left out, `;` when `Accept-Language` starts with `es`, ' +
          'else `,`. Admin and staff (`reports:read`).',
        params: CompanyParams,
        querystring: SalesReportQuery,
        response: { 200: z.union([z.object({ data: SalesReport }), z.string()]) },
      },
    },
    async (req, reply) => {
      const { from, to, format, separator } = req.query;
      const report = await sales.sales(req.rc, from, to);
      if (format === 'csv') {
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="ventas-${from}-a-${to}.csv"`)
          .header('vary', 'Accept-Language')
          .send(salesReportCsv(report, csvSeparatorFor(separator, req.headers['accept-language'])));
      }
      return { data: report };
    },
  );

  r.post(
    '/api/companies/:companyId/orders/mark-paid',
    {
      config: writeLimit(app).config,
      onRequest: noStore,
      schema: {
        tags: ['orders'],
        summary: 'Mark several orders paid at once (all or nothing)',
        description:
          `"Marcar como pagado" on the unpaid screen: up to ${MARK_PAID_MAX} orders of this company, each not ` +
          'cancelled and not yet paid or refunded, move to paid in one transaction, as the signed-in user (a ' +
          'history entry on each). An id not of this company is a 404 naming it; an order no longer unpaid (a ' +
          'second submission of the same orders included) a 409 `orders/not-unpaid` naming them; a cancelled one a ' +
          '422 `orders/cancelled-not-payable` (as a PATCH to paid gets); an online order ' +
          "(the gateway's to mark) a 422 `orders/invalid-payment`. Nothing is written then. Admin and staff. " +
          'With an `Idempotency-Key` (as resource writes take it) a repeated submission gets the first answer ' +
          'and changes nothing; the same key with other orders is a 409 `idempotency_mismatch`.',
        params: CompanyParams,
        headers: writeHeaders,
        body: MarkPaidInput,
        response: { 200: z.object({ data: z.object({ updated: z.number().int() }) }) },
      },
    },
    async (req, reply) =>
      replaySafe(req, reply, {
        service: app.resources.get('orders'),
        action: 'update',
        companyId: req.params.companyId,
        status: 200,
        write: async (scope) => ({
          updated: await service.markPaid(req.rc, req.body.orderIds, scope),
        }),
      }),
  );
}
