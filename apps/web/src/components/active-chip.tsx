import type { ColumnDef } from '@tanstack/react-table';

/** Whether a record is in use: a product or collection shows in the shop, a B2B client takes orders. */
export function ActiveChip({ active }: { active: boolean }) {
  return active ? (
    <span className="inline-flex rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900">
      Activo
    </span>
  ) : (
    <span className="inline-flex rounded-full bg-stone-200 px-2 py-0.5 text-xs font-semibold text-stone-800">
      Inactivo
    </span>
  );
}

/** The "Estado" column of products, collections and B2B clients (hidden on a phone until chosen). */
export function activeColumn<T extends { id: string; active: boolean }>(): ColumnDef<T> {
  return {
    id: 'active',
    header: 'Estado',
    meta: { hideOnPhone: true },
    cell: ({ row }) => <ActiveChip active={row.original.active} />,
  };
}
