/** Roles of docs/product.md §6. */
export const ROLES = [
  'system_admin',
  'company_admin',
  'company_staff',
  'company_customer',
  'delivery_assistant',
  'production_assistant',
] as const;
export type Role = (typeof ROLES)[number];

/**
 * Each role by name, for data that names one (a new account's role, a filter, the demo accounts). Who
 * may do what is never decided by comparing roles: that is the permission table's (policy.ts,
 * capabilities.ts), and a lint rule keeps role strings inside this package.
 */
export const ROLE = {
  systemAdmin: 'system_admin',
  companyAdmin: 'company_admin',
  companyStaff: 'company_staff',
  companyCustomer: 'company_customer',
  deliveryAssistant: 'delivery_assistant',
  productionAssistant: 'production_assistant',
} as const satisfies Record<string, Role>;

/** The role of an account a shopper makes or is given (a shop's sign-up, checkout, Google, a bakery's customer). */
export const SHOPPER_ROLE = ROLE.companyCustomer;
/** The role of an account that founds a bakery (sign-up as an owner, then POST /api/companies). */
export const FOUNDER_ROLE = ROLE.companyAdmin;

/** Roles that belong to one company (every role but system_admin). */
export const COMPANY_ROLES = ROLES.filter((r) => r !== 'system_admin') as Exclude<Role, 'system_admin'>[];
export type CompanyRole = Exclude<Role, 'system_admin'>;

/** People who run the back office of a bakery (docs/design.md §4 "admin, staff"). */
export const BACK_OFFICE_ROLES: readonly Role[] = ['company_admin', 'company_staff'];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
