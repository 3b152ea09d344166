import { z } from 'zod';
import { addDays, weekdayOf } from './order-days';
import { ORDER_CHANNELS } from './schemas/orders';

/** The longest range the sales report reads (docs/design.md §3): a year, a leap one included. */
export const SALES_REPORT_MAX_DAYS = 366;

/** `?from=YYYY-MM-DD&to=YYYY-MM-DD[&format=csv]`: both days included, in the company's time zone. */
export const SalesReportQuery = z
  .object({
    from: z.iso.date(),
    to: z.iso.date(),
    format: z.enum(['json', 'csv']).default('json'),
    /** The CSV's cell separator; left out, `;` for a Spanish `Accept-Language`, else `,`. */
    separator: z.enum(['semicolon', 'comma']).optional(),
  })
  .strict();
export type SalesReportQuery = z.infer<typeof SalesReportQuery>;

/**
 * What an amount splits into by payment: `paid` and `unpaid` (not paid yet: unpaid, pending or failed);
 * `revenue` is their sum. A refunded order is no sale: it is in none of them, only in `refunded`.
 */
const money = {
  revenue: z
    .number()
    .int()
    .describe('Sales net of refunds: the orders neither cancelled nor refunded, less their partial refunds'),
  paid: z.number().int().describe('Of revenue, the orders paid'),
  unpaid: z.number().int().describe('Of revenue, the orders not paid yet (unpaid, pending, failed)'),
};

export const SalesReport = z.object({
  from: z.string(),
  to: z.string(),
  totals: z.object({
    ...money,
    refunded: z
      .number()
      .int()
      .describe('The orders paid and then refunded, and the partial refunds of the others (not in revenue)'),
    refundedOrders: z.number().int().describe('How many orders were wholly refunded (not in orders)'),
    orders: z.number().int().describe('The orders sold: neither cancelled nor refunded'),
    averageTicket: z.number().int().describe('Revenue over orders, rounded; 0 without orders'),
  }),
  byDay: z
    .array(z.object({ date: z.string(), revenue: z.number().int(), orders: z.number().int() }))
    .describe('Every day of the range, zeros included'),
  byProduct: z
    .array(
      z.object({
        productId: z.string(),
        name: z.string(),
        quantity: z.number().int(),
        ...money,
      }),
    )
    .describe("Line totals (the price each line was sold at: a B2B client's price included), largest first"),
  byCollection: z
    .array(
      z.object({
        collectionId: z.string().nullable().describe('null: products without a collection'),
        name: z.string(),
        quantity: z.number().int(),
        ...money,
      }),
    )
    .describe("Line totals by the product's collection, largest first"),
  byChannel: z.array(z.object({ channel: z.enum(ORDER_CHANNELS), orders: z.number().int(), ...money })),
  byB2bClient: z
    .array(z.object({ b2bClientId: z.string(), name: z.string(), orders: z.number().int(), ...money }))
    .describe('Order totals of B2B clients, largest first'),
});
export type SalesReport = z.infer<typeof SalesReport>;

const dayNumber = (day: string) => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d) / 86_400_000;
};

/** Days from `from` to `to`, both included (0 or less when `to` is before `from`). */
export function daysInRange(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from) + 1;
}

/** The range of the same length just before `from`–`to`: what the report's changes compare against. */
export function previousRange(from: string, to: string): { from: string; to: string } {
  const length = daysInRange(from, to);
  return { from: addDays(from, -length), to: addDays(from, -1) };
}

export const SALES_PRESETS = ['today', 'week', 'month', 'last30', 'lastMonth', 'year'] as const;
export type SalesPreset = (typeof SALES_PRESETS)[number];
export const SALES_PRESET_LABELS: Record<SalesPreset, string> = {
  today: 'Hoy',
  week: 'Esta semana',
  month: 'Este mes',
  last30: 'Últimos 30 días',
  lastMonth: 'El mes pasado',
  year: 'Este año',
};

/** A preset's range on `today` (YYYY-MM-DD in the company's zone); a week starts on Monday, as in Colombia. */
export function presetRange(preset: SalesPreset, today: string): { from: string; to: string } {
  const [y, m] = today.split('-') as [string, string];
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case 'week': {
      const sinceMonday = (weekdayOf(today) + 6) % 7;
      return { from: addDays(today, -sinceMonday), to: today };
    }
    case 'month':
      return { from: `${y}-${m}-01`, to: today };
    case 'last30':
      return { from: addDays(today, -29), to: today };
    case 'lastMonth': {
      const firstOfMonth = `${y}-${m}-01`;
      const end = addDays(firstOfMonth, -1);
      return { from: `${end.slice(0, 7)}-01`, to: end };
    }
    case 'year':
      return { from: `${y}-01-01`, to: today };
  }
}
