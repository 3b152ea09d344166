import { can, grantOf } from '@hornada/domain/policy';
import { ROLE_LABELS_ES } from '@hornada/domain/people';
import { COMPANY_ROLES, type Role } from '@hornada/domain/roles';
import type { User } from '@hornada/domain/schemas/users';
import { NavLink } from 'react-router';
import { useStore } from 'zustand';
import { ResourceListPage } from '../../components/data-table/common-columns';
import type { ListViewConfig } from '../../components/data-table/list-url';
import { tableLoader, useResourceTable, type TableDef } from '../../components/data-table/use-resource-table';
import { paths } from '../../config/paths';
import { authStore } from '../../lib/auth/auth-store';
import { lastLoginColumn, personColumn, roleColumn, STATUS_FILTER, statusColumn } from './people-columns';

const CONFIG: ListViewConfig = {
  sortFields: ['createdAt', 'name', 'email', 'role', 'lastLoginAt'],
  filterKeys: ['role', 'disabled'],
  defaults: { sortBy: 'name', sortDesc: false },
};

/** "Active" is a sign-in within this many days (docs/design.md §6). */
export const ACTIVE_DAYS = 30;

const USERS: TableDef = { resource: 'users', config: CONFIG };
// The last 30 days up to each read's now.
const ACTIVE_USERS: TableDef = {
  ...USERS,
  fixed: () => ({
    dateRange: {
      dateField: 'lastLoginAt',
      startDate: new Date(Date.now() - ACTIVE_DAYS * 86_400_000),
      endDate: new Date(),
    },
  }),
};

/** The page of users the address asks for. */
export const usersLoader = tableLoader<User>(USERS);
/** The page of users who signed in within the last 30 days. */
export const activeUsersLoader = tableLoader<User>(ACTIVE_USERS);

/** The roles a viewer may see among users: every company role for an admin, customers for staff. */
function visibleRoles(role: Role | null): Role[] {
  if (!role) return [];
  const grant = grantOf(role, 'users', 'read');
  if (grant === 'company') return [...COMPANY_ROLES];
  return grant === 'customers' ? COMPANY_ROLES.filter((r) => can(r, 'orders:own')) : [];
}

function Tabs() {
  const tab = ({ isActive }: { isActive: boolean }) =>
    `rounded-lg px-3 py-2 text-sm font-medium ${isActive ? 'bg-amber-100 text-amber-950' : 'text-stone-700 hover:bg-stone-100'}`;
  return (
    <nav aria-label="Vistas de usuarios" className="flex gap-2">
      <NavLink to={paths.dashboard.users} end className={tab}>
        Todos
      </NavLink>
      <NavLink to={paths.dashboard.usersActive} className={tab}>
        Activos ({ACTIVE_DAYS} días)
      </NavLink>
    </nav>
  );
}

/**
 * Dashboard › Usuarios: everyone of the bakery an admin may see (staff: its customers), searchable, with role
 * and status filters and the last sign-in; `active` lists those who signed in within the last 30 days.
 */
export function UsersList({ active }: { active: boolean }) {
  const role = useStore(authStore, (s) => s.user?.role ?? null);
  const table = useResourceTable(active ? ACTIVE_USERS : USERS, active ? activeUsersLoader : usersLoader);
  const roles = visibleRoles(role);
  const filters = [
    ...(roles.length > 1
      ? [{ key: 'role', label: 'Rol', options: roles.map((r) => ({ value: r, label: ROLE_LABELS_ES[r] })) }]
      : []),
    STATUS_FILTER,
  ];
  const title = active ? 'Usuarios activos' : 'Usuarios';
  return (
    <>
      <div className="px-4 pt-4 sm:px-6">
        <Tabs />
      </div>
      <ResourceListPage
        id={active ? 'users-active' : 'users'}
        title={title}
        createTo={paths.dashboard.userCreate}
        createLabel="Nuevo usuario"
        table={table}
        columns={[personColumn(), roleColumn(), statusColumn(table.reload), lastLoginColumn()]}
        filters={filters}
        searchLabel="Buscar usuarios"
        searchPlaceholder="Nombre, correo o teléfono"
        emptyTitle={active ? `Nadie ha ingresado en los últimos ${ACTIVE_DAYS} días.` : 'Aún no hay usuarios.'}
        emptyText="Registra a tus clientes y a tu equipo con «Nuevo usuario»."
      />
    </>
  );
}
