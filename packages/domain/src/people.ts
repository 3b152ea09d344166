import { CAPABILITIES, type Capability } from './capabilities';
import { ACTIONS, grantOf, POLICY, type Action, type Grant, type ResourceName } from './policy';
import { COMPANY_ROLES, type CompanyRole, type Role } from './roles';
import { AREAS, AREA_NAMES, type Area } from './areas';

/**
 * The people screens: each role's name in Spanish, who counts as the bakery's team, and what each
 * role may do, read from the permission table (policy.ts, capabilities.ts) so the panel cannot drift from it.
 */

export const ROLE_LABELS_ES: Readonly<Record<Role, string>> = {
  system_admin: 'Administración de Hornada',
  company_admin: 'Administrador',
  company_staff: 'Personal',
  company_customer: 'Cliente',
  delivery_assistant: 'Repartidor',
  production_assistant: 'Producción',
};

/** The people who work for a bakery: every company role that does not shop there (the staff screen). */
export const TEAM_ROLES: readonly CompanyRole[] = COMPANY_ROLES.filter(
  (r) => !CAPABILITIES['orders:own'].includes(r as never),
);

/** The roles a caller may give a new person: those of the users it may create (staff: customers only). */
export function creatableRoles(role: Role): CompanyRole[] {
  const grant = grantOf(role, 'users', 'create');
  if (grant === 'company') return [...COMPANY_ROLES];
  if (grant === 'customers') return COMPANY_ROLES.filter((r) => CAPABILITIES['orders:own'].includes(r as never));
  return [];
}

const RESOURCE_LABELS_ES: Readonly<Record<ResourceName, string>> = {
  products: 'Productos',
  productCollections: 'Colecciones',
  brands: 'Marcas',
  ingredients: 'Ingredientes',
  recipes: 'Recetas',
  b2bClients: 'Clientes mayoristas',
  standingOrders: 'Pedidos recurrentes',
  users: 'Usuarios',
  orders: 'Pedidos',
  settings: 'Configuración',
  files: 'Imágenes',
};

const ACTION_LABELS_ES: Readonly<Record<Action, string>> = {
  read: 'ver',
  create: 'crear',
  update: 'editar',
  delete: 'borrar',
};

const GRANT_NOTES_ES: Readonly<Record<Grant, string>> = {
  company: '',
  customers: 'solo clientes',
  assigned: 'solo los asignados',
  own: 'solo los propios',
};

const CAPABILITY_LABELS_ES: Partial<Record<Capability, string>> = {
  'deliveries:drive': 'Llevar pedidos como repartidor',
  'deliveries:assign': 'Asignar repartidores y ordenar rutas',
  'deliveries:read': 'Ver las entregas del día',
  'production:read': 'Ver la producción del día',
  'reports:read': 'Ver informes de ventas y cartera',
  'orders:own': 'Comprar en la tienda',
};

const AREA_LABELS_ES: Readonly<Record<Area, string>> = {
  dashboard: 'Panel de la panadería',
  driver: 'Área de reparto',
  production: 'Área de producción',
  customer: 'Mi cuenta de cliente',
};

export interface RolePermissions {
  role: Role;
  label: string;
  /** The signed-in areas it enters. */
  areas: string[];
  /** "Pedidos: ver, editar (solo los asignados)", one a resource it reaches. */
  resources: { resource: string; actions: string[] }[];
  /** What it may do beyond a resource's records. */
  capabilities: string[];
}

/** What a role may do, in Spanish, straight from the permission table. */
export function rolePermissions(role: Role): RolePermissions {
  const resources: RolePermissions['resources'] = [];
  for (const name of Object.keys(POLICY) as ResourceName[]) {
    const actions: string[] = [];
    for (const action of ACTIONS) {
      const grant = grantOf(role, name, action);
      if (!grant) continue;
      const note = GRANT_NOTES_ES[grant];
      actions.push(note ? `${ACTION_LABELS_ES[action]} (${note})` : ACTION_LABELS_ES[action]);
    }
    if (actions.length > 0) resources.push({ resource: RESOURCE_LABELS_ES[name], actions });
  }
  const capabilities = (Object.keys(CAPABILITY_LABELS_ES) as Capability[])
    .filter((c) => (CAPABILITIES[c] as readonly Role[]).includes(role))
    .map((c) => CAPABILITY_LABELS_ES[c]!);
  const areas = AREA_NAMES.filter((a) => AREAS[a].roles.includes(role)).map((a) => AREA_LABELS_ES[a]);
  return { role, label: ROLE_LABELS_ES[role], areas, resources, capabilities };
}
