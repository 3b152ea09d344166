import { formatMoney } from '@hornada/domain/format';
import { roundMoney } from '@hornada/domain/costing';
import { Trash2 } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { AreaPage } from '../../components/area-page';
import { ApiError } from '../../lib/http';
import type { Loaded } from './data';
import { toastStore } from '../../lib/toast-store';

/** Small pieces the ingredients and recipes screens share. Numbers are written as money is (spec §1). */

export const sectionClass = 'rounded-2xl border border-stone-200 bg-white p-4 shadow-sm sm:p-6';
export const primaryButton =
  'inline-flex items-center justify-center gap-2 rounded-lg bg-amber-900 px-4 py-2.5 font-semibold text-white shadow-sm hover:bg-amber-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-900 disabled:cursor-not-allowed disabled:opacity-60';
export const secondaryButton =
  'inline-flex items-center justify-center gap-2 rounded-lg border border-stone-300 bg-white px-3 py-2 font-medium text-stone-800 hover:bg-stone-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-900 disabled:cursor-not-allowed disabled:opacity-60';
export const dangerButton =
  'inline-flex items-center justify-center gap-2 rounded-lg border border-red-700 bg-white px-3 py-2 font-medium text-red-800 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-800 disabled:cursor-not-allowed disabled:opacity-60';
export const selectClass =
  'mt-1 block w-full rounded-lg border border-stone-300 bg-white px-3 py-2.5 text-base text-stone-900 shadow-sm focus:border-amber-700 focus:outline-none focus:ring-2 focus:ring-amber-700/30 aria-[invalid=true]:border-red-600 disabled:bg-stone-100';

const numbers = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 });
const percents = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const preciseMoney = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 0,
  maximumFractionDigits: 4,
});

/** A cost shown in whole pesos (design §4); '—' when unknown. */
export const pesos = (value: number | null | undefined): string =>
  value === null || value === undefined ? '—' : formatMoney(roundMoney(value));
/** An ingredient's cost per unit, with its decimals ($12.5 a gram). */
export const unitCost = (value: number): string => preciseMoney.format(value);
export const quantity = (value: number): string => numbers.format(value);
export const percent = (value: number | null | undefined): string =>
  value === null || value === undefined ? '—' : `${percents.format(value)} %`;

/** A decimal as people type it here ("4,65" or "4.65"); NaN lets the schema say it is not a number. */
export function parseDecimal(value: string): number | undefined {
  const text = value.trim();
  return text === '' ? undefined : Number(text.replace(',', '.'));
}

export function LoadingState({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="flex items-center gap-3 text-stone-600">
      <span
        className="size-5 animate-spin rounded-full border-2 border-amber-800 border-t-transparent motion-reduce:animate-none"
        aria-hidden="true"
      />
      {children}
    </p>
  );
}

export function FailedState({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div role="alert" className="space-y-3">
      <p className="text-red-900">{message}</p>
      <button type="button" className={secondaryButton} onClick={onRetry}>
        Intentar de nuevo
      </button>
    </div>
  );
}

/** A back-office page whose content waits for its data: a spinner, then the data or a retry. */
export function LoadedPage<T>({
  title,
  actions,
  companyId,
  loaded,
  onRetry,
  loading,
  children,
}: {
  title: string;
  actions?: ReactNode;
  /** null while the company is not known yet: the page waits for it too. */
  companyId: string | null;
  loaded: Loaded<T>;
  onRetry: () => void;
  loading: string;
  children: (data: T, companyId: string) => ReactNode;
}) {
  return (
    <AreaPage title={title} actions={actions}>
      {!companyId || loaded.state === 'loading' ? (
        <LoadingState>{loading}</LoadingState>
      ) : loaded.state === 'failed' ? (
        <FailedState message={loaded.message} onRetry={onRetry} />
      ) : (
        children(loaded.data, companyId)
      )}
    </AreaPage>
  );
}

/**
 * Asks before something that cannot be undone (design §6): a modal dialog (the browser's, so focus stays in
 * it and Escape cancels) whose safe choice has the focus.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  busy,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (open && !el.open) {
      el.showModal();
      cancel.current?.focus();
    } else if (!open && el.open) el.close();
  }, [open]);
  return (
    <dialog
      ref={dialog}
      aria-labelledby="confirm-title"
      aria-describedby="confirm-body"
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onCancel();
      }}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-2xl border border-stone-200 bg-white p-0 text-stone-900 shadow-xl backdrop:bg-stone-900/40"
    >
      <div className="p-5">
        <h2 id="confirm-title" className="text-lg font-semibold">
          {title}
        </h2>
        <div id="confirm-body" className="mt-2 text-stone-700">
          {children}
        </div>
        <div className="mt-5 flex flex-wrap justify-end gap-2">
          <button ref={cancel} type="button" className={secondaryButton} onClick={onCancel} disabled={busy}>
            Cancelar
          </button>
          <button
            type="button"
            className="inline-flex items-center justify-center gap-2 rounded-lg bg-red-800 px-4 py-2 font-semibold text-white hover:bg-red-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-800 disabled:opacity-60"
            onClick={onConfirm}
            disabled={busy}
          >
            {busy ? 'Eliminando…' : confirmLabel}
          </button>
        </div>
      </div>
    </dialog>
  );
}

/** A delete button that asks first, then deletes, says so in a toast and moves on (`onDone`). */
export function DeleteRecord({
  title,
  confirmLabel,
  children,
  remove,
  done,
  failed,
  onDone,
}: {
  title: string;
  confirmLabel: string;
  children: ReactNode;
  remove: () => Promise<unknown>;
  done: string;
  failed: string;
  onDone: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const run = async () => {
    setDeleting(true);
    try {
      await remove();
    } catch (err) {
      setDeleting(false);
      setConfirming(false);
      toastStore.getState().show(err instanceof ApiError ? err.userMessage : failed, { type: 'error' });
      return;
    }
    toastStore.getState().show(done);
    onDone();
  };
  return (
    <>
      <button type="button" className={dangerButton} onClick={() => setConfirming(true)}>
        <Trash2 className="size-4" aria-hidden="true" />
        Eliminar
      </button>
      <ConfirmDialog
        open={confirming}
        title={title}
        confirmLabel={confirmLabel}
        busy={deleting}
        onConfirm={() => void run()}
        onCancel={() => setConfirming(false)}
      >
        {children}
      </ConfirmDialog>
    </>
  );
}
