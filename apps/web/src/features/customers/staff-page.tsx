import { ROLE_LABELS_ES, rolePermissions, TEAM_ROLES } from '@hornada/domain/people';
import type { Role } from '@hornada/domain/roles';
import type { User } from '@hornada/domain/schemas/users';
import type { ColumnDef } from '@tanstack/react-table';
import { Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { useStore } from 'zustand';
import { AreaPage } from '../../components/area-page';
import { DataTable } from '../../components/data-table/data-table';
import type { ListViewConfig } from '../../components/data-table/list-url';
import {
  tableLoader,
  useResourceTable,
  type ResourceTable,
  type TableDef,
} from '../../components/data-table/use-resource-table';
import { EmptyState } from '../../components/empty-state';
import { buttonClass, secondaryButtonClass } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { paths } from '../../config/paths';
import { authStore } from '../../lib/auth/auth-store';
import { ApiError } from '../../lib/api/http';
import type { Filters } from '../../lib/api/resource-service';
import { toastStore } from '../../lib/toast-store';
import { lastLoginColumn, personColumn, STATUS_FILTER, statusColumn } from './people-columns';
import { endSentence } from '@hornada/domain/text';

const CONFIG: ListViewConfig = {
  sortFields: ['createdAt', 'name', 'email', 'role', 'lastLoginAt'],
  filterKeys: ['role', 'disabled'],
  defaults: { sortBy: 'name', sortDesc: false },
};

/** The team only: customers are the users screen's. A chosen role filter narrows it further (URL). */
const TEAM: Filters = { role: TEAM_ROLES };
const TABLE: TableDef = { resource: 'users', config: CONFIG, fixed: () => TEAM };

/** The page of the team the address asks for. */
export const loader = tableLoader<User>(TABLE);

const ROLE_FILTER = {
  key: 'role',
  label: 'Rol',
  options: TEAM_ROLES.map((r) => ({ value: r, label: ROLE_LABELS_ES[r] })),
};

const showFailure = (err: unknown, fallback: string) =>
  toastStore.getState().show({ type: 'error', message: err instanceof ApiError ? err.userMessage : fallback });

function RoleCell({ person, table, self }: { person: User; table: ResourceTable<User>; self: boolean }) {
  const id = useId();
  const [saving, setSaving] = useState(false);
  const change = async (role: Role) => {
    setSaving(true);
    try {
      await table.service!.patch(person.id, { role });
      toastStore.getState().show(`${person.name} ahora es ${ROLE_LABELS_ES[role].toLowerCase()}.`);
      table.reload();
    } catch (err) {
      showFailure(err, 'No pudimos cambiar el rol. Intenta de nuevo.');
      table.reload();
    } finally {
      setSaving(false);
    }
  };
  return (
    <>
      <label htmlFor={id} className="sr-only">
        Rol de {person.name}
      </label>
      <select
        id={id}
        value={person.role}
        disabled={self || saving}
        title={self ? 'No puedes cambiar tu propio rol.' : undefined}
        onChange={(e) => void change(e.target.value as Role)}
        className="rounded-lg border border-stone-300 bg-white px-2 py-1.5 text-stone-900 disabled:bg-stone-100"
      >
        {TEAM_ROLES.map((r) => (
          <option key={r} value={r}>
            {ROLE_LABELS_ES[r]}
          </option>
        ))}
      </select>
    </>
  );
}

function AccessCell({ person, table, self }: { person: User; table: ResourceTable<User>; self: boolean }) {
  const [open, setOpen] = useState(false);
  const disabling = !person.disabled;
  if (self) return <span className="text-sm text-stone-600">Tu cuenta</span>;
  return (
    <>
      <button type="button" className={secondaryButtonClass} onClick={() => setOpen(true)}>
        {disabling ? 'Desactivar' : 'Activar'}
        <span className="sr-only"> a {person.name}</span>
      </button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        destructive={disabling}
        title={disabling ? `¿Desactivar a ${person.name}?` : `¿Activar a ${person.name}?`}
        description={
          disabling
            ? 'Se cerrarán al instante todas sus sesiones abiertas y no podrá volver a entrar hasta que la actives.'
            : 'Podrá volver a entrar con su correo y contraseña.'
        }
        confirmLabel={disabling ? 'Desactivar' : 'Activar'}
        onConfirm={async () => {
          try {
            await table.service!.patch(person.id, { disabled: disabling });
          } catch (err) {
            showFailure(err, 'No pudimos guardar el cambio. Intenta de nuevo.');
            throw err; // the dialog stays open
          }
          toastStore.getState().show(endSentence(`${disabling ? 'Desactivamos' : 'Activamos'} a ${person.name}`));
          table.reload();
        }}
      />
    </>
  );
}

function columns(table: ResourceTable<User>, selfId: string | null): ColumnDef<User>[] {
  return [
    personColumn(),
    {
      id: 'role',
      header: 'Rol',
      meta: { sortField: 'role', fixed: true },
      cell: ({ row }) => <RoleCell person={row.original} table={table} self={row.original.id === selfId} />,
    },
    statusColumn(table.reload),
    { ...lastLoginColumn(), meta: { sortField: 'lastLoginAt', hideOnPhone: true } },
    {
      id: 'access',
      header: () => <span className="sr-only">Acceso</span>,
      meta: { fixed: true, label: 'Acceso' },
      cell: ({ row }) => <AccessCell person={row.original} table={table} self={row.original.id === selfId} />,
    },
  ];
}

/** What each role of the team may do, read from the permission table (packages/domain). */
function RolesPanel() {
  return (
    <section aria-labelledby="roles-panel" className="mt-10">
      <h2 id="roles-panel" className="text-lg font-semibold text-stone-900">
        Qué puede hacer cada rol
      </h2>
      <div className="mt-3 grid gap-4 sm:grid-cols-2">
        {TEAM_ROLES.map((role) => {
          const p = rolePermissions(role);
          return (
            <article
              key={role}
              aria-labelledby={`role-${role}`}
              className="rounded-xl border border-stone-200 bg-white p-4"
            >
              <h3 id={`role-${role}`} className="font-semibold text-stone-900">
                {p.label}
              </h3>
              <p className="mt-1 text-sm text-stone-600">Entra a: {p.areas.join(', ') || 'ninguna área'}</p>
              <ul className="mt-2 space-y-1 text-sm text-stone-800">
                {p.resources.map((r) => (
                  <li key={r.resource}>
                    <span className="font-medium">{r.resource}:</span> {r.actions.join(', ')}
                  </li>
                ))}
                {p.capabilities.map((c) => (
                  <li key={c}>{c}</li>
                ))}
              </ul>
            </article>
          );
        })}
      </div>
    </section>
  );
}

/**
 * Dashboard › Equipo (admins): the bakery's people by role, drivers and production included; change a role,
 * disable or enable after a confirmation (a disabled person's open sessions end at once), and what each
 * role may do.
 */
export function Component() {
  const selfId = useStore(authStore, (s) => s.user?.uid ?? null);
  const table = useResourceTable(TABLE, loader);
  const create = (
    <Link to={paths.dashboard.userCreate} className={buttonClass}>
      <Plus className="size-4" aria-hidden="true" />
      Nuevo integrante
    </Link>
  );
  return (
    <AreaPage title="Equipo" actions={create}>
      <DataTable
        id="staff"
        label="Equipo"
        table={table}
        columns={columns(table, selfId)}
        filters={[ROLE_FILTER, STATUS_FILTER]}
        searchLabel="Buscar en el equipo"
        searchPlaceholder="Nombre, correo o teléfono"
        empty={
          <EmptyState title="Aún no hay nadie más en tu equipo." action={create}>
            <p>Agrega a tu personal, repartidores y equipo de producción.</p>
          </EmptyState>
        }
      />
      <RolesPanel />
    </AreaPage>
  );
}
