import { z } from 'zod';
import { PAYMENT_STATUSES } from './orders';

/**
 * The answers of operations that are neither a resource's record nor a report, and what those operations take:
 * declared by the server's routes (the OpenAPI document) and used by the web, from these same schemas.
 */

/** The statuses of a transaction at the gateway (Wompi's words). */
export const TRANSACTION_STATUSES = ['PENDING', 'APPROVED', 'DECLINED', 'VOIDED', 'ERROR'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** An online order's attempt: the gateway's hosted checkout the browser goes to. */
export const PaymentLink = z.object({ reference: z.string(), checkoutUrl: z.string() });
export type PaymentLink = z.infer<typeof PaymentLink>;

/** The payment-response page's look-up: the order's payment and the transaction's status at the gateway. */
export const PaymentCheck = z.object({
  paymentStatus: z.enum(PAYMENT_STATUSES),
  transactionStatus: z.enum(TRANSACTION_STATUSES).nullable(),
});
export type PaymentCheck = z.infer<typeof PaymentCheck>;
/** The look-up's query: the transaction the gateway sent back (`id`); nothing else of the gateway's is read. */
export const PaymentCheckQuery = z.object({ id: z.string().min(1).max(200).optional() }).strict();
export type PaymentCheckQuery = z.infer<typeof PaymentCheckQuery>;

/** POST /api/payments/events: the gateway's checksum header (the body's own signature carries it too). */
export const PaymentEventHeaders = z.looseObject({ 'x-event-checksum': z.string().max(200).optional() });
export type PaymentEventHeaders = z.infer<typeof PaymentEventHeaders>;
/** Any JSON object: the gateway's driver verifies and reads it (its checksum), not this schema. */
export const PaymentEventBody = z.looseObject({});
export type PaymentEventBody = z.infer<typeof PaymentEventBody>;

/** A driver's stops put in order: their ids in the new order, and how many had no point (they went last). */
export const RouteOrdered = z.object({ orderIds: z.array(z.string()), unplaced: z.number().int().min(0) });
export type RouteOrdered = z.infer<typeof RouteOrdered>;

/** A new verification link: `sent` false when the address was already verified. */
export const VerificationResent = z.object({ sent: z.boolean() });
export type VerificationResent = z.infer<typeof VerificationResent>;

/** A pending invitation sent again: when. */
export const InvitationSent = z.object({ invitedAt: z.string() });
export type InvitationSent = z.infer<typeof InvitationSent>;
/**
 * POST /api/companies/{companyId}/users/{id}/invitation. Unbounded, unlike RecordParams: an id no user has is
 * the service's 404, as it has always been.
 */
export const InvitationParams = z.object({ companyId: z.string(), id: z.string() });
export type InvitationParams = z.infer<typeof InvitationParams>;

/** One item of a new bakery's setup checklist (shops.ts decides which are done). */
export const ChecklistItemSchema = z.object({
  id: z.enum(['logoAndContact', 'delivery', 'product', 'payments']),
  done: z.boolean(),
  required: z.boolean(),
});

/** GET …/setup: the checklist, whether the shop is open, and its address. */
export const ShopSetup = z.object({ items: z.array(ChecklistItemSchema), ready: z.boolean(), shopUrl: z.string() });
export type ShopSetup = z.infer<typeof ShopSetup>;

/** GET …/shop: the bakery's name, its shop's address and logo, as the back office's header shows them. */
export const ShopFace = z.object({
  name: z.string(),
  url: z.string(),
  logo: z.object({ path: z.string() }).nullable(),
});
export type ShopFace = z.infer<typeof ShopFace>;
