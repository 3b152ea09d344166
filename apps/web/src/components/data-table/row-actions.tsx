import { Ellipsis, Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../lib/api/http';
import { toastStore } from '../../lib/toast-store';
import { iconButtonClass } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../ui/dropdown-menu';

export interface RowActionsProps {
  /** The record's name as people know it ("Pan de bono"). */
  name: string;
  /** What it is, in lower case with its article ("el producto"). */
  noun: string;
  editTo: string;
  /** Deletes the record (a rejection shows as a toast and keeps the dialog open). */
  onDelete(): Promise<unknown>;
}

/**
 * What a row offers: edit, and delete after a confirmation; the outcome shows as a toast. On a wide screen
 * two icon buttons; on a phone one "more" menu, so the row fits.
 */
export function RowActions({ name, noun, editTo, onDelete }: RowActionsProps) {
  const [confirming, setConfirming] = useState(false);
  const navigate = useNavigate();
  const remove = async () => {
    try {
      await onDelete();
    } catch (err) {
      toastStore.getState().show({
        type: 'error',
        message: err instanceof ApiError ? err.userMessage : `No pudimos eliminar ${noun}. Intenta de nuevo.`,
      });
      throw err;
    }
    toastStore.getState().show(`Eliminamos «${name}».`);
  };
  return (
    <div className="flex justify-end gap-1">
      <Link to={editTo} className={`${iconButtonClass} max-sm:hidden`} aria-label={`Editar ${name}`} title="Editar">
        <Pencil className="size-4" aria-hidden="true" />
      </Link>
      <button
        type="button"
        className={`${iconButtonClass} text-red-700 hover:bg-red-50 max-sm:hidden`}
        aria-label={`Eliminar ${name}`}
        title="Eliminar"
        onClick={() => setConfirming(true)}
      >
        <Trash2 className="size-4" aria-hidden="true" />
      </button>
      <div className="sm:hidden">
        <DropdownMenu>
          <DropdownMenuTrigger className={iconButtonClass} aria-label={`Acciones de ${name}`}>
            <Ellipsis className="size-5" aria-hidden="true" />
          </DropdownMenuTrigger>
          <DropdownMenuContent>
            <DropdownMenuItem onSelect={() => void navigate(editTo)}>
              <Pencil className="size-4" aria-hidden="true" />
              Editar
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={() => setConfirming(true)}>
              <Trash2 className="size-4 text-red-700" aria-hidden="true" />
              Eliminar
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`¿Eliminar «${name}»?`}
        description={<p>Dejará de verse en la tienda y en las listas. Esta acción no se puede deshacer desde aquí.</p>}
        confirmLabel="Eliminar"
        onConfirm={remove}
      />
    </div>
  );
}
