import type { Capability } from './capabilities';
import type { Action, Grant, ResourceName } from './policy';
import type { Role } from './roles';

/**
 * The signed-in areas of the web app (docs/product.md §2), who enters each, and where each role lands (docs/design.md §4): the
 * one place that says so, read by the web's guard and menus. Code outside this package names no role: it
 * asks these tables and functions. Whether a role may open a screen is screens.ts's (apart: it reads the
 * permission table, which the storefront's first page does not load).
 */

export const AREA_NAMES = ['dashboard', 'driver', 'production', 'customer'] as const;
export type Area = (typeof AREA_NAMES)[number];

export interface AreaDef {
  /** The area's own URL: every path under it (a known screen or not) is guarded as the area is. */
  root: string;
  /** Where the root forwards (docs/product.md §2), and where a role landing in the area lands (docs/design.md §4). */
  home: string;
  /** Who enters it besides system_admin, who enters every area (docs/product.md §2/§6). */
  roles: readonly Role[];
  /** Its screens act on the user's company: a role that sets up its bakery first needs one (docs/design.md §4). */
  needsCompany: boolean;
}

export const AREAS: Readonly<Record<Area, AreaDef>> = {
  dashboard: {
    root: '/dashboard',
    home: '/dashboard/orders',
    roles: ['company_admin', 'company_staff'],
    needsCompany: true,
  },
  driver: {
    root: '/driver',
    home: '/driver/orders',
    roles: ['company_admin', 'company_staff', 'delivery_assistant'],
    needsCompany: true,
  },
  production: {
    root: '/production',
    home: '/production/orders',
    roles: ['company_admin', 'company_staff', 'production_assistant'],
    needsCompany: true,
  },
  customer: {
    root: '/customer',
    home: '/customer/profile',
    roles: ['company_customer', 'company_admin'],
    needsCompany: false,
  },
};

/** A place a role is sent to: an area, the storefront (`/`), or the page that creates a bakery. */
export type Place = Area | 'storefront' | 'bakerySetup';

export interface RolePlaces {
  /** Where it lands after sign-in when no redirect target is allowed for it (docs/design.md §4). */
  landing: Area | 'storefront';
  /** The area whose profile page is its 'Mi Cuenta' (docs/design.md §4). */
  account: Area;
  /** Where the guard sends it, silently, from a screen it may not open (docs/product.md §2): an area's root or `/`. */
  denied: Area | 'storefront';
  /** It owns a bakery: while its companyId is null it lands on, and is sent to, the bakery setup (docs/design.md §4). */
  ownsBakery: boolean;
  /** It shops: a guest's cart joins its own when it signs in, and leaves the browser with it. */
  shops: boolean;
}

/** Design §4's landing table and docs/product.md §2's silent redirects. */
export const ROLE_PLACES: Readonly<Record<Role, RolePlaces>> = {
  system_admin: { landing: 'dashboard', account: 'customer', denied: 'storefront', ownsBakery: false, shops: false },
  company_admin: { landing: 'dashboard', account: 'customer', denied: 'storefront', ownsBakery: true, shops: false },
  company_staff: { landing: 'dashboard', account: 'dashboard', denied: 'storefront', ownsBakery: false, shops: false },
  company_customer: {
    landing: 'storefront',
    account: 'customer',
    denied: 'storefront',
    ownsBakery: false,
    shops: true,
  },
  delivery_assistant: { landing: 'driver', account: 'driver', denied: 'driver', ownsBakery: false, shops: false },
  production_assistant: {
    landing: 'production',
    account: 'production',
    denied: 'production',
    ownsBakery: false,
    shops: false,
  },
};

/** What the session knows of a user that these decisions read. */
export interface PlacedUser {
  role: Role;
  companyId: string | null;
}

/** A bakery owner who has not created its bakery yet (docs/design.md §4: it is sent to do so first). */
export function needsBakery(user: PlacedUser): boolean {
  return ROLE_PLACES[user.role].ownsBakery && user.companyId === null;
}

/** Whether the user owns the bakery it belongs to. */
export function ownsItsBakery(user: PlacedUser): boolean {
  return ROLE_PLACES[user.role].ownsBakery && user.companyId !== null;
}

/**
 * Whether the platform (Hornada) speaks to the user in account mail and pages: a bakery's owner,
 * someone signing up to create one, a system admin; a bakery's other people hear from their bakery.
 */
export function hearsFromPlatform(user: PlacedUser): boolean {
  return user.companyId === null || ROLE_PLACES[user.role].ownsBakery || user.role === 'system_admin';
}

/** Where the user lands after sign-in (docs/design.md §4); the storefront for a guest. */
export function landingOf(user: PlacedUser | null): Place {
  if (!user) return 'storefront';
  return needsBakery(user) ? 'bakerySetup' : ROLE_PLACES[user.role].landing;
}

/** Whether the area sends the user to set up its bakery first (docs/design.md §4). */
export function mustSetUpBakeryFor(user: PlacedUser, area: Area): boolean {
  return AREAS[area].needsCompany && needsBakery(user);
}

/** An action on a resource of the permission table (policy.ts), as `resource:action`. */
export type ResourceAction = `${ResourceName}:${Action}`;

/**
 * What opening a screen needs, in words that name no role: everyone; signed-out visitors only; any
 * signed-in user; or entering an area and, where the screen reads or writes a resource, that action of the
 * permission table (with `grant`, that grant exactly: the staff screen needs the whole company's users, not
 * only its customers), and where it does what is no resource's CRUD (production, deliveries, reports), that
 * capability of the permission table (capabilities.ts).
 */
export type ScreenPermission =
  'everyone' | 'guests' | 'signedIn' | { area: Area; needs?: ResourceAction; grant?: Grant; capability?: Capability };
