import { z } from 'zod';
import { CART_MAX_LINES, CART_MAX_QUANTITY, SESSION_ID_LENGTH } from '../constants';
import { email, personName } from '../identity';
import { productImage } from './catalogue';
import { recordId, shortText } from './common';
import { address } from './users';

/** The header a cart's holder proves itself with (docs/design.md §3): the browser's session id (docs/product.md §4, §9). */
export const SESSION_HEADER = 'x-session-id';
export const SessionId = z
  .string()
  .regex(new RegExp(`^[A-Za-z0-9]{${SESSION_ID_LENGTH}}$`), `Must be ${SESSION_ID_LENGTH} letters or digits`);

/**
 * The holder's header on the cart routes (and any other header). Loose: the other headers pass through untouched
 * (the validated object replaces the server's request headers).
 */
export const SessionHeaders = z.looseObject({ [SESSION_HEADER]: SessionId.optional() });
export type SessionHeaders = z.infer<typeof SessionHeaders>;

/** `/api/carts/{id}/…`: a cart's id. */
export const CartParams = z.object({ id: recordId() });
export type CartParams = z.infer<typeof CartParams>;

export const FULFILLMENTS = ['delivery', 'pickup'] as const;
export type Fulfillment = (typeof FULFILLMENTS)[number];

export const CartItemInput = z
  .object({
    productId: recordId(),
    quantity: z
      .number()
      .int('Must be a whole number')
      .min(1, 'Must be at least 1')
      .max(CART_MAX_QUANTITY, `Must be at most ${CART_MAX_QUANTITY}`),
  })
  .strict();

export const CartContact = z
  .object({
    name: personName(),
    phone: z.string().trim().min(1, 'Required').max(40),
    email: email().nullable().default(null),
  })
  .strict();

/**
 * The writable fields of a cart (docs/design.md §4): its lines and the checkout fields orders will use. A
 * day is `YYYY-MM-DD`, or the instant a GET returned for it (read as the day it falls on in the
 * company's time zone), so a cart read can be sent back as it is.
 */
export const CartInput = z
  .object({
    items: z
      .array(CartItemInput)
      .min(1, 'A cart needs at least one line')
      .max(CART_MAX_LINES, `A cart has at most ${CART_MAX_LINES} lines`),
    contact: CartContact.nullable().default(null),
    fulfillment: z.enum(FULFILLMENTS).default('delivery'),
    address: address.nullable().default(null),
    dueDate: z
      .union([z.iso.date(), z.iso.datetime({ offset: true })])
      .nullable()
      .default(null),
    window: z.string().min(1).max(40).nullable().default(null),
    notes: shortText(1000).default(null),
  })
  .strict();
export type CartInput = z.infer<typeof CartInput>;

/** POST: the same, for the market's company. */
export const CartCreateInput = CartInput.extend({ companyId: recordId() }).strict();
export type CartCreateInput = z.infer<typeof CartCreateInput>;

/** A line as read: filled from the catalogue at every read and write, never from the client. */
export const CartLine = z.object({
  productId: z.string(),
  quantity: z.number().int(),
  /** Null only if the product row is gone altogether. */
  name: z.string().nullable(),
  unitPrice: z.number().int(),
  /** unitPrice × quantity; 0 for an unavailable line, so the lines add up to the subtotal. */
  lineTotal: z.number().int(),
  image: productImage.nullable(),
  /** False when the product became inactive or was deleted since it was added: kept, not counted. */
  available: z.boolean(),
});
export type CartLine = z.infer<typeof CartLine>;

/** The contact as read: plain strings (a response schema may not transform, as the e-mail input does). */
export const ContactRecord = z.object({ name: z.string(), phone: z.string(), email: z.string().nullable() });

export const Cart = z.object({
  id: z.string(),
  companyId: z.string(),
  customerId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  items: z.array(CartLine),
  contact: ContactRecord.nullable(),
  fulfillment: z.enum(FULFILLMENTS),
  address: address.nullable(),
  /** The instant the day starts in the company's time zone (docs/design.md §3). */
  dueDate: z.string().nullable(),
  window: z.string().nullable(),
  notes: z.string().nullable(),
  /** Sum of the available lines. */
  subtotal: z.number().int(),
  /** 0 for pickup, an empty subtotal, or a subtotal at or above the free-delivery amount. */
  deliveryFee: z.number().int(),
  total: z.number().int(),
  minimumOrder: z.number().int(),
  /** How much the subtotal lacks to reach the minimum order (0 when reached). */
  missingForMinimum: z.number().int(),
});
export type Cart = z.infer<typeof Cart>;

/** Fields a GET returns that a write ignores when they come back (docs/design.md §3). */
export const CART_READ_ONLY = [
  'id',
  'customerId',
  'createdAt',
  'updatedAt',
  'deletedAt',
  'subtotal',
  'deliveryFee',
  'total',
  'minimumOrder',
  'missingForMinimum',
] as const;
export const CART_LINE_READ_ONLY = ['name', 'unitPrice', 'lineTotal', 'image', 'available'] as const;

/**
 * "Pedir de nuevo" (docs/design.md §3 carts): one of the signed-in customer's own orders into a cart they hold
 * (`cartId`), or into a new cart of theirs (null).
 */
export const ReorderInput = z.object({ orderId: recordId(), cartId: recordId().nullable().default(null) }).strict();
export type ReorderInput = z.infer<typeof ReorderInput>;

/** The cart afterwards and what was done to it, by product name (packages/domain reorder.ts). */
export const ReorderAnswer = z.object({
  cart: Cart,
  added: z.array(z.string()),
  merged: z.array(z.string()),
  skipped: z.array(z.string()),
  full: z.array(z.string()),
});
export type ReorderAnswer = z.infer<typeof ReorderAnswer>;
