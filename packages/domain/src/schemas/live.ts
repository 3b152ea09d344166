import { z } from 'zod';

/**
 * GET /api/companies/{companyId}/changes: the resources to stream (`a,b`), and where to resume from when the
 * Last-Event-ID header cannot be sent.
 */
export const ChangesQuery = z
  .object({
    resources: z.string().min(1, 'resources is required').max(500),
    // Parsed by the server's feed (parseLastEventId): anything that is not a positive integer gets a reset, not a 400.
    last_event_id: z.string().max(64).optional(),
  })
  .strict();
export type ChangesQuery = z.infer<typeof ChangesQuery>;

/** What EventSource sends when it reconnects; the other headers pass through. */
export const ChangesHeaders = z.object({ 'last-event-id': z.string().max(64).optional() }).loose();
export type ChangesHeaders = z.infer<typeof ChangesHeaders>;
