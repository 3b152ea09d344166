import type { ProductionDay } from '@hornada/domain/production';
import { Printer, X } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useSearchParams } from 'react-router';
import { buttonClass, secondaryButtonClass } from '../../components/ui/button';
import { useDismiss } from '../../components/ui/use-dismiss';
import { dayFromNow, dayLong, formatAmount, progressOf, shortageText } from './production-view';

/** The preparation day of the page, kept in the address (`?date=`), today by default. */
export function useDayParam(): [string, (day: string) => void] {
  const [params, setParams] = useSearchParams();
  const asked = params.get('date');
  const day = asked && /^\d{4}-\d{2}-\d{2}$/.test(asked) ? asked : dayFromNow(0);
  return [day, (next) => setParams({ date: next }, { replace: true })];
}

/** Today, tomorrow or any date. */
export function DayPicker({
  day,
  onChange,
  large = false,
}: {
  day: string;
  onChange(day: string): void;
  large?: boolean;
}) {
  const today = dayFromNow(0);
  const tomorrow = dayFromNow(1);
  const size = large ? 'min-h-14 px-6 text-lg' : '';
  const choice = (value: string, label: string) => (
    <button
      type="button"
      aria-pressed={day === value}
      className={`${day === value ? buttonClass : secondaryButtonClass} ${size}`}
      onClick={() => onChange(value)}
    >
      {label}
    </button>
  );
  return (
    <div className="flex flex-wrap items-center gap-2 print:hidden">
      {choice(today, 'Hoy')}
      {choice(tomorrow, 'Mañana')}
      <label className={`flex items-center gap-2 text-stone-700 ${large ? 'text-lg' : 'text-sm'}`}>
        Fecha
        <input
          type="date"
          value={day}
          onChange={(e) => e.target.value && onChange(e.target.value)}
          className={`rounded-lg border border-stone-300 bg-white px-3 py-2 ${large ? 'min-h-14 text-lg' : ''}`}
        />
      </label>
    </div>
  );
}

/** A product's progress: produced of ordered, as a bar that screen readers read too. */
export function ProgressBar({
  produced,
  quantity,
  label,
  large = false,
}: {
  produced: number;
  quantity: number;
  label: string;
  large?: boolean;
}) {
  const pct = progressOf({ produced, quantity });
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={quantity}
      aria-valuenow={Math.min(produced, quantity)}
      aria-valuetext={`${produced} de ${quantity} (${pct} %)`}
      className={`w-full overflow-hidden rounded-full bg-stone-200 ${large ? 'h-6' : 'h-2.5'}`}
    >
      <div
        className={`h-full rounded-full ${pct >= 100 ? 'bg-green-700' : 'bg-amber-700'}`}
        style={{ width: `${pct}%` }}
      />
    </div>
  );
}

/** The ingredients of the day against stock; a shortage in red, said in words. */
export function IngredientNeeds({ day }: { day: ProductionDay }) {
  if (day.ingredients.length === 0)
    return <p className="text-stone-600">Ningún producto del día tiene receta con ingredientes.</p>;
  return (
    <table className="w-full text-sm">
      <thead className="border-b border-stone-300 text-left text-xs uppercase tracking-wide text-stone-600">
        <tr>
          <th className="py-2">Ingrediente</th>
          <th className="py-2 text-right">Necesario</th>
          <th className="py-2 text-right">En inventario</th>
          <th className="py-2 pl-4">Estado</th>
        </tr>
      </thead>
      <tbody>
        {day.ingredients.map((i) => (
          <tr key={i.ingredientId} className="border-b border-stone-100">
            <td className="py-2 font-medium">{i.name}</td>
            <td className="py-2 text-right tabular-nums">{formatAmount(i.needed, i.unit)}</td>
            <td className="py-2 text-right tabular-nums">{formatAmount(i.stock, i.unit)}</td>
            <td className="py-2 pl-4">
              {i.shortage > 0 ? (
                <span className="font-semibold text-red-700">{shortageText(i)}</span>
              ) : (
                <span className="text-green-800">Alcanza</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * A printable document over the page (production sheet, labels): a child of `<body>` printed alone
 * (styles.css hides the body's other children while a `.print-sheet` is there), A4, black on white.
 */
export function PrintPreview({ title, onClose, children }: { title: string; onClose(): void; children: ReactNode }) {
  const id = useId();
  const closeRef = useDismiss(onClose);
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
        <div className="mt-4 print:mt-0">{children}</div>
      </article>
    </div>,
    document.body,
  );
}

/** The production sheet: the day and the time printed, products and batches, ingredients. */
export function ProductionSheet({ day, marketName }: { day: ProductionDay; marketName: string }) {
  const printedAt = new Intl.DateTimeFormat('es-CO', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'America/Bogota',
  }).format(new Date());
  return (
    <div className="text-black">
      <header className="border-b-2 border-black pb-2">
        <p className="text-xl font-bold">{marketName || 'Panadería'} · Hoja de producción</p>
        <p className="text-base">Día de preparación: {dayLong(day.date)}</p>
        <p className="text-xs">Impresa el {printedAt}</p>
      </header>
      <table className="mt-4 w-full border-collapse text-sm">
        <thead>
          <tr className="border-b border-black text-left">
            <th className="py-1">Producto</th>
            <th className="py-1 text-right">Unidades</th>
            <th className="py-1 text-right">Lotes</th>
            <th className="py-1 text-right">Rinde</th>
            <th className="py-1 text-right">Hecho</th>
            <th className="py-1 pl-4">Firma</th>
          </tr>
        </thead>
        <tbody>
          {day.products.map((p) => (
            <tr key={p.productId} className="border-b border-stone-400">
              <td className="py-1.5 font-medium">{p.name}</td>
              <td className="py-1.5 text-right tabular-nums">{p.quantity}</td>
              <td className="py-1.5 text-right tabular-nums">{p.batches ?? 'Sin receta'}</td>
              <td className="py-1.5 text-right tabular-nums">{p.recipeYield ? `${p.recipeYield} por lote` : ''}</td>
              <td className="py-1.5 text-right tabular-nums">{p.produced}</td>
              <td className="py-1.5 pl-4">______</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3 className="mt-6 text-base font-bold">Ingredientes</h3>
      <table className="mt-2 w-full border-collapse text-sm">
        <thead>
          <tr className="border-b border-black text-left">
            <th className="py-1">Ingrediente</th>
            <th className="py-1 text-right">Necesario</th>
            <th className="py-1 text-right">En inventario</th>
            <th className="py-1 pl-4">Faltante</th>
          </tr>
        </thead>
        <tbody>
          {day.ingredients.map((i) => (
            <tr key={i.ingredientId} className="border-b border-stone-400">
              <td className="py-1.5">{i.name}</td>
              <td className="py-1.5 text-right tabular-nums">{formatAmount(i.needed, i.unit)}</td>
              <td className="py-1.5 text-right tabular-nums">{formatAmount(i.stock, i.unit)}</td>
              <td className="py-1.5 pl-4 font-semibold">{i.shortage > 0 ? shortageText(i) : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Packing labels: one per order with its number, customer, due window, lines and the products' allergens. */
export function PackingLabels({ day }: { day: ProductionDay }) {
  const allergens = new Map(day.products.map((p) => [p.productId, p.allergens]));
  return (
    <div className="grid grid-cols-2 gap-3 text-black print:gap-2">
      {(day.orders ?? []).map((o) => {
        const present = [...new Set(o.items.flatMap((i) => allergens.get(i.productId) ?? []))];
        return (
          <section key={o.id} className="break-inside-avoid rounded border-2 border-black p-3 text-sm">
            <p className="text-lg font-bold">#{o.number}</p>
            <p className="font-semibold">{o.customer}</p>
            <p>
              {dayLong(o.dueDate)}
              {o.windowLabel ? ` · ${o.windowLabel}` : ''} · {o.fulfillment === 'pickup' ? 'Recoge' : 'Domicilio'}
            </p>
            <ul className="mt-1 list-disc pl-5">
              {o.items.map((i, n) => (
                <li key={n}>
                  {i.quantity} × {i.name}
                </li>
              ))}
            </ul>
            <p className="mt-1 text-xs font-semibold">
              Alérgenos: {present.length ? present.join(', ') : 'ninguno declarado'}
            </p>
          </section>
        );
      })}
    </div>
  );
}
