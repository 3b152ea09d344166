import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AREAS, AREA_NAMES } from '@hornada/domain/areas';
import { mayOpenScreen } from '@hornada/domain/screens';
import { ROLES, type Role } from '@hornada/domain/roles';
import { guard, type GuardUser } from './guard';
import { navItems } from './navigation';
import { ROUTES, ROUTE_AREAS, accessOf, matchRoute, routeById } from './route-table';

const userOf = (role: Role): GuardUser => ({ uid: `u-${role}`, role, companyId: 'c1' });
const urlOf = (pattern: string): string => pattern.replace(/:[A-Za-z]+/g, 'x1');

describe('the composed route table', () => {
  it('types its ids: a typo does not compile', () => {
    // @ts-expect-error 'dashboard.ordrs' is not a RouteId
    expect(() => routeById('dashboard.ordrs')).toThrow();
    expect(routeById('dashboard.orders').pattern).toBe('/dashboard/orders');
  });

  it('has unique ids and unique patterns', () => {
    const ids = ROUTES.map((r) => r.id);
    const patterns = ROUTES.map((r) => r.pattern);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(patterns.filter((p, i) => patterns.indexOf(p) !== i)).toEqual([]);
  });

  it('gives every screen a title, an area and a permission, the permission in the same area', () => {
    for (const route of ROUTES) {
      expect(route.title.trim(), route.id).not.toBe('');
      expect(ROUTE_AREAS, route.id).toContain(route.area);
      expect(route.permission, route.id).toBeDefined();
      if (route.area === 'storefront' || route.area === 'auth') {
        expect(typeof route.permission, route.id).toBe('string');
      } else {
        expect(route.permission, route.id).toMatchObject({ area: route.area });
        expect(route.pattern.startsWith(`${AREAS[route.area].root}`), route.id).toBe(true);
      }
    }
  });

  it('renders the storefront on the server and everything else in the browser', () => {
    for (const route of ROUTES) {
      if (route.area === 'storefront') expect(route.page, route.id).toBeDefined();
      else expect(route.page, route.id).toBeUndefined();
      expect(route.page && route.lazy, route.id).toBeFalsy();
    }
  });

  it("forwards each area's root to its home, a screen of the area (the domain's areas)", () => {
    for (const area of AREA_NAMES) {
      const root = matchRoute(AREAS[area].root);
      expect(root?.redirect, area).toBe(AREAS[area].home);
      expect(matchRoute(AREAS[area].home)?.area, area).toBe(area);
      expect(matchRoute(AREAS[area].home)?.redirect, area).toBeUndefined();
    }
  });

  it('puts in the menus only screens without parameters, of the signed-in areas', () => {
    for (const route of ROUTES.filter((r) => r.icon)) {
      expect(AREA_NAMES as readonly string[], route.id).toContain(route.area);
      expect(route.pattern, route.id).not.toContain(':');
    }
  });
});

describe('the guard reads the domain areas', () => {
  it('lets a role into a screen exactly when the domain permission does, on every screen', () => {
    for (const route of ROUTES.filter((r) => accessOf(r) === 'auth')) {
      for (const role of ROLES) {
        const decision = guard({ path: urlOf(route.pattern), user: userOf(role) });
        const opens = mayOpenScreen(role, route.permission);
        if (opens) expect(decision.action === 'allow' || !('warn' in decision), `${role} ${route.id}`).toBe(true);
        else expect(decision, `${role} ${route.id}`).toMatchObject({ action: 'redirect', warn: expect.any(String) });
      }
    }
  });

  it('guards an unknown child of an area as the area: the roles the domain lists, and system_admin', () => {
    for (const area of AREA_NAMES) {
      for (const role of ROLES) {
        const decision = guard({ path: `${AREAS[area].root}/no-such-screen`, user: userOf(role) });
        const enters = role === 'system_admin' || AREAS[area].roles.includes(role);
        expect(decision.action, `${role} ${area}`).toBe(enters ? 'allow' : 'redirect');
      }
    }
  });
});

describe('the menus', () => {
  const labels = (area: (typeof AREA_NAMES)[number], role: Role) => navItems(area, userOf(role)).map((i) => i.label);

  it("list an area's screens in the table's order, only those the user may open", () => {
    expect(labels('dashboard', 'company_admin')).toEqual([
      'Pedidos',
      'Producción agrupada',
      'Producción por pedido',
      'Domicilios',
      'Pagos pendientes',
      'Ventas',
      'Productos',
      'Colecciones',
      'Marcas',
      'Recetas',
      'Ingredientes',
      'Usuarios',
      'Equipo',
      'Clientes mayoristas',
      'Pedidos recurrentes',
      'Mi panadería',
      'Configuración',
      'Mi perfil',
    ]);
    expect(labels('dashboard', 'company_staff')).not.toContain('Equipo');
    expect(labels('driver', 'delivery_assistant')).toEqual(['Mi ruta', 'Resumen del día', 'Mi perfil']);
    expect(labels('production', 'production_assistant')).toEqual(['Qué hornear', 'Resumen del día', 'Mi perfil']);
    expect(labels('customer', 'company_customer')).toEqual(['Mi perfil', 'Mis pedidos']);
    expect(labels('dashboard', 'company_customer')).toEqual([]);
  });

  it('link to the screens of their entries', () => {
    for (const item of navItems('dashboard', userOf('system_admin'))) {
      expect(routeById(matchRoute(item.to)!.id).title).toBe(item.label);
    }
  });
});

describe("the features' route files (the storefront's first load imports them all)", () => {
  const features = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../features');
  const files = readdirSync(features)
    .map((f) => path.join(features, f, 'routes.ts'))
    .filter((f) => existsSync(f));

  it('import no screen and no icon statically: only paths, the entry type and the storefront pages', () => {
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const imports = [...readFileSync(file, 'utf8').matchAll(/^import\s[^;]*?from\s+'([^']+)'/gms)].map((m) => m[1]);
      for (const source of imports) {
        expect(
          ['../../config/paths', '../../config/storefront-paths', '../../lib/route-entry', './pages'],
          `${file}: ${source}`,
        ).toContain(source);
      }
    }
  });
});
