import { Printer, X } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useBackOfficeShop } from '../lib/back-office-shop';
import { BakeryLogo } from './bakery-logo';
import { buttonClass, secondaryButtonClass } from './ui/button';
import { useDismiss } from './ui/use-dismiss';

/**
 * A printable document over the page (production sheet, labels, run sheet): a child of `<body>` printed alone
 * (styles.css hides the body's other children while a `.print-sheet` is there), A4, black on white, headed by
 * the bakery's logo when it has one (the sheet's own header names the bakery and what it is).
 */
export function PrintPreview({ title, onClose, children }: { title: string; onClose(): void; children: ReactNode }) {
  const id = useId();
  const closeRef = useDismiss(onClose);
  const shop = useBackOfficeShop();
  return createPortal(
    <div
      role="dialog"
      aria-modal="true"
      aria-labelledby={`${id}-title`}
      className="print-sheet fixed inset-0 z-50 overflow-y-auto bg-stone-950/40 p-4 print:static print:bg-white print:p-0"
    >
      <article className="mx-auto max-w-3xl rounded-2xl bg-white p-6 text-black shadow-xl print:max-w-none print:rounded-none print:p-0 print:shadow-none">
        <div className="flex flex-wrap items-center justify-between gap-2 print:hidden">
          <h2 id={`${id}-title`} className="text-lg font-semibold text-stone-900">
            {title}
          </h2>
          <div className="flex gap-2">
            <button type="button" className={buttonClass} onClick={() => window.print()}>
              <Printer className="size-4" aria-hidden="true" />
              Imprimir
            </button>
            <button type="button" ref={closeRef} className={secondaryButtonClass} onClick={onClose}>
              <X className="size-4" aria-hidden="true" />
              Cerrar
            </button>
          </div>
        </div>
        <div className="mt-4 print:mt-0">
          {shop?.logo ? (
            <BakeryLogo
              src={`/files/${shop.logo.path}`}
              name={shop.name ?? ''}
              className="mb-3 h-14 w-auto max-w-48 object-contain"
            />
          ) : null}
          {children}
        </div>
      </article>
    </div>,
    document.body,
  );
}
