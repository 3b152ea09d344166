import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db';
import type { Clock } from '../../lib/clock';
import type { EmailDriver } from './email';
import { outboxDriver } from './outbox';
import { smtpDriver } from './smtp';

export type { EmailDriver, EmailMessage } from './email';

/** SMTP when SMTP_URL is set, else the outbox (docs/design.md §1). */
export function createEmailDriver(config: Config, db: Db, clock: Clock, log: FastifyBaseLogger): EmailDriver {
  return config.smtpUrl ? smtpDriver(config.smtpUrl, config.emailFrom) : outboxDriver(db, clock, log);
}

declare module 'fastify' {
  interface FastifyInstance {
    email: EmailDriver;
  }
}
