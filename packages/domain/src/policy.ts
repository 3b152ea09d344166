import { hasCapability, type Capability } from './capabilities';
import type { CompanyRole, Role } from './roles';

/**
 * Who may do what (docs/design.md §4, style habit 11): the one permission table. The server's routes, its live
 * feed, settings and identity read it, and the web's guard and menus read the same table.
 *
 * A grant names the records of the caller's own company a role reaches:
 * - `company`: every record of the company;
 * - `customers`: users whose role is company_customer (staff among users);
 * - `assigned`: records assigned to the caller (a driver's orders, with the orders issue);
 * - `own`: the caller's own records (a customer's orders, with the orders issue).
 * Every grant other than `company` is a row rule the resource's definition implements in SQL and in
 * code. A system_admin may do everything on every company. A role without a grant gets 403 in its own
 * company; another company's private records are a 404 (never confirmed to exist).
 */
export type Grant = 'company' | 'customers' | 'assigned' | 'own';
export type Action = 'read' | 'create' | 'update' | 'delete';
export const ACTIONS: readonly Action[] = ['read', 'create', 'update', 'delete'];
export type Grants = Partial<Record<CompanyRole, Grant>>;

export interface ResourcePolicy {
  /**
   * Everyone (guests, customers, other companies) reads the public records of this resource, and only
   * these fields of them (docs/design.md §4: wholesale prices, recipes and costs stay in the back office). A
   * role with its own read grant reads every field.
   */
  public?: { fields: readonly string[] };
  read: Grants;
  create: Grants;
  update: Grants;
  delete: Grants;
  /** Fields a role may write when it may not write every field. */
  writable?: Partial<Record<CompanyRole, readonly string[]>>;
}

const BACK_OFFICE: Grants = { company_admin: 'company', company_staff: 'company' };
const WITH_PRODUCTION: Grants = { ...BACK_OFFICE, production_assistant: 'company' };
const ADMIN: Grants = { company_admin: 'company' };
const BASE_FIELDS = ['id', 'companyId', 'createdAt', 'updatedAt', 'deletedAt'] as const;

/** Products as a guest or a customer sees them: no wholesale price, no recipe (docs/design.md §4). */
export const PRODUCT_PUBLIC_FIELDS = [
  ...BASE_FIELDS,
  'name',
  'description',
  'price',
  'collectionId',
  'brandId',
  'images',
  'active',
  'allergens',
  'sortOrder',
] as const;
export const PRODUCT_COLLECTION_PUBLIC_FIELDS = [
  ...BASE_FIELDS,
  'name',
  'description',
  'image',
  'sortOrder',
  'active',
] as const;
export const BRAND_PUBLIC_FIELDS = [...BASE_FIELDS, 'name', 'description', 'logo'] as const;
/** Settings as everyone reads them: all but productionLeadDays and targetMargin (docs/design.md §4). */
export const SETTINGS_PUBLIC_FIELDS = [
  'companyId',
  'updatedAt',
  'marketName',
  'logo',
  'phone',
  'whatsapp',
  'address',
  'location',
  'timeZone',
  'deliveryFee',
  'freeDeliveryFrom',
  'minimumOrder',
  'orderLeadHours',
  'deliveryDays',
  'deliveryWindows',
  'blackoutDates',
  'pickupEnabled',
  'paymentMethods',
  'transferInstructions',
  'privacyPolicy',
  // The shop's custom host names: anyone reaching the shop already knows them (docs/design.md §4).
  'domains',
] as const;

export const POLICY = {
  products: {
    public: { fields: PRODUCT_PUBLIC_FIELDS },
    read: BACK_OFFICE,
    create: BACK_OFFICE,
    update: BACK_OFFICE,
    delete: BACK_OFFICE,
  },
  productCollections: {
    public: { fields: PRODUCT_COLLECTION_PUBLIC_FIELDS },
    read: BACK_OFFICE,
    create: BACK_OFFICE,
    update: BACK_OFFICE,
    delete: BACK_OFFICE,
  },
  brands: {
    public: { fields: BRAND_PUBLIC_FIELDS },
    read: BACK_OFFICE,
    create: BACK_OFFICE,
    update: BACK_OFFICE,
    delete: BACK_OFFICE,
  },
  ingredients: { read: WITH_PRODUCTION, create: BACK_OFFICE, update: BACK_OFFICE, delete: BACK_OFFICE },
  recipes: { read: WITH_PRODUCTION, create: BACK_OFFICE, update: BACK_OFFICE, delete: BACK_OFFICE },
  b2bClients: { read: BACK_OFFICE, create: BACK_OFFICE, update: BACK_OFFICE, delete: BACK_OFFICE },
  /** A B2B client's standing orders (docs/design.md §3); the system makes their orders (actors.ts). */
  standingOrders: { read: BACK_OFFICE, create: BACK_OFFICE, update: BACK_OFFICE, delete: BACK_OFFICE },
  /** Staff read customers and register them (docs/design.md §4); the admin manages everyone. */
  users: {
    read: { company_admin: 'company', company_staff: 'customers' },
    create: { company_admin: 'company', company_staff: 'customers' },
    update: ADMIN,
    delete: ADMIN,
  },
  /**
   * Orders (docs/design.md §5): the back office and production read all of the company's, a driver those
   * assigned to it, a customer its own. Status moves are the role table of order-status.ts.
   */
  orders: {
    read: {
      ...WITH_PRODUCTION,
      delivery_assistant: 'assigned',
      company_customer: 'own',
    },
    create: BACK_OFFICE,
    update: {
      ...WITH_PRODUCTION,
      delivery_assistant: 'assigned',
      company_customer: 'own',
    },
    delete: ADMIN,
    writable: {
      production_assistant: ['status', 'producedQuantities'],
      delivery_assistant: ['status', 'cashCollected', 'routePosition', 'notes', 'notReceived'],
      company_customer: ['status', 'cancelReason'],
    },
  },
  /** One a company: everyone reads the public part; the back office and production read all of it. */
  settings: {
    public: { fields: SETTINGS_PUBLIC_FIELDS },
    read: WITH_PRODUCTION,
    create: {},
    update: ADMIN,
    delete: {},
  },
  /**
   * Uploaded images (`/api/companies/{companyId}/files`): the back office uploads and deletes them. A file
   * is never changed (a new upload is a new path); anyone downloads one at its URL, as the storefront does.
   */
  files: { read: BACK_OFFICE, create: BACK_OFFICE, update: {}, delete: BACK_OFFICE },
} as const satisfies Record<string, ResourcePolicy>;

export type ResourceName = keyof typeof POLICY;
export const RESOURCE_NAMES = Object.keys(POLICY) as ResourceName[];

export function isResourceName(name: string): name is ResourceName {
  return Object.hasOwn(POLICY, name);
}

/**
 * The fields a role may write on a resource's records it reaches (`writable`), or null: every field. A
 * system_admin's grant reaches every field of every company.
 */
export function writableFieldsOf(role: Role, resource: ResourceName): readonly string[] | null {
  if (role === 'system_admin') return null;
  const policy: ResourcePolicy = POLICY[resource];
  return policy.writable?.[role] ?? null;
}

/**
 * The grant a role has for an action on a resource of its own company, or null. A system_admin's grant
 * is `company` on every company; whether the company is the caller's is the caller's check (tenant).
 */
export function grantOf(role: Role, resource: ResourceName, action: Action): Grant | null {
  if (role === 'system_admin') return 'company';
  const grants: Grants = POLICY[resource][action];
  return grants[role] ?? null;
}

/** Whether the role may take the action at all (the web's guard and menus), or has the capability. */
export function can(role: Role, capability: Capability): boolean;
export function can(role: Role, resource: ResourceName, action: Action): boolean;
export function can(role: Role, what: ResourceName | Capability, action?: Action): boolean {
  if (action === undefined) return hasCapability(role, what as Capability);
  return grantOf(role, what as ResourceName, action) !== null;
}

/** The public field set of a resource, or null when it has no public records. */
export function publicFields(resource: ResourceName): readonly string[] | null {
  const policy: ResourcePolicy = POLICY[resource];
  return policy.public?.fields ?? null;
}
