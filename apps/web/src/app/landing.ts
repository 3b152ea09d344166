import type { Role } from '@hornada/domain/roles';
import { paths } from '../config/paths';

/**
 * Design §4's landing table: where each role lands, its 'Mi Cuenta' link and the logo's link. Apart from the
 * guard (guard.ts) because the header needs these on every storefront page and the guard only on guarded
 * routes, which load it with them (issue 14's first-load budget).
 */

/** What the guard needs of the session user (spec §3). */
export interface GuardUser {
  uid: string;
  role: Role;
  companyId: string | null;
}

/** Where a user lands after sign-in when no redirect target is allowed for them (design §4). */
export function landingPath(user: GuardUser | null): string {
  if (!user) return paths.home;
  switch (user.role) {
    case 'system_admin':
    case 'company_staff':
      return paths.dashboard.orders;
    case 'company_admin':
      return user.companyId === null ? paths.createBakery : paths.dashboard.orders;
    case 'delivery_assistant':
      return paths.driver.orders;
    case 'production_assistant':
      return paths.production.orders;
    case 'company_customer':
      return paths.home;
  }
}

/** 'Mi Cuenta' in the account menu (design §4's table). */
export function accountPath(user: GuardUser): string {
  switch (user.role) {
    case 'company_staff':
      return paths.dashboard.profile;
    case 'delivery_assistant':
      return paths.driver.profile;
    case 'production_assistant':
      return paths.production.profile;
    case 'system_admin':
    case 'company_admin':
    case 'company_customer':
      return paths.customer.profile;
  }
}

/** The logo's link: the user's landing page (design §4), `/` for guests. */
export function logoPath(user: GuardUser | null): string {
  return landingPath(user);
}
