import { z } from 'zod';

/** GET /api/outbox's query: a page, newest first, optionally of the mails whose address contains `q`. */
export const OutboxQuery = z
  .object({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    per_page: z.coerce.number().int().min(1).max(100).default(20),
    q: z.string().trim().max(254).optional(),
  })
  .strict();
export type OutboxQuery = z.infer<typeof OutboxQuery>;

/** A mail kept instead of sent (no SMTP_URL): what a system admin reads to pass its links on. */
export const OutboxMail = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  createdAt: z.string(),
});
export type OutboxMail = z.infer<typeof OutboxMail>;

export const OutboxPage = z.object({
  data: z.array(OutboxMail),
  total: z.number().int(),
  page: z.number().int(),
  perPage: z.number().int(),
});
export type OutboxPage = z.infer<typeof OutboxPage>;
