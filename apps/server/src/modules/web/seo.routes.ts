import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PublicCache } from '../../resources/public-cache';
import { requireShop } from '../../resources/shop-directory';
import { createStorefrontReader } from '../shops';

/**
 * The storefront's public paths, as apps/web/src/config/paths.ts spells them (the server never imports web
 * code; e2e/seo.spec.ts opens every URL of the sitemap, so a path that drifts fails there).
 */
const PUBLIC_PATHS = {
  home: '/',
  privacy: '/privacy',
  collection: (id: string) => `/productos/${encodeURIComponent(id)}`,
  product: (id: string) => `/products/show/${encodeURIComponent(id)}`,
} as const;

/**
 * What crawlers must not index: the private areas (client-only, so only robots.txt can say it before a
 * page renders), the API, and the cart and order pages (one visitor's, never a search result).
 */
export const ROBOTS_DISALLOW = [
  '/dashboard',
  '/driver',
  '/production',
  '/customer',
  '/api',
  '/carrito',
  '/resumen-de-pedido',
  '/respuesta-de-pago',
] as const;

const xmlEscape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

interface Dated {
  id: string;
  updatedAt: string | null;
}

/** The id and last change of public rows (read through JSON: dates are ISO strings). */
const dated = (rows: readonly Record<string, unknown>[]): Dated[] =>
  rows.map((r) => ({ id: String(r.id), updatedAt: typeof r.updatedAt === 'string' ? r.updatedAt : null }));

/** `<url>` entries of a sitemap (sitemaps.org 0.9); `lastmod` as the date the row last changed. */
function sitemapXml(urls: { loc: string; lastmod?: string | null }[]): string {
  const entries = urls.map(
    (u) =>
      `<url><loc>${xmlEscape(u.loc)}</loc>${u.lastmod ? `<lastmod>${xmlEscape(u.lastmod.slice(0, 10))}</lastmod>` : ''}</url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</urlset>\n`;
}

/** Sends a small generated text with an ETag: cached by clients and proxies, revalidated on each use. */
function sendRevalidated(req: FastifyRequest, reply: FastifyReply, type: string, body: string) {
  const etag = PublicCache.etagOf(body);
  void reply.header('etag', etag).header('cache-control', 'public, no-cache').type(type);
  const match = req.headers['if-none-match'];
  if (match && match.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
    return reply.status(304).send();
  }
  return reply.send(body);
}

/**
 * GET /sitemap.xml and /robots.txt (issue "Storefront and cart"): the sitemap lists the home page, every
 * active collection and product (the same reads as the server-rendered pages, so an inactive one never
 * appears) and the privacy page, as absolute URLs on the shop's origin (the host's bakery, docs/design.md §4).
 */
export function registerSeoRoutes(app: FastifyInstance): void {
  const storefront = createStorefrontReader(app);

  app.get('/robots.txt', { schema: { hide: true } }, async (req, reply) => {
    const { origin } = await requireShop(req);
    const absolute = (p: string) => `${origin}${p}`;
    const body = [
      'User-agent: *',
      'Allow: /',
      ...ROBOTS_DISALLOW.map((p) => `Disallow: ${p}`),
      '',
      `Sitemap: ${absolute('/sitemap.xml')}`,
      '',
    ].join('\n');
    return sendRevalidated(req, reply, 'text/plain; charset=utf-8', body);
  });

  app.get('/sitemap.xml', { schema: { hide: true } }, async (req, reply) => {
    // The host's bakery, its URLs on its own origin (docs/design.md §4).
    const { companyId, origin } = await requireShop(req);
    const absolute = (p: string) => `${origin}${p}`;
    const [collections, products] = companyId
      ? await Promise.all([storefront.collections(companyId).then(dated), storefront.products(companyId).then(dated)])
      : [[], []];
    const body = sitemapXml([
      { loc: absolute(PUBLIC_PATHS.home) },
      ...collections.map((c) => ({ loc: absolute(PUBLIC_PATHS.collection(c.id)), lastmod: c.updatedAt })),
      ...products.map((p) => ({ loc: absolute(PUBLIC_PATHS.product(p.id)), lastmod: p.updatedAt })),
      { loc: absolute(PUBLIC_PATHS.privacy) },
    ]);
    return sendRevalidated(req, reply, 'application/xml; charset=utf-8', body);
  });
}
