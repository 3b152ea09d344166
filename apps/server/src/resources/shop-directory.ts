import { isIP } from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { isValidSlug } from '@hornada/domain';
import type { Db } from '../db';
import { AppError } from '../lib/errors';

/** The bakery a request's host names, and the origin its absolute links are built on. */
export interface Shop {
  /** Null only on the bare host of a deployment that has no company yet. */
  companyId: string | null;
  /** `{protocol}//{host}[:port]`: PUBLIC_URL's protocol and port on the shop's own host name, never the request's. */
  origin: string;
}

/** Host names remembered at most; past it the memory starts again (a flood of made-up hosts cannot grow it). */
const MAX_REMEMBERED = 5000;

/**
 * Which bakery a request is for (docs/design.md §4): the bare PUBLIC_URL host (or `localhost` or an IP
 * address: the machine's own names) is the market (MARKET_COMPANY_ID or the demo), `{slug}.{PUBLIC_URL host}` the bakery of
 * that slug, any other host the bakery that lists it in its settings' `domains`, else none (404). Answers are
 * remembered until a settings change (here, or on another instance through the change feed) forgets them
 * all: a new bakery's settings are written with it, and domains live in the settings.
 */
export class ShopDirectory {
  private readonly known = new Map<string, Promise<Shop | null>>();
  private readonly slugs = new Map<string, string>();
  private readonly publicHost: string;
  /** The host name shops are under: PUBLIC_URL's, or `localhost` when that is a loopback address (below). */
  private readonly shopsHost: string;
  private readonly protocol: string;
  private readonly port: string;

  constructor(
    private readonly db: Db,
    publicUrl: string,
    private readonly marketCompanyId: () => Promise<string | null>,
  ) {
    const url = new URL(publicUrl);
    this.publicHost = url.hostname.toLowerCase();
    // An address has no subdomains: a development PUBLIC_URL on 127.0.0.1 puts its shops under `localhost`
    // (browsers resolve `*.localhost` to loopback: `horno-de-carlos.localhost:3000`).
    this.shopsHost = isLoopback(this.publicHost) ? 'localhost' : this.publicHost;
    this.protocol = url.protocol;
    this.port = url.port ? `:${url.port}` : '';
  }

  /** The shop a Host header names, or null. */
  resolve(hostHeader: string | undefined): Promise<Shop | null> {
    const host = hostNameOf(hostHeader);
    if (host === null) return Promise.resolve(null);
    // The machine's own names (`localhost`, an address: health checks, a proxy that does not pass the Host on)
    // are the deployment's bare host too.
    if (
      host === this.publicHost ||
      host === this.shopsHost ||
      host === 'localhost' ||
      isIP(host.replace(/^\[|\]$/g, '')) !== 0
    ) {
      return this.market();
    }
    let found = this.known.get(host);
    if (!found) {
      if (this.known.size >= MAX_REMEMBERED) this.known.clear();
      found = this.lookUp(host);
      // A failed read is not remembered: the next request asks again.
      found.catch(() => this.known.delete(host));
      this.known.set(host, found);
    }
    return found;
  }

  /** Forgets every answer (a settings change: a new bakery, or domains edited). */
  forget(): void {
    this.known.clear();
  }

  /** The origin a bakery's storefront is at: its slug's host name, else the market's (PUBLIC_URL). */
  async originOf(companyId: string): Promise<string> {
    const market = await this.marketCompanyId();
    if (companyId === market) return this.originAt(this.publicHost);
    let slug: string | null | undefined = this.slugs.get(companyId);
    if (slug === undefined) {
      const rows = await this.db.execute<{ slug: string | null }>(
        sql`SELECT slug FROM companies WHERE id = ${companyId}`,
      );
      slug = rows.rows[0]?.slug ?? null;
      // A slug never changes once given: remembered for good (a bounded map all the same).
      if (this.slugs.size >= MAX_REMEMBERED) this.slugs.clear();
      if (slug) this.slugs.set(companyId, slug);
    }
    return this.originAt(slug ? `${slug}.${this.shopsHost}` : this.publicHost);
  }

  private originAt(host: string): string {
    return `${this.protocol}//${host}${this.port}`;
  }

  private async market(): Promise<Shop> {
    return { companyId: await this.marketCompanyId(), origin: this.originAt(this.publicHost) };
  }

  private async lookUp(host: string): Promise<Shop | null> {
    const suffix = `.${this.shopsHost}`;
    if (host.endsWith(suffix)) {
      const label = host.slice(0, -suffix.length);
      // One label, and only one a slug may be: "WWW", "xn--…" or "a.b" name no bakery.
      if (!isValidSlug(label)) return null;
      const rows = await this.db.execute<{ id: string }>(sql`SELECT id FROM companies WHERE slug = ${label}`);
      const id = rows.rows[0]?.id;
      return id ? { companyId: id, origin: this.originAt(host) } : null;
    }
    const rows = await this.db.execute<{ company_id: string }>(
      sql`SELECT company_id FROM settings WHERE data->'domains' @> ${JSON.stringify([host])}::jsonb LIMIT 1`,
    );
    const id = rows.rows[0]?.company_id;
    return id ? { companyId: id, origin: this.originAt(host) } : null;
  }
}

/** 127.0.0.0/8 and ::1. */
const isLoopback = (host: string) => /^127\.\d+\.\d+\.\d+$/.test(host) || host === '[::1]' || host === '::1';

/**
 * The host name of a Host header, lower case, without its port or a final dot; null when it is missing or
 * not a plain host name (anything else names no bakery).
 */
export function hostNameOf(header: string | undefined): string | null {
  if (!header) return null;
  const h = header.trim().toLowerCase();
  const host = h.startsWith('[') ? h.slice(0, h.indexOf(']') + 1) : h.replace(/:\d*$/, '');
  const name = host.replace(/\.$/, '');
  if (!name || name.length > 253) return null;
  if (name.startsWith('[')) return isIP(name.slice(1, -1)) === 6 ? name : null;
  return /^[a-z0-9.-]+$/.test(name) ? name : null;
}

/** The Spanish 404 of a host that names no bakery (docs/design.md §4). */
export const unknownShop = () => new AppError(404, 'shops/unknown-host', 'No bakery at this address');

/**
 * The request's shop, read once a request (its context keeps it), from Fastify's `request.host`: the Host
 * header, or behind a proxy that TRUST_PROXY names the X-Forwarded-Host it sent. A client reaching the server
 * directly cannot choose the shop with an X-Forwarded-Host of its own (only its Host header, which names its
 * own request alone).
 */
export function shopOf(req: FastifyRequest): Promise<Shop | null> {
  return req.rc.shop();
}

/** The request's shop, or the Spanish 404 when its host names none. */
export async function requireShop(req: FastifyRequest): Promise<Shop> {
  const shop = await shopOf(req);
  if (!shop) throw unknownShop();
  return shop;
}
