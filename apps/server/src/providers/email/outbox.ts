import { count, desc, sql } from 'drizzle-orm';
import type { OutboxPage } from '@hornada/domain/outbox';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db';
import { outbox } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { newId } from '../../lib/ids';
import type { EmailDriver, EmailMessage } from './email';

/**
 * Without SMTP_URL each message is kept in the outbox table and logged (recipient and subject, never the
 * body: it carries single-use links), so recovery and verification work offline (docs/design.md §1).
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

/**
 * GET /api/outbox: newest first; `addressLike` (a LIKE pattern, lower case, its own wildcards escaped) keeps
 * the mails whose address matches it, whatever its case (the system admin types part of an address).
 */
export async function listOutbox(db: Db, page: number, perPage: number, addressLike?: string): Promise<OutboxPage> {
  const where = addressLike ? sql`lower(${outbox.to}) LIKE ${addressLike}` : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(outbox)
      .where(where)
      .orderBy(desc(outbox.createdAt), desc(outbox.id))
      .limit(perPage)
      .offset((page - 1) * perPage),
    db.select({ n: count() }).from(outbox).where(where),
  ]);
  return {
    data: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
    total: total?.n ?? 0,
    page,
    perPage,
  };
}
