import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { shopOf } from '../../resources/shop-directory';
import { createStorefrontReader } from '../shops';

/** The built web app: apps/web/dist (browser) and apps/web/dist-server (the renderer). */
export interface WebBuild {
  clientDir: string;
  serverEntry: string;
}

/** The files a page loads (the renderer's `DocumentAssets`). */
export interface Assets {
  scripts: string[];
  styles: string[];
}

/** The renderer's contract (apps/web/src/entry.server.tsx), kept structural: the server never imports web code. */
export interface Renderer {
  render(
    request: Request,
    ctx: { storefront: RequestStorefront; assets: Assets },
  ): Promise<{ status: number; html: string } | { status: number; redirect: string }>;
}

type Reader = ReturnType<typeof createStorefrontReader>;

/** The reads a page's loaders get: the reader's, with the config of the request's shop. */
type RequestStorefront = Omit<Reader, 'config'> & { config(): ReturnType<Reader['config']> };

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
  isEntry?: boolean;
}

/**
 * The entry's script and the CSS of it and the chunks it imports, from Vite's manifest. No modulepreload
 * links: they put every first-load chunk at high priority beside the largest image, and Lighthouse (mobile)
 * scored `/` 88 with them against 96 without (LCP 3.3 s → 2.3 s, medians of 3); the browser finds the chunks
 * from the entry a little later, after the content has painted.
 */
export function readAssets(clientDir: string): Assets {
  const manifest = JSON.parse(readFileSync(path.join(clientDir, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >;
  const entry = Object.values(manifest).find((c) => c.isEntry);
  if (!entry) throw new Error('The web build has no entry in its manifest');
  const seen = new Set<string>();
  const styles = new Set(entry.css ?? []);
  const walk = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(chunk.file)) return;
    seen.add(chunk.file);
    for (const css of chunk.css ?? []) styles.add(css);
    for (const next of chunk.imports ?? []) walk(next);
  };
  for (const key of entry.imports ?? []) walk(key);
  const url = (file: string) => `/${file}`;
  return { scripts: [url(entry.file)], styles: [...styles].map(url) };
}

export function webBuildAt(webRoot: string): WebBuild | null {
  const build = {
    clientDir: path.join(webRoot, 'dist'),
    serverEntry: path.join(webRoot, 'dist-server/entry.server.js'),
  };
  return existsSync(path.join(build.clientDir, '.vite/manifest.json')) && existsSync(build.serverEntry) ? build : null;
}

/**
 * Serves the web app: hashed assets (a year, immutable; precompressed), the public files (revalidated), and
 * every other GET outside /api and /files rendered on the server (docs/design.md §1), with 404 for unknown pages.
 */
export async function registerWebRoutes(app: FastifyInstance, build: WebBuild): Promise<void> {
  const renderer = (await import(pathToFileURL(build.serverEntry).href)) as Renderer;
  const assets = readAssets(build.clientDir);
  const storefront = createStorefrontReader(app);

  await app.register(fastifyStatic, {
    root: build.clientDir,
    prefix: '/',
    wildcard: false,
    index: false,
    // Vite's manifest is for the server only.
    allowedPath: (pathName) => !pathName.startsWith('/.vite'),
    // The build writes .br and .gz beside each script and stylesheet (scripts/build.mjs, the smallest
    // settings, once): sent as they are when the client accepts them, so no request compresses an asset.
    preCompressed: true,
    globIgnore: ['**/*.br', '**/*.gz'],
    // Cache-Control is ours alone (setHeaders below): left on, @fastify/static's default `public, max-age=0`
    // is written after setHeaders and replaced the year-long policy of hashed assets.
    cacheControl: false,
    setHeaders(res, filePath) {
      // Hashed assets never change; anything else (the favicon) revalidates.
      res.setHeader(
        'Cache-Control',
        filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
      // The same URL is sent as brotli, gzip or plain by what the client accepts: caches must tell them apart.
      res.setHeader('Vary', 'Accept-Encoding');
    },
  });

  const page = async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.url.startsWith('/api/') || req.url.startsWith('/files/') || req.url.startsWith('/assets/')) {
      return reply.callNotFound();
    }
    return sendPage(req, reply, renderer, { storefront, assets });
  };
  // Pages, not API operations: out of the OpenAPI document.
  const pages = { schema: { hide: true } };
  app.get('/', pages, page);
  app.get('/*', pages, page);
}

/** Renders the request's URL and answers with the page or the redirect (also used by `npm run dev`). */
export async function sendPage(
  req: FastifyRequest,
  reply: FastifyReply,
  renderer: Renderer,
  ctx: { storefront: Reader; assets: Assets },
): Promise<FastifyReply> {
  const shop = await shopOf(req);
  // A host that names no bakery (docs/design.md §4): a Spanish page, not the market's shop under a stranger's name.
  if (!shop)
    return reply
      .status(404)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(UNKNOWN_SHOP_PAGE);
  // The origin is the shop's, never the Host header's: loaders read only the path and the query.
  // The root loader and the page's loader both read the config: once per request is enough.
  let config: ReturnType<Reader['config']> | undefined;
  const storefront = { ...ctx.storefront, config: () => (config ??= ctx.storefront.config(shop)) };
  const result = await renderer.render(new Request(`${shop.origin}${req.url}`), { storefront, assets: ctx.assets });
  if ('redirect' in result) return reply.redirect(result.redirect, result.status);
  return reply
    .status(result.status)
    .header('cache-control', 'no-cache')
    .type('text/html; charset=utf-8')
    .send(result.html);
}

/**
 * What a host that names no bakery shows: a page of its own, since no bakery's header applies (plain: the
 * content security policy refuses inline styles).
 */
const UNKNOWN_SHOP_PAGE = `<!doctype html>
<html lang="es-CO"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Panadería no encontrada</title>
</head><body><main><h1>No encontramos esta panadería</h1>
<p>Ninguna panadería tiene esta dirección. Revisa el enlace que te enviaron.</p></main></body></html>
`;
