import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ViteDevServer } from 'vite';
import { createStorefrontReader } from '../shops';
import { sendPage, type Assets, type Renderer } from './web.routes';

/**
 * What a page loads in development: Vite's client (HMR and its error overlay), the stylesheet as a file
 * (Vite answers a direct CSS request with CSS, so the server's HTML is styled before any script runs) and
 * the client entry as source. The entry's first import is `@vitejs/plugin-react/preamble`, which installs
 * React Fast Refresh before any component module runs: no inline script, so the CSP keeps `script-src 'self'`.
 */
const DEV_ASSETS: Assets = {
  scripts: ['/@vite/client', '/src/entry.client.tsx'],
  styles: ['/src/styles.css'],
};

/** Vite's own URLs (modules, dependencies, virtual ids, files outside the root): never pages. */
const VITE_URL = /^\/(?:@|src\/|node_modules\/|__)/;

/**
 * `npm run dev` (config.devWeb): the web app served from source by a Vite dev server in middleware mode,
 * inside this Fastify server. Every GET outside /api and /files is offered to Vite's middlewares first
 * (modules, public files, HMR ping); what Vite leaves is a page, rendered by the renderer loaded from source
 * on each request (`ssrLoadModule`), so an edit applies without a restart. The HMR WebSocket shares this
 * server's port. Only ever imported dynamically (app.ts): Vite is a devDependency.
 */
export async function registerDevWebRoutes(app: FastifyInstance, webRoot: string): Promise<void> {
  const { createServer } = await import('vite');
  const vite = await createServer({
    root: webRoot,
    configFile: path.join(webRoot, 'vite.config.ts'),
    appType: 'custom',
    clearScreen: false,
    // The WebSocket upgrades arrive at Fastify's HTTP server, which has no other use for them.
    server: { middlewareMode: true, ws: { server: app.server } },
  });
  // Before Fastify closes its HTTP server: open HMR sockets would keep server.close() waiting.
  app.addHook('preClose', async () => vite.close());

  const storefront = createStorefrontReader(app);

  const page = async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.url.startsWith('/api/') || req.url.startsWith('/files/')) return reply.callNotFound();
    if (await viteAnswered(vite, req.raw, reply.raw)) return reply.hijack();
    // A module Vite failed to transform (it logged why) is not a page.
    if (VITE_URL.test(req.url)) return reply.callNotFound();
    try {
      const renderer = (await vite.ssrLoadModule('/src/entry.server.tsx')) as Renderer;
      return await sendPage(req, reply, renderer, { storefront, assets: DEV_ASSETS });
    } catch (err) {
      // Development only: the stack, mapped back to the source, is what the developer needs to see.
      const error = err instanceof Error ? err : new Error(String(err));
      vite.ssrFixStacktrace(error);
      req.log.error({ err: error }, 'page render failed');
      return reply
        .status(500)
        .type('text/plain; charset=utf-8')
        .send(error.stack ?? error.message);
    }
  };
  // Warnings and errors only: a page load asks for a hundred modules, which would bury the API's log lines.
  app.get('/', { logLevel: 'warn', schema: { hide: true } }, page);
  app.get('/*', { logLevel: 'warn', schema: { hide: true } }, page);
}

/**
 * Runs Vite's connect middlewares on the raw request; true when one of them answered (the response is then
 * over and Fastify must leave it alone: the caller hijacks the reply), false when they all passed it on.
 */
function viteAnswered(vite: ViteDevServer, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    // 'close' follows the end of a response, or a client that went away.
    const answered = () => resolve(true);
    res.once('close', answered);
    vite.middlewares(req, res, () => {
      res.off('close', answered);
      resolve(false);
    });
  });
}
