import { z } from 'zod';
import { CART_MAX_LINES } from '../constants';
import { FULFILLMENTS } from './carts';
import { baseRecord, recordId, shortText } from './common';

/** A calendar day, `YYYY-MM-DD`. */
const day = () => z.iso.date();

/**
 * A B2B client's standing order (docs/design.md §3 "operations"): the lines the server orders for it on each chosen
 * weekday from `startsOn` to `endsOn`, but for its skip dates, while active.
 */
export const StandingOrderInput = z
  .object({
    b2bClientId: recordId(),
    weekdays: z
      .array(z.number().int().min(0).max(6))
      .min(1, 'Choose at least one weekday')
      .max(7)
      .refine((w) => new Set(w).size === w.length, 'Each weekday once'),
    items: z
      .array(
        z
          .object({
            productId: recordId(),
            quantity: z.number().int('Must be a whole number').min(1).max(1000),
          })
          .strict(),
      )
      .min(1, 'At least one line')
      .max(CART_MAX_LINES)
      .refine((items) => new Set(items.map((i) => i.productId)).size === items.length, 'Each product once'),
    fulfillment: z.enum(FULFILLMENTS).default('delivery'),
    // Null or left out: the bakery's first window when it has windows (docs/design.md §3).
    window: z.string().min(1).max(40).nullable().default(null),
    notes: shortText(1000).default(null),
    // Left out: the day it is made, in the bakery's time zone (the server's standing-order rules).
    startsOn: day().optional(),
    endsOn: day().nullable().default(null),
    skipDates: z.array(day()).max(366).default([]),
    active: z.boolean().default(true),
  })
  .strict()
  .refine((s) => s.endsOn === null || s.startsOn === undefined || s.endsOn >= s.startsOn, {
    path: ['endsOn'],
    message: 'Must be on or after startsOn',
  });
export type StandingOrderInput = z.infer<typeof StandingOrderInput>;

export const StandingOrder = baseRecord.extend({
  b2bClientId: z.string(),
  weekdays: z.array(z.number().int()),
  items: z.array(z.object({ productId: z.string(), quantity: z.number().int() })),
  fulfillment: z.enum(FULFILLMENTS),
  window: z.string().nullable(),
  notes: z.string().nullable(),
  startsOn: z.string(),
  endsOn: z.string().nullable(),
  skipDates: z.array(z.string()),
  active: z.boolean(),
});
export type StandingOrder = z.infer<typeof StandingOrder>;
