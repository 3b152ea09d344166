import os from 'node:os';
import path from 'node:path';
import proxyAddr from '@fastify/proxy-addr';
import { z } from 'zod';

/**
 * The configuration of docs/design.md §2, parsed once at start-up. Every bad variable is named in one
 * message so an operator fixes them all at once.
 */
const onOff = z
  .enum(['on', 'off', 'true', 'false', '1', '0'])
  .transform((v) => v === 'on' || v === 'true' || v === '1');

const TRUST_PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * TRUST_PROXY: `off`, or the addresses of the proxies in front (IPs, CIDR ranges, proxy-addr's names),
 * comma-separated. Only a peer on that list may say who the client is in X-Forwarded-For: a forged
 * header from anyone else changes nothing. `on` (trust every hop) and a hop count are refused: both
 * let a client that reaches the server directly choose its own address and so escape every
 * per-address limit (Fastify 5.12 ignores a hop count for the same reason).
 */
const trustProxy = z.string().transform((raw, ctx): false | string[] => {
  const v = raw.trim().toLowerCase();
  if (v === 'off' || v === 'false' || v === '0') return false;
  const fix = "list the proxies' addresses or CIDR ranges instead, e.g. TRUST_PROXY=127.0.0.1,10.0.0.0/8";
  if (v === 'on' || v === 'true') {
    ctx.addIssue({ code: 'custom', message: `"${raw}" would trust any client's X-Forwarded-For: ${fix}` });
    return z.NEVER;
  }
  if (/^\d+$/.test(v)) {
    ctx.addIssue({
      code: 'custom',
      message: `a hop count ("${raw}") cannot tell a proxy from a client that reaches the server directly: ${fix}`,
    });
    return z.NEVER;
  }
  const list = raw.split(',').map((s) => s.trim());
  // Compiled one by one with the library Fastify itself uses, so the message names the bad entry.
  const bad = list.filter((entry) => {
    try {
      proxyAddr.compile(entry);
      return false;
    } catch {
      return true;
    }
  });
  if (bad.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `${bad.map((b) => `"${b}"`).join(', ')} is not an IP address, a CIDR range (10.0.0.0/8) or one of ${TRUST_PROXY_NAMES.join(', ')}`,
    });
    return z.NEVER;
  }
  return list;
});

const EnvSchema = z.object({
  PORT: z.coerce
    .number({ error: 'must be a port number from 0 to 65535' })
    .int({ error: 'must be a port number from 0 to 65535' })
    .min(0, { error: 'must be a port number from 0 to 65535' })
    .max(65535, { error: 'must be a port number from 0 to 65535' })
    .default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  MARKET_COMPANY_ID: z.string().min(1).max(64).optional(),
  SEED_DEMO: onOff.optional(),
  PUBLIC_URL: z.url().optional(),
  JWT_PRIVATE_KEY: z.string().includes('BEGIN PRIVATE KEY', { message: 'must be a PKCS#8 PEM' }).optional(),
  EMAIL_PASSWORD_SIGNIN: onOff.default(true),
  TRUST_PROXY: trustProxy.default(false),
  GOOGLE_OIDC_ISSUER: z.url().optional(),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/.+/, 'must be an smtp:// or smtps:// URL')
    .optional(),
  EMAIL_FROM: z.string().min(3).max(254).optional(),
  RATE_LIMIT_WRITES: z.coerce.number().int().min(0).default(300),
  // Far above what one instance serves (about 10,000 a second here): it stops a single address's
  // flood, never a busy shop behind one proxy address.
  RATE_LIMIT_PUBLIC_READS: z.coerce.number().int().min(0).default(3_000_000),
  // The gateway's events per address: Wompi sends one per transaction change from a few addresses shared by
  // every bakery, and retries a refused one (30 min, 3 h, 24 h): high enough for a busy day, low enough
  // that a flood of forged events stops at the door. 0 turns it off.
  RATE_LIMIT_PAYMENT_EVENTS: z.coerce.number().int().min(0).default(600),
  RATE_LIMIT_SIGNIN_ACCOUNT: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_SIGNIN_ADDRESS: z.coerce.number().int().min(1).default(100),
  RATE_LIMIT_REGISTER_ADDRESS: z.coerce.number().int().min(1).default(20),
  RATE_LIMIT_RECOVERY_ADDRESS: z.coerce.number().int().min(1).default(20),
  // One stream per browser tab (the web multiplexes every resource into it): 20 covers a person's tabs
  // on a few devices, or a shop's tablets sharing one staff account.
  LIVE_STREAMS_PER_USER: z.coerce.number().int().min(1).default(20),
  // Guests only (signed-in streams count per account, not per address). A mobile carrier's NAT puts
  // hundreds or thousands of phones behind one public address, so this is high: it stops one host from
  // holding tens of thousands of sockets, never a crowd of real shoppers on one carrier.
  LIVE_STREAMS_PER_ADDRESS: z.coerce.number().int().min(1).default(1000),
  // Far above any query the API makes (milliseconds); a runaway statement is canceled instead of
  // holding a pool connection. 0 turns it off.
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(15_000),
  // Connections of the app's pool. More than the cores can run only queue inside PostgreSQL: on this
  // 2-core machine 6 beat 10 in bench:orders (≈310 against ≈295 orders a second, p99 115 against 155 ms).
  DB_POOL_MAX: z.coerce
    .number()
    .int()
    .min(2)
    .max(200)
    .default(Math.min(20, 2 * os.availableParallelism() + 2)),
  // Unpaid web orders placed in one day (the company's) that one holder (a browser session or a
  // customer), one phone and one network address may have; 0: no bound. The address bound is
  // higher: a mobile carrier puts many shoppers behind one address.
  CHECKOUT_UNPAID_PER_HOLDER: z.coerce.number().int().min(0).default(3),
  CHECKOUT_UNPAID_PER_PHONE: z.coerce.number().int().min(0).default(3),
  CHECKOUT_UNPAID_PER_ADDRESS: z.coerce.number().int().min(0).default(10),
  // The percent of a window's places (rounded up, at least one) one network address may hold with unpaid
  // web orders: half, so a script cannot take a small window alone; 0: no share.
  CHECKOUT_WINDOW_SHARE_PER_ADDRESS: z.coerce.number().int().min(0).max(100).default(50),
  // File storage (docs/design.md §1): local disk under DATA_DIR/files, or an S3-compatible bucket.
  STORAGE: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ENDPOINT: z.url().optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: onOff.default(false),
  S3_PREFIX: z
    .string()
    .regex(
      /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/,
      'must be segments of letters, digits, . _ - (none starting with a dot) joined by /',
    )
    .optional(),
  // What one company's images may take in the storage, every width counted (402 beyond); 0: no limit.
  STORAGE_QUOTA_MB: z.coerce.number().int().min(0).default(1024),
  // Online payment (docs/design.md §3): the built-in sandbox, or Wompi with its keys.
  PAYMENT_GATEWAY: z.enum(['sandbox', 'wompi']).default('sandbox'),
  // Placing delivery addresses on the map: Nominatim in production, the local stand-in elsewhere.
  GEOCODER: z.enum(['nominatim', 'stand-in', 'off']).optional(),
  NOMINATIM_URL: z.url().optional(),
  // Nominatim's usage policy asks for an identifying User-Agent with a way to reach the operator.
  GEOCODER_CONTACT: z.string().min(3).max(200).optional(),
  WOMPI_PUBLIC_KEY: z
    .string()
    .regex(/^pub_(test|prod)_[A-Za-z0-9_-]+$/, 'must be a Wompi public key (pub_test_… or pub_prod_…)')
    .optional(),
  WOMPI_INTEGRITY_SECRET: z.string().min(8).max(200).optional(),
  WOMPI_EVENTS_SECRET: z.string().min(8).max(200).optional(),
  // Server to server only: Wompi's transaction search by reference (reconciliation) takes it as a bearer.
  WOMPI_PRIVATE_KEY: z
    .string()
    .regex(/^prv_(test|prod)_[A-Za-z0-9_-]+$/, 'must be a Wompi private key (prv_test_… or prv_prod_…)')
    .optional(),
  WOMPI_API_URL: z.url().optional(),
  WOMPI_CHECKOUT_URL: z.url().default('https://checkout.wompi.co/p/'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Set by scripts/dev.mjs only (`npm run dev`), not an operator's setting: hence the prefix.
  HORNADA_DEV_WEB: onOff.default(false),
  // Set by the browser tests (E2E_NOW, e2e/support/clock.ts): the whole app as if it were another instant.
  HORNADA_CLOCK_OFFSET_MS: z.coerce.number().int().min(-1e13).max(1e13).default(0),
});

export type StorageConfig =
  | { driver: 'local' }
  | {
      driver: 's3';
      bucket: string;
      region: string;
      /** An S3-compatible service's URL (MinIO, R2, s3rver); unset: AWS. */
      endpoint: string | undefined;
      /** Both set, or neither (then the SDK's default chain: environment, profile, instance role). */
      credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
      forcePathStyle: boolean;
      /** Prepended to every key (`prefix/…`), to share a bucket. */
      prefix: string | undefined;
    };

/** Placing delivery addresses on the map (providers/geocoding). */
export interface GeocodingConfig {
  /** `off`: no address is looked up; `stand-in`: a fixed table of known addresses, no network. */
  driver: 'nominatim' | 'stand-in' | 'off';
  nominatimUrl: string;
  /** Named in the User-Agent sent to Nominatim. */
  contact: string | undefined;
}

/**
 * The payment gateway (docs/design.md §3). `sandbox`: the app's own Wompi look-alike, at its own addresses;
 * secrets left unset are generated under DATA_DIR at start-up (providers/payments/index.ts).
 */
export interface PaymentsConfig {
  gateway: 'sandbox' | 'wompi';
  publicKey: string | undefined;
  integritySecret: string | undefined;
  eventsSecret: string | undefined;
  /** The bearer of the transaction search by reference (`GET {apiUrl}/transactions?reference=`). */
  privateKey: string | undefined;
  /** Transactions are looked up at `{apiUrl}/transactions/{id}`. */
  apiUrl: string;
  /** The hosted checkout the browser is sent to. */
  checkoutUrl: string;
}

export interface Config {
  port: number;
  host: string;
  nodeEnv: 'development' | 'production' | 'test';
  production: boolean;
  databaseUrl: string | undefined;
  dataDir: string;
  marketCompanyId: string | undefined;
  seedDemo: boolean;
  publicUrl: string;
  jwtPrivateKey: string | undefined;
  emailPasswordSignIn: boolean;
  /** The proxies whose X-Forwarded-For is believed (Fastify's `trustProxy`), or false. */
  trustProxy: false | string[];
  /** The Google button shows only when all three GOOGLE_* variables are set (docs/design.md §2). */
  googleSignIn: boolean;
  google: { issuer: string; clientId: string; clientSecret: string } | null;
  /** E-mail goes out over SMTP when set; otherwise it is kept in the outbox table (docs/design.md §1). */
  smtpUrl: string | undefined;
  /** The From address; its display name is the bakery's. Default: no-reply at PUBLIC_URL's host. */
  emailFrom: string;
  rateLimits: {
    writesPerMinute: number;
    publicReadsPerMinute: number;
    /** The gateway's events an address may send per minute (0: no limit). */
    paymentEventsPerMinute: number;
    /** Failures an account may have in 15 minutes before each try waits (1 s, 2 s, 4 s …). */
    signInPerAccount: number;
    /** Sign-in attempts an address may make in 15 minutes. */
    signInPerAddress: number;
    /** Registrations an address may make in an hour. */
    registerPerAddress: number;
    /** Password-reset requests and e-mail verification resends an address may make in an hour. */
    recoveryPerAddress: number;
  };
  liveStreams: {
    /** Open change streams one signed-in account may hold. */
    perUser: number;
    /** Open change streams guests of one address may hold. */
    perAddress: number;
  };
  /**
   * Unpaid web orders a day one holder, phone and address may have (0: no bound), and the percent of a
   * window's places one address may hold (0: none).
   */
  checkoutBounds: { perHolder: number; perPhone: number; perAddress: number; windowSharePercent: number };
  storage: StorageConfig;
  /** Bytes a company's images may take, every width counted; 0: no limit. */
  storageQuotaBytes: number;
  /** PostgreSQL's statement_timeout on the app's pool (0: none). */
  dbStatementTimeoutMs: number;
  /** Connections of the app's pool. */
  dbPoolMax: number;
  payments: PaymentsConfig;
  geocoding: GeocodingConfig;
  logLevel: string;
  /**
   * `npm run dev`: the web app is served from source by Vite in middleware mode (hot reload, pages
   * rendered from source) instead of from its build. Never in production.
   */
  devWeb: boolean;
  /**
   * Milliseconds added to the system time by the app's clock: the browser tests run the app as if it were
   * another day and hour (docs/design.md §8: time-dependent rules take an injectable clock). 0, and never else in
   * production.
   */
  clockOffsetMs: number;
}

export class ConfigError extends Error {}

export function parseConfig(env: NodeJS.ProcessEnv): Config {
  // Empty strings count as unset, as in most deployment tools.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = EnvSchema.safeParse(cleaned);
  const problems: string[] = [];
  if (!result.success) {
    for (const issue of result.error.issues) problems.push(`${issue.path.join('.')}: ${issue.message}`);
  }
  // Checked on the raw values, whether or not the rest parsed, so one message names every problem.
  if (cleaned.NODE_ENV === 'production') {
    if (!cleaned.JWT_PRIVATE_KEY) problems.push('JWT_PRIVATE_KEY: required in production');
    if (!cleaned.PUBLIC_URL) problems.push('PUBLIC_URL: required in production');
    // The sandbox approves payments nobody made: in production it is a choice said out loud (a demo), never a default.
    if (!cleaned.PAYMENT_GATEWAY) {
      problems.push(
        'PAYMENT_GATEWAY: required in production (wompi; sandbox only for a demo: its payments are not real)',
      );
    }
    if (result.success && result.data.HORNADA_DEV_WEB) problems.push('HORNADA_DEV_WEB: development only');
    if (result.success && result.data.HORNADA_CLOCK_OFFSET_MS !== 0)
      problems.push('HORNADA_CLOCK_OFFSET_MS: tests only');
  }
  if (cleaned.STORAGE === 's3' && !cleaned.S3_BUCKET) problems.push('S3_BUCKET: required with STORAGE=s3');
  if (Boolean(cleaned.S3_ACCESS_KEY_ID) !== Boolean(cleaned.S3_SECRET_ACCESS_KEY)) {
    problems.push('S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither');
  }
  if (cleaned.PAYMENT_GATEWAY === 'wompi') {
    for (const k of ['WOMPI_PUBLIC_KEY', 'WOMPI_INTEGRITY_SECRET', 'WOMPI_EVENTS_SECRET', 'WOMPI_PRIVATE_KEY']) {
      if (!cleaned[k]) problems.push(`${k}: required with PAYMENT_GATEWAY=wompi`);
    }
  }
  if (problems.length > 0 || !result.success) {
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = result.data;
  const production = e.NODE_ENV === 'production';
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    nodeEnv: e.NODE_ENV,
    production,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    marketCompanyId: e.MARKET_COMPANY_ID,
    // The demo includes a system_admin with a published password: on an operator's own database
    // (DATABASE_URL) only when asked for; on the embedded one, on by default to try the app.
    seedDemo: production ? false : (e.SEED_DEMO ?? !e.DATABASE_URL),
    publicUrl,
    jwtPrivateKey: e.JWT_PRIVATE_KEY,
    emailPasswordSignIn: e.EMAIL_PASSWORD_SIGNIN,
    trustProxy: e.TRUST_PROXY,
    googleSignIn: Boolean(e.GOOGLE_OIDC_ISSUER && e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET),
    google:
      e.GOOGLE_OIDC_ISSUER && e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
        ? { issuer: e.GOOGLE_OIDC_ISSUER, clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET }
        : null,
    smtpUrl: e.SMTP_URL,
    emailFrom: e.EMAIL_FROM ?? `no-reply@${new URL(e.PUBLIC_URL ?? 'http://localhost').hostname}`,
    rateLimits: {
      writesPerMinute: e.RATE_LIMIT_WRITES,
      publicReadsPerMinute: e.RATE_LIMIT_PUBLIC_READS,
      paymentEventsPerMinute: e.RATE_LIMIT_PAYMENT_EVENTS,
      signInPerAccount: e.RATE_LIMIT_SIGNIN_ACCOUNT,
      signInPerAddress: e.RATE_LIMIT_SIGNIN_ADDRESS,
      registerPerAddress: e.RATE_LIMIT_REGISTER_ADDRESS,
      recoveryPerAddress: e.RATE_LIMIT_RECOVERY_ADDRESS,
    },
    liveStreams: { perUser: e.LIVE_STREAMS_PER_USER, perAddress: e.LIVE_STREAMS_PER_ADDRESS },
    checkoutBounds: {
      perHolder: e.CHECKOUT_UNPAID_PER_HOLDER,
      perPhone: e.CHECKOUT_UNPAID_PER_PHONE,
      perAddress: e.CHECKOUT_UNPAID_PER_ADDRESS,
      windowSharePercent: e.CHECKOUT_WINDOW_SHARE_PER_ADDRESS,
    },
    storage:
      e.STORAGE === 's3'
        ? {
            driver: 's3',
            bucket: e.S3_BUCKET!,
            region: e.S3_REGION,
            endpoint: e.S3_ENDPOINT,
            credentials:
              e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
                ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
                : undefined,
            forcePathStyle: e.S3_FORCE_PATH_STYLE,
            prefix: e.S3_PREFIX,
          }
        : { driver: 'local' },
    storageQuotaBytes: e.STORAGE_QUOTA_MB * 1024 * 1024,
    dbStatementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
    dbPoolMax: e.DB_POOL_MAX,
    payments: paymentsConfig(e, publicUrl),
    geocoding: {
      driver: e.GEOCODER ?? (production ? 'nominatim' : 'stand-in'),
      nominatimUrl: (e.NOMINATIM_URL ?? 'https://nominatim.openstreetmap.org').replace(/\/$/, ''),
      contact: e.GEOCODER_CONTACT,
    },
    logLevel: e.LOG_LEVEL,
    devWeb: e.HORNADA_DEV_WEB,
    clockOffsetMs: e.HORNADA_CLOCK_OFFSET_MS,
  };
}

function paymentsConfig(e: z.infer<typeof EnvSchema>, publicUrl: string): PaymentsConfig {
  const secrets = {
    publicKey: e.WOMPI_PUBLIC_KEY,
    integritySecret: e.WOMPI_INTEGRITY_SECRET,
    eventsSecret: e.WOMPI_EVENTS_SECRET,
    privateKey: e.WOMPI_PRIVATE_KEY,
  };
  // The sandbox is served by this app: its checkout page and its transactions' look-up are ours.
  if (e.PAYMENT_GATEWAY === 'sandbox') {
    return {
      gateway: 'sandbox',
      ...secrets,
      apiUrl: `${publicUrl}/api/pasarela-de-prueba/v1`,
      checkoutUrl: `${publicUrl}/pasarela-de-prueba`,
    };
  }
  const test = e.WOMPI_PUBLIC_KEY?.startsWith('pub_test_') ?? false;
  return {
    gateway: 'wompi',
    ...secrets,
    apiUrl: (e.WOMPI_API_URL ?? (test ? 'https://sandbox.wompi.co/v1' : 'https://production.wompi.co/v1')).replace(
      /\/$/,
      '',
    ),
    checkoutUrl: e.WOMPI_CHECKOUT_URL,
  };
}
