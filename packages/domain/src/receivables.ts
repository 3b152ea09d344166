import { z } from 'zod';

/** The age buckets of an open balance (docs/design.md §3 reports/unpaid), in days past the day it fell due. */
export const AGING_BUCKETS = ['0-30', '31-60', '61-90', '90+'] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];

const dayNumber = (day: string) => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d) / 86_400_000;
};

/**
 * Days an unpaid order is past due on `today`: from its due day plus the B2B client's payment terms
 * (0 for anyone else). Negative while it is not due yet.
 */
export function unpaidAgeDays(dueDay: string, termsDays: number, today: string): number {
  return dayNumber(today) - dayNumber(dueDay) - termsDays;
}

/** The bucket of an age: an order not due yet counts with the current ones (0-30). */
export function agingBucketOf(ageDays: number): AgingBucket {
  if (ageDays <= 30) return '0-30';
  if (ageDays <= 60) return '31-60';
  if (ageDays <= 90) return '61-90';
  return '90+';
}

/** Who owes: a customer account, a B2B client, or a guest known only by the order's contact phone. */
export const UNPAID_PARTY_TYPES = ['customer', 'b2bClient', 'guest'] as const;

export const UnpaidOrder = z.object({
  id: z.string(),
  number: z.number().int(),
  dueDate: z.string().describe('The due day, YYYY-MM-DD in the company time zone'),
  total: z.number().int(),
  paymentMethod: z.string(),
  paymentStatus: z.string(),
  status: z.string(),
  ageDays: z.number().int().describe('Days past the due day plus the payment terms; negative while not due'),
  bucket: z.enum(AGING_BUCKETS),
});
export type UnpaidOrder = z.infer<typeof UnpaidOrder>;

export const UnpaidParty = z.object({
  party: z.object({
    type: z.enum(UNPAID_PARTY_TYPES),
    id: z.string().describe("The user's or B2B client's id; for a guest the last ten digits of the phone"),
    name: z.string(),
    phone: z.string().nullable(),
  }),
  balance: z.number().int(),
  orders: z.number().int().describe('How many unpaid orders'),
  oldestDueDate: z.string(),
  buckets: z.object({ '0-30': z.number(), '31-60': z.number(), '61-90': z.number(), '90+': z.number() }),
  paymentTermsDays: z.number().int().nullable().describe('A B2B client only'),
  creditLimit: z.number().int().nullable().describe('A B2B client only (0: none set)'),
  creditUsed: z.number().int().nullable().describe("A B2B client only: its balance, what the limit's use is"),
  unpaidOrders: z.array(UnpaidOrder).describe('The orders behind the balance, oldest due first'),
});
export type UnpaidParty = z.infer<typeof UnpaidParty>;

/** The most orders one "Marcar como pagado" settles. */
export const MARK_PAID_MAX = 200;

export const MarkPaidInput = z
  .object({ orderIds: z.array(z.string().min(1).max(64)).min(1).max(MARK_PAID_MAX) })
  .strict();
