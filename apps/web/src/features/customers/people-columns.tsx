import { formatDaysAgo } from '@hornada/domain/format';
import { ROLE_LABELS_ES } from '@hornada/domain/people';
import type { User } from '@hornada/domain/schemas/users';
import type { ColumnDef } from '@tanstack/react-table';

/** The columns the users and staff screens share: the person, their role, their state and last sign-in. */

export function personColumn(): ColumnDef<User> {
  return {
    id: 'name',
    header: 'Nombre',
    meta: { sortField: 'name', fixed: true },
    cell: ({ row }) => (
      <div className="min-w-44">
        <p className="font-medium text-stone-900">{row.original.name}</p>
        <p className="break-all text-sm text-stone-600">{row.original.email}</p>
      </div>
    ),
  };
}

export function roleColumn(): ColumnDef<User> {
  return {
    id: 'role',
    header: 'Rol',
    meta: { sortField: 'role' },
    cell: ({ row }) => <span className="whitespace-nowrap">{ROLE_LABELS_ES[row.original.role]}</span>,
  };
}

export function statusColumn(): ColumnDef<User> {
  return {
    id: 'disabled',
    header: 'Estado',
    cell: ({ row }) =>
      row.original.disabled ? (
        <span className="rounded-full bg-stone-200 px-2 py-0.5 text-sm font-medium text-stone-800">Desactivado</span>
      ) : (
        <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-sm font-medium text-emerald-900">Activo</span>
      ),
  };
}

export function lastLoginColumn(): ColumnDef<User> {
  return {
    id: 'lastLoginAt',
    header: 'Último ingreso',
    meta: { sortField: 'lastLoginAt' },
    cell: ({ row }) => <span className="whitespace-nowrap">{formatDaysAgo(row.original.lastLoginAt) || 'Nunca'}</span>,
  };
}

export const STATUS_FILTER = {
  key: 'disabled',
  label: 'Estado',
  options: [
    { value: 'false', label: 'Activos' },
    { value: 'true', label: 'Desactivados' },
  ],
} as const;
