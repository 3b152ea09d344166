import { asc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { AppContext } from './context';
import type { Db } from './db';
import { createWriter, type Change } from './db/change-log';
import { companies } from './db/schema';
import { systemClock, type Clock } from './lib/clock';
import { createKeyStore, type KeyStore } from './lib/keys';
import { LiveFeed } from './live/feed';
import { createVisibility } from './live/visibility';
import { createEmailDriver, type EmailDriver } from './providers/email';
import { createPaymentGateway, type PaymentGateway } from './providers/payments';
import { createStorage, type StorageDriver } from './providers/storage';
import { RESOURCES } from './resources/definitions';
import { PublicCache } from './resources/public-cache';
import { ShopDirectory } from './resources/shop-directory';
import { CompanyDirectory } from './resources/tenant';
import { UserDirectory } from './resources/user-directory';

export interface CoreOptions {
  config: Config;
  db: Db;
  clock?: Clock;
  keys?: KeyStore;
  /** Where files live; by default the driver `STORAGE` names (closed with the app). */
  storage?: StorageDriver;
  /** The payment gateway; by default the driver `PAYMENT_GATEWAY` names. */
  payments?: PaymentGateway;
}

/** The app-wide infrastructure, built once in dependency order (docs/design.md §1 "The house"). */
export interface Core {
  ctx: AppContext;
  email: EmailDriver;
  /** Whether the app made the storage driver (and so closes it). */
  ownsStorage: boolean;
}

/** What the core takes from the app above it, so that it imports nothing above itself. */
export interface CoreLinks {
  /** How the payment gateway's look-ups reach it: the sandbox's are answered by this app itself. */
  gatewayFetch?: typeof fetch;
  /** The demo bakery's id: the storefront's company when no MARKET_COMPANY_ID is set and it was seeded. */
  demoCompanyId: string;
  log: FastifyBaseLogger;
}

/** The storefront's company: MARKET_COMPANY_ID, else the demo bakery when seeded, else the first company made. */
function marketCompanyLookup(db: Db, configured: string | null, demoId: string): () => Promise<string | null> {
  let marketId = configured;
  return async () => {
    if (marketId) return marketId;
    const [demo] = await db.select({ id: companies.id }).from(companies).where(eq(companies.id, demoId));
    const [first] = demo
      ? [demo]
      : await db.select({ id: companies.id }).from(companies).orderBy(asc(companies.createdAt)).limit(1);
    marketId = first?.id ?? null;
    return marketId;
  };
}

/**
 * Configuration, database, clock and keys, then what is kept in memory (caches and directories), the live
 * feed, the one write door, and the providers: each part made once, from parts made before it, and never
 * changed after.
 */
export async function buildCore(opts: CoreOptions, links: CoreLinks): Promise<Core> {
  const { log } = links;
  const { config, db } = opts;
  const clock = opts.clock ?? systemClock;
  const keys =
    opts.keys ??
    (await createKeyStore({ privateKeyPem: config.jwtPrivateKey, dataDir: config.dataDir, issuer: config.publicUrl }));
  const publicCache = new PublicCache();
  const signedInCache = new PublicCache();
  const users = new UserDirectory(db);
  const companyInfo = new CompanyDirectory();
  const marketCompanyId = marketCompanyLookup(db, config.marketCompanyId ?? null, links.demoCompanyId);
  const shops = new ShopDirectory(db, config.publicUrl, marketCompanyId);

  // Resources whose answers present() builds from another's rows (recipes from ingredients and products): a
  // change to the other makes them stale too.
  const readers = new Map<string, string[]>();
  for (const def of RESOURCES) {
    for (const read of def.presentReads ?? []) readers.set(read, [...(readers.get(read) ?? []), def.name]);
  }
  // What a committed change makes stale on this instance: at commit here, on notification elsewhere.
  const forget = (companyId: string, resource: string, changes: readonly Change[]) => {
    if (resource === 'settings') {
      // The time zone shapes date-filtered lists of every resource: drop the whole company.
      publicCache.invalidateCompany(companyId);
      signedInCache.invalidateCompany(companyId);
      companyInfo.forget(companyId);
      // A new bakery (its settings are written with it) or edited domains: hosts are read again.
      shops.forget();
    } else {
      for (const stale of [resource, ...(readers.get(resource) ?? [])]) {
        publicCache.invalidate(companyId, stale);
        signedInCache.invalidate(companyId, stale);
      }
    }
    if (resource === 'users') for (const c of changes) users.forget(String(c.doc.id));
  };

  const live = new LiveFeed(
    db,
    db.$client.options.connectionString ?? '',
    clock,
    createVisibility(users, RESOURCES),
    log,
  );
  // A row this instance wrote was forgotten at its commit and does not come here again (appliedAtCommit):
  // forgetting it when its notification arrives would only throw away reads cached since, already fresh.
  live.onRow.push((row) => forget(row.companyId, row.resource, row.changes));
  const write = createWriter(db, clock, (companyId, changes, positions) => {
    for (const [resource, list] of changes.byResource) forget(companyId, resource, list);
    // Its pump will not forget them again, and a read right after this write need not wait for it.
    live.appliedAtCommit(positions);
  });

  const storage = opts.storage ?? (await createStorage(config));
  const payments = opts.payments ?? (await createPaymentGateway(config, links.gatewayFetch));
  // E-mail (docs/design.md §1): SMTP when SMTP_URL is set, else the outbox table.
  const email = createEmailDriver(config, db, clock, log);

  const ctx: AppContext = {
    config,
    db,
    clock,
    keys,
    write,
    users,
    publicCache,
    signedInCache,
    companies: companyInfo,
    live,
    storage,
    payments,
    marketCompanyId,
    shops,
  };
  return { ctx, email, ownsStorage: !opts.storage };
}
