import X from 'lucide-react/icons/x';
import { useStore } from 'zustand';
import { toastRole, toastStore, type ToastType } from '../lib/toast-store';

const TONE: Record<ToastType, string> = {
  success: 'border-emerald-700 bg-emerald-50 text-emerald-950',
  error: 'border-red-700 bg-red-50 text-red-950',
  warning: 'border-amber-600 bg-amber-50 text-amber-950',
  info: 'border-sky-700 bg-sky-50 text-sky-950',
};

/**
 * Toasts at the top centre (docs/product.md §2/§4), each announced as a status or, for errors, an alert. Offset under the
 * sticky header (3.5rem) and a side panel's title bar (about 4.3rem) so that neither their buttons nor the
 * title a person is reading are covered.
 */
export function Toaster() {
  const toasts = useStore(toastStore, (s) => s.toasts);
  const close = useStore(toastStore, (s) => s.close);
  return (
    <div className="pointer-events-none fixed inset-x-0 top-[4.75rem] z-50 flex flex-col items-center gap-2 px-3">
      {toasts.map((t) => (
        <div
          key={t.id}
          role={toastRole(t.type)}
          className={`pointer-events-auto flex w-full max-w-md items-start gap-3 rounded-lg border-l-4 px-4 py-3 shadow-lg ${TONE[t.type]}`}
        >
          <div className="min-w-0 flex-1">
            {t.title ? <p className="font-semibold">{t.title}</p> : null}
            <p>{t.message}</p>
            {t.actions.length ? (
              <div className="mt-2 flex gap-3">
                {t.actions.map((a) => (
                  <button
                    key={a.label}
                    type="button"
                    className="font-semibold underline underline-offset-2"
                    onClick={() => {
                      a.onClick();
                      close(t.id);
                    }}
                  >
                    {a.label}
                  </button>
                ))}
              </div>
            ) : null}
          </div>
          <button
            type="button"
            className="rounded p-1 hover:bg-black/5"
            aria-label="Cerrar aviso"
            onClick={() => close(t.id)}
          >
            <X className="size-4" aria-hidden="true" />
          </button>
        </div>
      ))}
    </div>
  );
}
