import type { RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { AREA_NAMES } from '@hornada/domain/areas';
import { clientOnlyRoutes } from './client-routes';
import { clientOnlyChildren } from './client-only-table';
import { deferredClientOnlyRoutes } from './deferred-routes';
import { ROUTES } from './route-table';

describe("a screen's loader", () => {
  it('runs only once the guard lets the user in: a guest is sent to sign in and the screen reads nothing', async () => {
    const screen = ROUTES.find((r) => r.id === 'dashboard.productionGrouped')!;
    const read = vi.fn(async () => 'data');
    const route = clientOnlyRoutes.page({ ...screen, lazy: async () => ({ loader: read }) });
    const request = new Request(`http://localhost${screen.pattern}`);
    const answer: unknown = await (route.loader as (args: unknown) => Promise<unknown>)({ request, params: {} }).catch(
      (thrown: unknown) => thrown,
    );
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).headers.get('Location')).toMatch(/^\/login/);
    expect(read).not.toHaveBeenCalled();
  });
});

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
    expect(typeof loaded.loader).toBe('function');
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

describe("a screen's parts", () => {
  it('nest outermost first: the first keeps the path, the screen keeps its id as the innermost index child', () => {
    const [area] = clientOnlyChildren(deferredClientOnlyRoutes).filter((r) => r.id === 'area.dashboard');
    const frame = area!.children!.find((r) => r.id === 'dashboard.orders.frame')!;
    expect(frame.path).toBe(ROUTES.find((r) => r.id === 'dashboard.orders')!.pattern);
    const [panel] = frame.children!;
    expect(panel).toMatchObject({ id: 'dashboard.orders.panel' });
    expect(panel!.path).toBeUndefined();
    const [screen] = panel!.children!;
    expect(screen).toMatchObject({ id: 'dashboard.orders', index: true });
    expect(screen!.path).toBeUndefined();
  });

  it('run the guard before their own loader, and show their screen once loaded (no page of their own)', async () => {
    const read = vi.fn(async () => 'part');
    const screen = ROUTES.find((r) => r.id === 'dashboard.orders')!;
    const part = clientOnlyRoutes.part(
      { ...screen, lazy: async () => ({ parts: { frame: { loader: read } } }) },
      'frame',
    );
    const request = new Request('http://localhost/dashboard/orders');
    const answer: unknown = await (part.loader as (args: unknown) => Promise<unknown>)({ request, params: {} }).catch(
      (thrown: unknown) => thrown,
    );
    expect((answer as Response).headers.get('Location')).toMatch(/^\/login/);
    expect(read).not.toHaveBeenCalled();
    const loaded = await (part.lazy as () => Promise<Partial<RouteObject>>)();
    expect(typeof loaded.Component).toBe('function');
  });

  it("are each exported by their screen's module under the name its entry gives", async () => {
    for (const route of ROUTES.filter((r) => r.parts)) {
      const module = await route.lazy!();
      for (const name of route.parts!)
        expect(typeof module.parts?.[name]?.loader, `${route.id} ${name}`).toBe('function');
    }
  });
});
