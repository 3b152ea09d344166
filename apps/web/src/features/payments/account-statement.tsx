import { formatMoney } from '@hornada/domain/format';
import type { UnpaidParty } from '@hornada/domain/receivables';
import { Printer, X } from 'lucide-react';
import { useId } from 'react';
import { createPortal } from 'react-dom';
import { BakeryLogo } from '../../components/bakery-logo';
import { buttonClass, secondaryButtonClass } from '../../components/ui/button';
import { useDismiss } from '../../components/ui/use-dismiss';
import { useBackOfficeShop } from '../../lib/back-office-shop';
import { HeadRow, PARTY_TYPE_ES, ageEs, dayEs } from './unpaid-view';

/**
 * One party's statement of account, what a bakery sends a café at the end of the month: the bakery, the
 * client, each unpaid order with its day, number, total and age, and the balance. Shown over the page and
 * printed alone: it is a child of `<body>`, and styles.css's `@media print` hides the body's other children
 * while a `.print-statement` is there.
 */
export function AccountStatement({
  party: p,
  marketName,
  onClose,
}: {
  party: UnpaidParty;
  marketName: string;
  onClose(): void;
}) {
  const id = useId();
  const closeRef = useDismiss(onClose);
  const today = new Intl.DateTimeFormat('es-CO', { dateStyle: 'long' }).format(new Date());
  const logo = useBackOfficeShop()?.logo ?? null;

  return createPortal(
    <div
      role="dialog"
      aria-modal="true"
      aria-labelledby={`${id}-title`}
      className="print-statement fixed inset-0 z-50 overflow-y-auto bg-stone-950/40 p-4 print:static print:bg-white print:p-0"
    >
      <article className="mx-auto max-w-3xl rounded-2xl bg-white p-6 text-stone-900 shadow-xl print:max-w-none print:rounded-none print:p-0 print:shadow-none">
        <div className="flex flex-wrap justify-end gap-2 print:hidden">
          <button type="button" className={buttonClass} onClick={() => window.print()}>
            <Printer className="size-4" aria-hidden="true" />
            Imprimir
          </button>
          <button type="button" ref={closeRef} className={secondaryButtonClass} onClick={onClose}>
            <X className="size-4" aria-hidden="true" />
            Cerrar
          </button>
        </div>
        <header className="mt-4 border-b border-stone-300 pb-4 print:mt-0">
          {logo ? (
            <BakeryLogo
              src={`/files/${logo.path}`}
              name={marketName}
              className="mb-2 h-14 w-auto max-w-48 object-contain"
            />
          ) : null}
          <p className="text-xl font-bold">{marketName || 'Panadería'}</p>
          <h2 id={`${id}-title`} className="mt-1 text-lg font-semibold">
            Estado de cuenta
          </h2>
          <p className="text-sm text-stone-600">Al {today}</p>
        </header>
        <section className="mt-4 text-sm">
          <p className="font-semibold">{p.party.name}</p>
          <p className="text-stone-600">
            {PARTY_TYPE_ES[p.party.type]}
            {p.party.phone ? ` · ${p.party.phone}` : ''}
          </p>
          {p.paymentTermsDays !== null ? (
            <p className="text-stone-600">
              Plazo de pago: {p.paymentTermsDays} días
              {p.creditLimit ? ` · Cupo: ${formatMoney(p.creditLimit)}` : ''}
            </p>
          ) : null}
        </section>
        <table className="mt-4 w-full text-sm">
          <thead className="border-b border-stone-300 text-left text-xs uppercase tracking-wide text-stone-600">
            <HeadRow
              cellClass="py-2"
              cells={['Fecha de entrega', 'Pedido', 'Antigüedad', { label: 'Total', end: true }]}
            />
          </thead>
          <tbody>
            {p.unpaidOrders.map((o) => (
              <tr key={o.id} className="border-b border-stone-200">
                <td className="py-2">{dayEs(o.dueDate)}</td>
                <td className="py-2">#{o.number}</td>
                <td className="py-2">{ageEs(o.ageDays)}</td>
                <td className="py-2 text-right tabular-nums">{formatMoney(o.total)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={3} className="py-3 text-right text-base">
                Saldo pendiente
              </th>
              <td className="py-3 text-right text-base font-bold tabular-nums">{formatMoney(p.balance)}</td>
            </tr>
          </tfoot>
        </table>
      </article>
    </div>,
    document.body,
  );
}
