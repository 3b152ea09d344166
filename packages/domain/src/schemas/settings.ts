import { z } from 'zod';
import { DEFAULT_TIME_ZONE, PAYMENT_METHODS } from '../constants';
import { imageRef, money, name, shortText } from './common';
import { email } from '../identity';

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Expected HH:MM');
const isoDay = z.iso.date();

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/**
 * A host name as a browser sends it: lower case, labels of letters, digits and inner hyphens (punycode's
 * `xn--` labels included: that is how a browser sends a non-ASCII name), at least two labels, no port.
 */
const HOST_NAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export const customDomain = z
  .string()
  .trim()
  .toLowerCase()
  .transform((h) => h.replace(/\.$/, ''))
  .refine((h) => HOST_NAME.test(h), {
    message: 'Expected a host name such as tienda.example.com',
    params: { es: 'Escribe un dominio como tienda.ejemplo.com, sin https:// ni barras.' },
  });

export const deliveryWindow = z
  .object({
    id: z.string().min(1).max(40),
    label: z.string().trim().min(1).max(60),
    start: hhmm,
    end: hhmm,
    capacity: z.number().int().min(0).max(10_000).nullable().default(null),
  })
  .strict()
  .refine((w) => w.start < w.end, {
    message: 'start must be before end',
    path: ['end'],
    params: { es: 'La hora de fin debe ser después de la de inicio.' },
  });
export type DeliveryWindow = z.infer<typeof deliveryWindow>;

/**
 * Windows of one day may not overlap (a driver cannot be in two at once, and an order's window must be
 * unambiguous), and their ids are unique (orders name their window by id). Windows that only touch
 * (08:00–11:00 and 11:00–14:00) do not overlap. Each issue carries its Spanish text in `params.es`.
 */
function checkWindows(windows: readonly DeliveryWindow[], ctx: z.RefinementCtx): void {
  const seen = new Map<string, number>();
  windows.forEach((w, i) => {
    if (seen.has(w.id)) {
      ctx.addIssue({
        code: 'custom',
        path: [i, 'id'],
        message: `Window id "${w.id}" is repeated`,
        params: { es: 'Ya hay otro horario con este identificador.' },
      });
    } else seen.set(w.id, i);
    for (let j = 0; j < i; j++) {
      const o = windows[j]!;
      if (w.start >= w.end || o.start >= o.end) continue;
      if (w.start < o.end && o.start < w.end) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'start'],
          message: `Overlaps the window "${o.label}" (${o.start}–${o.end})`,
          params: { es: `Se cruza con «${o.label}» (${o.start} a ${o.end}).` },
        });
        break;
      }
    }
  });
}

export const SettingsInput = z
  .object({
    marketName: name(),
    logo: imageRef().nullable().default(null),
    phone: shortText(40).default(null),
    whatsapp: shortText(40).default(null),
    address: shortText(300).default(null),
    location: z
      .object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) })
      .strict()
      .nullable()
      .default(null),
    timeZone: z.string().refine(isTimeZone, 'Unknown time zone').default(DEFAULT_TIME_ZONE),
    deliveryFee: money().default(0),
    freeDeliveryFrom: money().nullable().default(null),
    minimumOrder: money().default(0),
    orderLeadHours: z.number().int().min(0).max(720).default(24),
    productionLeadDays: z.number().int().min(0).max(30).default(0),
    deliveryDays: z.array(z.number().int().min(0).max(6)).max(7).default([1, 2, 3, 4, 5, 6]),
    deliveryWindows: z.array(deliveryWindow).max(24).superRefine(checkWindows).default([]),
    blackoutDates: z.array(isoDay).max(366).default([]),
    pickupEnabled: z.boolean().default(true),
    paymentMethods: z.array(z.enum(PAYMENT_METHODS)).min(1).max(3).default(['cash', 'transfer']),
    /** Shown on the confirmation of an order paid by transfer (bank, account, holder). */
    transferInstructions: z.string().trim().max(2000).nullable().default(null),
    privacyPolicy: z.string().trim().max(50_000).nullable().default(null),
    targetMargin: z.number().min(0).max(100).default(60),
    /** Custom host names the bakery's storefront also answers at (docs/design.md §4); unique across bakeries. */
    domains: z.array(customDomain).max(10).default([]),
    /** Where the bakery wants new web orders mailed; null: not mailed. Not public. */
    newOrderEmail: email().nullable().default(null),
  })
  .strict();
export type SettingsInput = z.infer<typeof SettingsInput>;
export const Settings = SettingsInput.extend({ companyId: z.string(), updatedAt: z.string() });
export type Settings = z.infer<typeof Settings>;

/** What everyone may read (docs/design.md §4: all but productionLeadDays and targetMargin). */
export const SETTINGS_PRIVATE_FIELDS = ['productionLeadDays', 'targetMargin', 'newOrderEmail'] as const;

/** The most orders one upcoming day holds in a window (orders not cancelled, from the company's today). */
export const WindowBooking = z.object({ windowId: z.string(), date: z.string(), booked: z.number().int() });
export type WindowBooking = z.infer<typeof WindowBooking>;

/**
 * A window whose new capacity is under what is already booked on a day: the save goes through and the
 * booked orders stay (nobody's order is dropped); the window just takes no more until it has room.
 */
export const CapacityWarning = WindowBooking.extend({
  path: z.string(),
  capacity: z.number().int(),
  message: z.string(),
});
export type CapacityWarning = z.infer<typeof CapacityWarning>;
