import { count, desc } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db';
import { outbox } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { newId } from '../../lib/ids';
import type { EmailDriver, EmailMessage } from './email';

/**
 * Without SMTP_URL each message is kept in the outbox table and logged (recipient and subject, never the
 * body: it carries single-use links), so recovery and verification work offline (design §1).
 */
export function outboxDriver(db: Db, clock: Clock, log: FastifyBaseLogger): EmailDriver {
  return {
    kind: 'outbox',
    async send(m: EmailMessage) {
      const id = newId();
      await db
        .insert(outbox)
        .values({ id, to: m.to, subject: m.subject, text: m.text, html: m.html, createdAt: clock.now() });
      log.info({ outboxId: id, to: m.to, subject: m.subject }, 'e-mail kept in the outbox (no SMTP_URL)');
    },
    async close() {},
  };
}

/** GET /api/outbox: newest first. */
export async function listOutbox(db: Db, page: number, perPage: number) {
  const rows = await db
    .select()
    .from(outbox)
    .orderBy(desc(outbox.createdAt), desc(outbox.id))
    .limit(perPage)
    .offset((page - 1) * perPage);
  const [total] = await db.select({ n: count() }).from(outbox);
  return { data: rows, total: total?.n ?? 0, page, perPage };
}
