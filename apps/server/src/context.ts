import type { Config } from './config';
import type { Db } from './db';
import type { Clock } from './lib/clock';
import type { KeyStore } from './lib/keys';
import type { PaymentGateway } from './providers/payments';
import type { StorageDriver } from './providers/storage';
import type { WriteFn } from './db/change-log';
import type { LiveFeed } from './live/feed';
import type { CompanyDirectory } from './resources/tenant';
import type { PublicCache } from './resources/public-cache';
import type { UserDirectory } from './resources/user-directory';
import type { Caller } from './caller';
import type { ShopDirectory } from './resources/shop-directory';

export type { Caller };

/** What every module receives: configuration, database, clock and keys. No globals. */
export interface AppContext {
  config: Config;
  db: Db;
  clock: Clock;
  keys: KeyStore;
  /** Every write goes through here: the change, its log rows and the notification commit together. */
  write: WriteFn;
  /** Callers' current state, kept exact by the change feed. */
  users: UserDirectory;
  /** Public reads from memory, kept exact by the change feed. */
  publicCache: PublicCache;
  /**
   * Signed-in lists from memory, per company, resource and view (resources/serve-public.ts), kept exact
   * by the change feed; read only by a request the feed has shown current (plugins/auth.ts).
   */
  signedInCache: PublicCache;
  /** Company time zones by id, kept exact by the change feed (settings changes). */
  companies: CompanyDirectory;
  live: LiveFeed;
  /** Where uploaded and seeded files live (STORAGE: local disk or an S3-compatible bucket). */
  storage: StorageDriver;
  /** The online payment gateway (PAYMENT_GATEWAY: the sandbox or Wompi). */
  payments: PaymentGateway;
  /** The storefront's company (MARKET_COMPANY_ID, or the demo bakery once seeded). */
  marketCompanyId(): Promise<string | null>;
  /** Which bakery a request's host names (docs/design.md §4): every storefront read starts here, never at the market. */
  shops: ShopDirectory;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    caller: Caller | null;
  }
}
