import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { buttonClass, dangerButtonClass, secondaryButtonClass } from './button';

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  description: ReactNode;
  /** The confirming button's text: say what happens ("Eliminar producto"). */
  confirmLabel: string;
  cancelLabel?: string;
  /** Red confirming button (deleting, discarding). Default true. */
  destructive?: boolean;
  /** May be async: the dialog stays open, its buttons disabled, until it settles; it closes on success. */
  onConfirm(): unknown;
}

/**
 * A confirmation before anything destructive: the browser's modal `<dialog>` (focus kept inside, the page
 * behind inert, Escape cancels) as an alert dialog, the cancel button focused first so Enter never deletes by
 * accident. Native rather than Radix's AlertDialog: Radix locks scrolling by injecting a `<style>` element,
 * which the app's Content Security Policy (style-src 'self') refuses.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  cancelLabel = 'Cancelar',
  destructive = true,
  onConfirm,
}: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      cancelRef.current?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
      onOpenChange(false);
    } catch {
      // The caller reports the failure (a toast); the dialog stays so the person can try again or cancel.
    } finally {
      setBusy(false);
    }
  };

  return (
    <dialog
      ref={ref}
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-description`}
      onCancel={(event) => {
        // Escape: the browser would close it by itself; the owner decides (and nothing closes while busy).
        event.preventDefault();
        if (!busy) onOpenChange(false);
      }}
      className="m-auto w-[calc(100vw-2rem)] max-w-md rounded-2xl bg-white p-5 text-stone-900 shadow-xl backdrop:bg-stone-950/40 sm:p-6"
    >
      {open ? (
        <>
          <h2 id={`${id}-title`} className="text-lg font-semibold text-stone-900">
            {title}
          </h2>
          <div id={`${id}-description`} className="mt-2 text-stone-700">
            {description}
          </div>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <button
              ref={cancelRef}
              type="button"
              className={secondaryButtonClass}
              disabled={busy}
              onClick={() => onOpenChange(false)}
            >
              {cancelLabel}
            </button>
            <button
              type="button"
              className={destructive ? dangerButtonClass : buttonClass}
              disabled={busy}
              aria-busy={busy || undefined}
              onClick={() => void confirm()}
            >
              {busy ? 'Un momento…' : confirmLabel}
            </button>
          </div>
        </>
      ) : null}
    </dialog>
  );
}
