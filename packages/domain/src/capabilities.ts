import type { Role } from './roles';

/**
 * What a role may do beyond a resource's CRUD (style habit 11): the words of the permission table that
 * are not a resource and an action. The server decides with `hasCapability`; nothing else spells a role.
 */
export const CAPABILITIES = {
  /** Acts on every company by its path (the tenant check lets it through). */
  'companies:all': ['system_admin'],
  /** Creates a bakery (POST /api/companies) while its account has none. */
  'bakery:create': ['company_admin'],
  /** Reads the outbox of mail kept without SMTP (GET /api/outbox). */
  'outbox:read': ['system_admin'],
  /** May be named an order's driver (`deliveryAssistantId`). */
  'deliveries:drive': ['delivery_assistant', 'company_staff', 'company_admin'],
  /** Assigns drivers and orders their routes (docs/design.md §3 operations). */
  'deliveries:assign': ['company_admin', 'company_staff', 'system_admin'],
  /** Reads a day's deliveries (a driver its own stops). */
  'deliveries:read': ['company_admin', 'company_staff', 'delivery_assistant', 'system_admin'],
  /** Reads a day's production. */
  'production:read': ['company_admin', 'company_staff', 'production_assistant', 'system_admin'],
  /** Reads the sales and unpaid reports. */
  'reports:read': ['company_admin', 'company_staff', 'system_admin'],
  /** Shops as a customer of its company: its carts and orders are its own (`customerId`). */
  'orders:own': ['company_customer'],
  /** Joins the market as a customer on its first Google sign-in. */
  'market:join': ['company_customer'],
  /**
   * A bakery registers people of this role itself (docs/product.md §7 POST /auth/register with a `companyId`); the
   * permission table's users:create says which of them a caller may register.
   */
  'accounts:registered-by-bakery': ['company_staff', 'company_customer'],
  /** Changes a placed order's content in the office ("Editar pedido") and pins its stop on the map. */
  'orders:edit': ['company_admin', 'company_staff', 'system_admin'],
} as const satisfies Record<string, readonly Role[]>;

export type Capability = keyof typeof CAPABILITIES;
export const CAPABILITY_NAMES = Object.keys(CAPABILITIES) as Capability[];

export function hasCapability(role: Role, capability: Capability): boolean {
  return (CAPABILITIES[capability] as readonly Role[]).includes(role);
}

/** The roles that have a capability (to filter users by it in SQL). */
export function rolesWith(capability: Capability): readonly Role[] {
  return CAPABILITIES[capability];
}

/**
 * Whether a user reaches a company's records at all: its own company, or every company with
 * `companies:all`. The door (a company's path) and the permission checks both ask this.
 */
export function reachesCompany(user: { role: Role; companyId: string | null }, companyId: string): boolean {
  return hasCapability(user.role, 'companies:all') || user.companyId === companyId;
}
