import { AREAS, ROLE_PLACES, landingOf, type Area, type Place, type PlacedUser } from '@hornada/domain/areas';
import { PROFILE_PATHS, storefrontPaths as paths } from '../config/storefront-paths';

/**
 * Design §4's landing table (packages/domain/src/areas.ts) as paths: where each role lands, its 'Mi Cuenta'
 * link and the logo's link. Apart from the guard (guard.ts) because the header needs these on every
 * storefront page and the guard only on guarded routes, which load it with them (the storefront's first-load budget).
 */

/** What the guard needs of the session user (docs/product.md §3). */
export interface GuardUser extends PlacedUser {
  uid: string;
}

/** A place's path: an area's home (where one lands) or root (where the guard sends one back). */
export function placePath(place: Place, end: 'home' | 'root'): string {
  if (place === 'storefront') return paths.home;
  if (place === 'bakerySetup') return paths.createBakery;
  return AREAS[place][end];
}

/** Where a user lands after sign-in when no redirect target is allowed for them (docs/design.md §4). */
export function landingPath(user: GuardUser | null): string {
  return placePath(landingOf(user), 'home');
}

const PROFILE: Record<Area, string> = PROFILE_PATHS;

/** 'Mi Cuenta' in the account menu (docs/design.md §4's table): the profile page of the role's account area. */
export function accountPath(user: GuardUser): string {
  return PROFILE[ROLE_PLACES[user.role].account];
}

/** The logo's link: the user's landing page (docs/design.md §4), `/` for guests. */
export function logoPath(user: GuardUser | null): string {
  return landingPath(user);
}
