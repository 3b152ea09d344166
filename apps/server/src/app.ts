import path from 'node:path';
import { fileURLToPath } from 'node:url';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import helmet from 'helmet';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
} from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { MAX_BODY_BYTES } from '@hornada/domain';
import { serializeRequest } from './lib/log-redact';
import { registerLiveRoutes } from './live/changes.routes';
import { registerSystemRoutes } from './modules/system.routes';
import { registerSeoRoutes } from './modules/web';
import { registerWebRoutes, webBuildAt } from './modules/web';
import { registerIdentityRoutes } from './modules/identity';
import { registerCartRoutes } from './modules/carts';
import { registerFileRoutes } from './modules/files';
import { registerOrderRoutes } from './modules/orders';
import { registerShopRoutes } from './modules/shops';
import { registerPaymentRoutes } from './modules/payments';
import { registerDeliveryRoutes } from './modules/delivery';
import { registerProductionRoutes } from './modules/production';
import { registerReportRoutes } from './modules/reports';
import { registerStandingOrderJobs } from './modules/standing-orders';
import { createPaymentSandbox, registerPaymentSandboxRoutes, sandboxFetch } from './modules/payment-sandbox';
import { composeModules } from './modules/compose';
import { buildCore, type CoreOptions } from './core';
import { DEMO_COMPANY_ID } from './seed/ids';
import { openToGuests, registerAuth } from './plugins/auth';
import { registerRequestContext } from './request-context';
import { registerErrorHandling } from './plugins/errors';
import { registerRateLimits } from './plugins/rate-limit';
import { ResourceRegistry } from './resources/registry';
import { registerResource } from './resources/routes';
import { registerSettingsRoutes } from './resources/settings.routes';

export interface BuildOptions extends CoreOptions {
  /** The process's pino logger (server.ts); tests run without one. */
  loggerInstance?: FastifyBaseLogger;
}

const here = path.dirname(fileURLToPath(import.meta.url));
/** The web app's folder (its builds are dist/ and dist-server/), from src/ in tests and from dist/ when built. */
export const WEB_ROOT = path.resolve(here, '../../web');

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    // Never log credentials; request bodies are not logged at all.
    redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
    // Nor the secrets a URL carries (order links, reset and verification tokens, Google codes).
    serializers: { req: serializeRequest },
  };
}

type Register = (scope: FastifyInstance) => unknown;

/** A part of the app in its own encapsulated plugin: its routes, hooks, parsers and decorators stay its own. */
function part(name: string, register: Register) {
  const plugin = async (scope: FastifyInstance) => {
    await register(scope);
  };
  Object.defineProperty(plugin, 'name', { value: name });
  return plugin;
}

/** A cross-cutting plugin, shared with its parent (fastify-plugin): every part registered after it has it. */
function shared(name: string, register: Register) {
  return fp(
    async (scope: FastifyInstance) => {
      await register(scope);
    },
    { name },
  );
}

/**
 * The plugin tree; never listens. What server.ts runs and what tests boot (docs/design.md §8). As fastify/demo: the
 * core (compression, compilers, the context), then cross-cutting plugins shared with every route, then each
 * part of the app in its own encapsulated plugin, registered in order.
 */
export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config } = opts;
  const app = Fastify({
    ...(opts.loggerInstance ? { loggerInstance: opts.loggerInstance } : { logger: false }),
    bodyLimit: MAX_BODY_BYTES,
    trustProxy: config.trustProxy,
    // Event streams must not hold a shutdown forever: idle keep-alive sockets close at once.
    forceCloseConnections: 'idle',
    // While draining, a request that still reaches us (on a busy keep-alive socket) is served, with
    // `Connection: close`: the database stays up until every request has been answered, so a graceful
    // stop answers 2xx or closes the connection, never a 503.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true },
    // One log line a request, when it is answered (below), instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
  });
  app.addHook('onResponse', async (req, reply) => {
    req.log.info({ req, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  });
  // The API speaks JSON only: any other body is a 415 (uploads add their own parser).
  app.removeContentTypeParser('text/plain');
  // Compression of what the app sends (JSON, rendered pages, static files the build did not precompress),
  // registered first because it hooks every route declared after it. Brotli at quality 4 (the plugin's
  // default, fast enough per request) or gzip, as the client asks; under 1 KB nothing is compressed. Event
  // streams are hijacked replies that never pass through it (nothing buffers a live event). Request bodies
  // are not inflated: the API takes plain JSON only.
  await app.register(compress, { encodings: ['br', 'gzip'], globalDecompression: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // The infrastructure, built once in dependency order (core.ts), then each module's service (modules/compose.ts),
  // its rules added to the resources' hooks: before any route, so the seed and the tests write under the same
  // rules as the API. Route files receive these and only register routes.
  const { ctx, email, ownsStorage } = await buildCore(opts, {
    // The sandbox's look-ups are answered by this app itself (modules/payment-sandbox), not over the network.
    gatewayFetch: config.payments.gateway === 'sandbox' ? sandboxFetch(app) : undefined,
    demoCompanyId: DEMO_COMPANY_ID,
    log: app.log,
  });
  // The one door: every write to a resource, from routes, modules, the seed and loaders, goes through here.
  const resources = new ResourceRegistry(ctx);
  const modules = composeModules(ctx, resources, email, app.log);
  app.decorate('ctx', ctx);
  app.decorate('resources', resources);
  app.decorate('modules', modules);
  app.decorate('email', email);
  await ctx.live.start();
  // The background jobs start once the app is ready, in order, each run once at start.
  app.addHook('onReady', async () => {
    for (const job of modules.jobs) {
      job.start();
      await job.runIfDue();
    }
  });
  // Streams end (with a retry hint) before the server waits for open requests to finish; mail still being
  // handed over is finished before the database closes.
  app.addHook('preClose', async () => {
    await ctx.live.stop();
    await modules.settled();
  });
  app.addHook('onClose', async () => {
    for (const job of modules.jobs) await job.stop();
    await email.close();
    if (ownsStorage) await ctx.storage.close();
  });

  // helmet's middleware, built once: @fastify/helmet builds it anew for every request (parsing the
  // policy each time), which cost about a tenth of a cached public read's time (measured, bench:api).
  const documentHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        scriptSrc: ["'self'"],
        // React sets style attributes; no inline <style> or <script> is allowed.
        styleSrc: ["'self'"],
        styleSrcAttr: ["'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        ...(config.production ? { upgradeInsecureRequests: [] } : {}),
        // `npm run dev` only (config.ts refuses it in production), scripts still 'self': Vite applies the CSS
        // that modules import, and its hot updates, as <style> elements, and waits for a restarted server
        // from a blob: worker before it reloads the page.
        ...(config.devWeb ? { styleSrc: ["'self'", "'unsafe-inline'"], workerSrc: ["'self'", 'blob:'] } : {}),
      },
    },
    // Same-origin by default (no CORS plugin): the API and the web app share one origin.
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
  // JSON is never rendered as a page: the API gets the strictest policy and none of the headers that
  // only mean something to a document (OWASP REST security), which also keeps every answer smaller.
  const apiHeaders = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
    xFrameOptions: { action: 'deny' },
  });
  app.addHook('onRequest', (req, reply, done) => {
    const api = req.url.startsWith('/api/') && !req.url.startsWith('/api/docs');
    (api ? apiHeaders : documentHeaders)(req.raw, reply.raw, (err) => done(err instanceof Error ? err : undefined));
  });

  await app.register(shared('errors', registerErrorHandling));
  await app.register(shared('auth', registerAuth));
  await app.register(shared('request-context', registerRequestContext));
  await app.register(shared('rate-limits', registerRateLimits));

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Hornada API', version: '0.1.0', description: 'Online bakery marketplace API' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(async (docs) => {
    // The API's documentation is for anyone: its routes are opened at the door (plugins/auth.ts).
    docs.addHook('onRoute', (route) => {
      route.config = openToGuests(route.config);
    });
    await docs.register(swaggerUi, {
      routePrefix: '/api/docs',
      staticCSP: true,
      // Swagger UI sets inline styles; allow them on the documentation pages only.
      transformStaticCSP: (header) => header.replace(/style-src [^;]*/, "style-src 'self' 'unsafe-inline'"),
    });
  });

  await app.register(cookie);

  // The parts, each in its own encapsulated plugin, in this order.
  await app.register(part('system', registerSystemRoutes));
  await app.register(part('identity', registerIdentityRoutes));
  await app.register(part('settings', registerSettingsRoutes));
  await app.register(part('carts', registerCartRoutes));
  await app.register(part('orders', registerOrderRoutes));
  await app.register(part('shops', registerShopRoutes));
  await app.register(part('payments', registerPaymentRoutes));
  await app.register(part('reports', registerReportRoutes));
  // Shared: its hook runs after the resources' standingOrders writes, registered below.
  await app.register(shared('standing-orders', registerStandingOrderJobs));
  await app.register(part('production', registerProductionRoutes));
  await app.register(part('delivery', registerDeliveryRoutes));
  // The sandbox gateway's checkout and look-up exist only when it is the gateway (never beside Wompi).
  if (config.payments.gateway === 'sandbox') {
    // Anyone may approve their own payment there: say so loudly where money should be real.
    if (config.production) app.log.warn('PAYMENT_GATEWAY=sandbox in production: online payments are not real');
    const sandbox = await createPaymentSandbox(app);
    app.decorate('paymentSandbox', sandbox);
    await app.register(part('payment-sandbox', (scope) => registerPaymentSandboxRoutes(scope, sandbox)));
  }
  await app.register(
    part('resources', (scope) => {
      for (const service of resources.all()) registerResource(scope, service);
    }),
  );
  await app.register(part('live', (scope) => registerLiveRoutes(scope, resources.definitions)));
  // Uploads, deletes and downloads (/files/…, cached for a year) on either storage driver.
  await app.register(part('files', registerFileRoutes));
  await app.register(part('seo', registerSeoRoutes));
  await app.register(
    part('web', async (scope) => {
      if (config.devWeb) {
        // Imported only here: outside `npm run dev`, neither this module nor Vite (a devDependency) is loaded.
        const { registerDevWebRoutes } = await import('./modules/web/web.dev');
        await registerDevWebRoutes(scope, WEB_ROOT);
      } else {
        const web = webBuildAt(WEB_ROOT);
        if (web) await registerWebRoutes(scope, web);
      }
    }),
  );

  return app;
}
