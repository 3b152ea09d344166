import { formatDaysAgo } from '@hornada/domain/format';
import { ROLE_LABELS_ES } from '@hornada/domain/people';
import { grantOf } from '@hornada/domain/policy';
import type { User } from '@hornada/domain/schemas/users';
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { useStore } from 'zustand';
import { useCompanyId } from '../../components/data-table/resource-client';
import { secondaryButtonClass } from '../../components/ui/button';
import { authStore } from '../../lib/auth/auth-store';
import { ApiError } from '../../lib/api/http';
import { toastStore } from '../../lib/toast-store';
import { peopleApi } from './people-api';

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
        {/* On a phone the state column is off to the side: the pending invitation is said here too. */}
        {row.original.invitedAt && !row.original.disabled ? (
          <p className="text-sm font-medium text-amber-900 sm:hidden">Invitación pendiente</p>
        ) : null}
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

/** "Enviada hoy", "Enviada hace 3 días": when the pending invitation last went out. */
const sentWhen = (at: string) => {
  const ago = formatDaysAgo(at);
  return /^(Hoy|Ayer|Hace)/.test(ago) ? `Enviada ${ago.toLowerCase()}` : `Enviada el ${ago}`;
};

/**
 * A person invited who has not yet chosen a password nor signed in: since when, and (for whoever may invite
 * them: the server decides again) "Reenviar", which mails a new link and voids the older ones.
 */
function PendingInvitation({ person, onResent }: { person: User; onResent?: () => void }) {
  const companyId = useCompanyId();
  const role = useStore(authStore, (s) => s.user?.role ?? null);
  const [sending, setSending] = useState(false);
  const mayInvite = role !== null && grantOf(role, 'users', 'create') !== null;
  const resend = async () => {
    if (!companyId) return;
    setSending(true);
    try {
      await peopleApi.resendInvitation(companyId, person.id);
      toastStore.getState().show(`Enviamos de nuevo la invitación a ${person.name}.`);
      onResent?.();
    } catch (err) {
      toastStore.getState().show({
        type: 'error',
        message: err instanceof ApiError ? err.userMessage : 'No pudimos reenviar la invitación. Intenta de nuevo.',
      });
    } finally {
      setSending(false);
    }
  };
  return (
    <div className="flex min-w-40 flex-col items-start gap-1">
      <span className="whitespace-nowrap rounded-full bg-amber-100 px-2 py-0.5 text-sm font-medium text-amber-950">
        Invitación pendiente
      </span>
      <span className="whitespace-nowrap text-sm text-stone-600">{sentWhen(person.invitedAt!)}</span>
      {mayInvite ? (
        <button
          type="button"
          className={`${secondaryButtonClass} px-2 py-1 text-sm`}
          disabled={sending}
          onClick={() => void resend()}
        >
          {sending ? 'Enviando…' : 'Reenviar'}
          <span className="sr-only"> la invitación a {person.name}</span>
        </button>
      ) : null}
    </div>
  );
}

/** Active, disabled, or invited and not yet in (`onResent`: the list reads again after a resend). */
export function statusColumn(onResent?: () => void): ColumnDef<User> {
  return {
    id: 'disabled',
    header: 'Estado',
    cell: ({ row }) =>
      row.original.disabled ? (
        <span className="rounded-full bg-stone-200 px-2 py-0.5 text-sm font-medium text-stone-800">Desactivado</span>
      ) : row.original.invitedAt ? (
        <PendingInvitation person={row.original} onResent={onResent} />
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
