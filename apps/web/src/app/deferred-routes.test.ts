import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AREA_NAMES } from '@hornada/domain/areas';
import { clientOnlyRoutes } from './client-routes';
import { deferredClientOnlyRoutes } from './deferred-routes';
import { ROUTES } from './route-table';

describe('the client-only routes loaded on first use', () => {
  it('match the routes they stand for: same ids and paths for every area', () => {
    for (const area of AREA_NAMES) {
      const real = clientOnlyRoutes.area(area, []);
      const deferred = deferredClientOnlyRoutes.area(area, []);
      expect({ id: deferred.id, path: deferred.path }).toEqual({ id: real.id, path: real.path });
    }
  });

  it("give each page and area, once loaded, the real route's guard and its screen", async () => {
    const page = ROUTES.find((r) => r.area === 'auth');
    expect(page).toBeDefined();
    const deferred = deferredClientOnlyRoutes.page(page!);
    expect(deferred.loader).toBeUndefined(); // nothing of the guard before the module loads
    const lazy = deferred.lazy as () => Promise<Partial<RouteObject>>;
    const loaded = await lazy();
    expect(loaded.loader).toBe(clientOnlyRoutes.page(page!).loader);
    expect(typeof loaded.Component).toBe('function');
    expect(loaded).not.toHaveProperty('lazy');

    const area = deferredClientOnlyRoutes.area(AREA_NAMES[0]!, []);
    const areaProps = await (area.lazy as () => Promise<Partial<RouteObject>>)();
    expect(areaProps.loader).toBe(clientOnlyRoutes.area(AREA_NAMES[0]!, []).loader);
    expect(typeof areaProps.Component).toBe('function');
    expect(areaProps).not.toHaveProperty('id');
    expect(areaProps).not.toHaveProperty('children');
  });
});
