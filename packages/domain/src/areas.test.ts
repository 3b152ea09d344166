import { describe, expect, it } from 'vitest';
import { AREAS, AREA_NAMES, ROLE_PLACES, landingOf, mustSetUpBakeryFor, needsBakery, type Area } from './areas';
import { CAPABILITY_NAMES, hasCapability } from './capabilities';
import { mayOpenScreen } from './screens';
import { ROLE, ROLES, type Role } from './roles';

const user = (role: Role, companyId: string | null = 'c1') => ({ role, companyId });

describe('the areas and landing table (docs/product.md §2, docs/design.md §4)', () => {
  it('roots each area under its own URL, its home inside it', () => {
    for (const area of AREA_NAMES) {
      expect(AREAS[area].root).toBe(`/${area}`);
      expect(AREAS[area].home.startsWith(`${AREAS[area].root}/`), area).toBe(true);
    }
  });

  it('lands each role where docs/design.md §4 says', () => {
    const landings = Object.fromEntries(ROLES.map((role) => [role, landingOf(user(role))]));
    expect(landings).toEqual({
      system_admin: 'dashboard',
      company_admin: 'dashboard',
      company_staff: 'dashboard',
      company_customer: 'storefront',
      delivery_assistant: 'driver',
      production_assistant: 'production',
    });
    expect(landingOf(null)).toBe('storefront');
    expect(landingOf(user(ROLE.companyAdmin, null))).toBe('bakerySetup');
  });

  it('sends each role only to places it may open: its landing, its account and where it is sent back', () => {
    for (const role of ROLES) {
      const places = ROLE_PLACES[role];
      for (const place of [places.landing, places.account, places.denied]) {
        if (place === 'storefront') continue;
        expect(mayOpenScreen(role, { area: place }), `${role} → ${place}`).toBe(true);
      }
    }
  });

  it('asks a bakery owner without a bakery to set it up before the company areas only', () => {
    const owner = user(ROLE.companyAdmin, null);
    expect(needsBakery(owner)).toBe(true);
    expect(needsBakery(user(ROLE.companyAdmin))).toBe(false);
    expect(needsBakery(user(ROLE.companyStaff, null))).toBe(false);
    const sent = AREA_NAMES.filter((area: Area) => mustSetUpBakeryFor(owner, area));
    expect(sent).toEqual(['dashboard', 'driver', 'production']);
  });
});

describe('mayOpenScreen', () => {
  it('reads everyone, guests and signed-in users without naming a role', () => {
    expect(mayOpenScreen(null, 'everyone')).toBe(true);
    expect(mayOpenScreen(null, 'guests')).toBe(true);
    expect(mayOpenScreen(null, 'signedIn')).toBe(false);
    for (const role of ROLES) {
      expect(mayOpenScreen(role, 'everyone')).toBe(true);
      expect(mayOpenScreen(role, 'guests')).toBe(false);
      expect(mayOpenScreen(role, 'signedIn')).toBe(true);
    }
  });

  it('lets into an area the roles it lists and system_admin, narrowed by the permission table', () => {
    for (const area of AREA_NAMES) {
      expect(mayOpenScreen(null, { area })).toBe(false);
      for (const role of ROLES) {
        const listed = role === ROLE.systemAdmin || AREAS[area].roles.includes(role);
        expect(mayOpenScreen(role, { area }), `${role} ${area}`).toBe(listed);
      }
    }
    // Production assistants read ingredients, but do not enter the dashboard.
    expect(mayOpenScreen(ROLE.productionAssistant, { area: 'dashboard', needs: 'ingredients:read' })).toBe(false);
    expect(mayOpenScreen(ROLE.companyStaff, { area: 'dashboard', needs: 'settings:update' })).toBe(false);
    expect(mayOpenScreen(ROLE.companyAdmin, { area: 'dashboard', needs: 'settings:update' })).toBe(true);
    // Staff read customers among users, not the whole company's users.
    expect(mayOpenScreen(ROLE.companyStaff, { area: 'dashboard', needs: 'users:read' })).toBe(true);
    expect(mayOpenScreen(ROLE.companyStaff, { area: 'dashboard', needs: 'users:read', grant: 'company' })).toBe(false);
    expect(mayOpenScreen(ROLE.systemAdmin, { area: 'dashboard', needs: 'users:read', grant: 'company' })).toBe(true);
  });

  it('opens a screen that needs a capability to exactly the roles of its area that have it', () => {
    for (const area of AREA_NAMES) {
      for (const capability of CAPABILITY_NAMES) {
        for (const role of ROLES) {
          const enters = role === ROLE.systemAdmin || AREAS[area].roles.includes(role);
          expect(mayOpenScreen(role, { area, capability }), `${role} ${area} ${capability}`).toBe(
            enters && (role === ROLE.systemAdmin || hasCapability(role, capability)),
          );
        }
      }
    }
    // A driver enters its area but reads no sales report there.
    expect(mayOpenScreen(ROLE.deliveryAssistant, { area: 'driver', capability: 'deliveries:read' })).toBe(true);
    expect(mayOpenScreen(ROLE.deliveryAssistant, { area: 'driver', capability: 'reports:read' })).toBe(false);
  });
});
