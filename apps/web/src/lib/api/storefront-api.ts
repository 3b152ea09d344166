import type { Product, ProductCollection } from '@hornada/domain/schemas/catalogue';
import type { PublicConfig } from '@hornada/domain/schemas/config';
import type { Settings } from '@hornada/domain/schemas/settings';

export type { PublicConfig };
import type { HttpClient, RequestOptions } from './http';

/**
 * What the storefront's route loaders read. On the server it is implemented over the resource services
 * (docs/design.md §1: loaders call services directly, never HTTP to the same server) and handed to the loaders in
 * the request context; in the browser it is the HTTP API. Both return the public field set only.
 */

/** The public settings: everything but the private fields (docs/design.md §4). */
export type PublicSettings = Omit<Settings, 'productionLeadDays' | 'targetMargin' | 'newOrderEmail'>;

export interface StorefrontApi {
  config(): Promise<PublicConfig>;
  /** Active collections, by sortOrder then name. */
  collections(companyId: string): Promise<ProductCollection[]>;
  /** Active products, by sortOrder then name. */
  products(companyId: string): Promise<Product[]>;
  /** One active product, or null when it is unknown or inactive. */
  product(companyId: string, id: string): Promise<Product | null>;
  settings(companyId: string): Promise<Partial<PublicSettings>>;
}

/** At most this many products and collections are read for the storefront: far above a bakery's catalogue. */
export const STOREFRONT_LIMIT = 500;

/** The storefront's lists, in the order the shop shows them. */
export const STOREFRONT_SORT = 'sortOrder';

/** What the storefront's API uses of an HTTP client. */
export type StorefrontClient = Pick<HttpClient, 'get' | 'list'>;

/**
 * The browser's client (http.ts), loaded with the first loader that runs in the browser (a navigation): the
 * first page's data came with its HTML (the storefront's first-load budget).
 */
const loadHttp = async () => (await import('./http')).http;
const browserClient: StorefrontClient = {
  get: async <T>(path: string, options?: RequestOptions) => (await loadHttp()).get<T>(path, options),
  list: async <T>(path: string, options?: RequestOptions) => (await loadHttp()).list<T>(path, options),
};

export function createHttpStorefrontApi(client: StorefrontClient = browserClient): StorefrontApi {
  const base = (companyId: string) => `/companies/${encodeURIComponent(companyId)}`;
  const list = { per_page: STOREFRONT_LIMIT, sort: STOREFRONT_SORT };
  // Read once for the page's life (every page loader needs the company); a failed read is tried again.
  let config: Promise<PublicConfig> | null = null;
  return {
    config: () =>
      (config ??= client.get<PublicConfig>('/config').catch((err: unknown) => {
        config = null;
        throw err;
      })),
    collections: async (companyId) =>
      (await client.list<ProductCollection>(`${base(companyId)}/productCollections`, { query: list })).items,
    products: async (companyId) => (await client.list<Product>(`${base(companyId)}/products`, { query: list })).items,
    async product(companyId, id) {
      try {
        return await client.get<Product>(`${base(companyId)}/products/${encodeURIComponent(id)}`);
      } catch (err) {
        if (err instanceof Error && 'status' in err && err.status === 404) return null;
        throw err;
      }
    },
    settings: (companyId) => client.get<Partial<PublicSettings>>(`${base(companyId)}/settings`),
  };
}

let browserApi: StorefrontApi | null = null;

/** The loaders' API: the server's from the request context, else (in the browser) the HTTP one. */
export function storefrontApi(context: unknown): StorefrontApi {
  const fromServer = (context as { storefront?: StorefrontApi } | null | undefined)?.storefront;
  if (fromServer) return fromServer;
  browserApi ??= createHttpStorefrontApi();
  return browserApi;
}
