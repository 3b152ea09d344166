import { useMemo } from 'react';
import { useRouteLoaderData } from 'react-router';
import { useStore } from 'zustand';
import { useActingCompany } from '../../lib/acting-company';
import { authStore } from '../../lib/auth/auth-store';
import { http, type HttpClient } from '../../lib/api/http';
import { createResourceService, type Http, type Resource, type ResourceService } from '../../lib/api/resource-service';
import { createResourceStore, type ResourceStore } from '../../lib/api/resource-store';
import type { PublicConfig } from '../../lib/api/storefront-api';

/**
 * The back office's way to a resource: the shared HTTP client shaped as the resource service wants it, one
 * service and list store per resource and company, and the company the signed-in user acts on.
 */

/** The app's HTTP client as the resource service's `Http` (query objects passed as the client's options). */
export function asResourceHttp(client: HttpClient): Http {
  return {
    get: (path, query) => client.get(path, { query }),
    list: async (path, query) => {
      const result = await client.list(path, { query });
      return { items: result.items as never[], total: result.total, page: result.page, perPage: result.perPage ?? 0 };
    },
    post: (path, body) => client.post(path, body),
    put: (path, body) => client.put(path, body),
    patch: (path, body) => client.patch(path, body),
    delete: (path) => client.delete(path),
  };
}

const resourceHttp = asResourceHttp(http);

/** A service for `resource` (the API's name, e.g. `productCollections`) of one company. */
export function resourceService<T extends Resource>(resource: string, companyId: string): ResourceService<T> {
  return createResourceService<T>(resource, resourceHttp, { companyId });
}

/**
 * The company the signed-in user works on: their own; for system_admin (no company of their own) the one
 * chosen in the header's switcher (lib/acting-company.ts), else the market's, from the public config. Null
 * until known, and null once signed out: a signed-in screen still on its way out after a sign-out must not
 * read its company again without a session (a 401 each).
 */
export function useCompanyId(): string | null {
  const signedIn = useStore(authStore, (s) => s.user !== null);
  const own = useStore(authStore, (s) => s.user?.companyId ?? null);
  const chosen = useActingCompany();
  // The market's, as the root route read it for the header (every page has it).
  const market = useRouteLoaderData<{ config: PublicConfig }>('root')?.config.companyId ?? null;
  return signedIn ? (own ?? chosen?.id ?? market) : null;
}

/** A fresh list store for `resource` of `companyId` (one per screen: screens do not share their lists). */
export function useResourceStore<T extends Resource>(
  resource: string,
  companyId: string | null,
): { store: ResourceStore<T>; service: ResourceService<T> } | null {
  return useMemo(() => {
    if (!companyId) return null;
    const service = resourceService<T>(resource, companyId);
    return { service, store: createResourceStore(service) };
  }, [resource, companyId]);
}
