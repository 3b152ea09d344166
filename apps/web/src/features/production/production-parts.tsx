import { formatQuantity } from '@hornada/domain/format';
import type { ProductionDay } from '@hornada/domain/production';
import { dayLong, formatAmount, progressOf, shortageText } from './production-view';

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
      aria-valuetext={`${formatQuantity(produced)} de ${formatQuantity(quantity)} (${pct} %)`}
      className={`w-full overflow-hidden rounded-full bg-stone-200 ${large ? 'h-6' : 'h-2.5'}`}
    >
      <div
        className={`h-full rounded-full ${pct >= 100 ? 'bg-green-700' : 'bg-amber-700'}`}
        style={{ width: `${pct}%` }}
      />
    </div>
  );
}

/** Production took more than was counted (the count was off): said, never read as more to buy. */
const NEGATIVE_STOCK = 'Inventario negativo: revisa el conteo';

/**
 * The ingredients of the day against stock; a shortage in red, said in words under the ingredient's name
 * (a fourth column would not fit a phone's 375 px).
 */
export function IngredientNeeds({ day }: { day: ProductionDay }) {
  if (day.ingredients.length === 0)
    return <p className="text-stone-600">Ningún producto del día tiene receta con ingredientes.</p>;
  return (
    <table className="w-full text-sm">
      <thead className="border-b border-stone-300 text-left text-xs uppercase tracking-wide text-stone-600">
        <tr>
          <th scope="col" className="py-2">
            Ingrediente y estado
          </th>
          <th scope="col" className="py-2 pl-2 text-right">
            Necesario
          </th>
          <th scope="col" className="py-2 pl-2 text-right">
            En inventario
          </th>
        </tr>
      </thead>
      <tbody>
        {day.ingredients.map((i) => (
          <tr key={i.ingredientId} className="border-b border-stone-100 align-top">
            <th scope="row" className="py-2 text-left font-normal">
              <span className="block font-medium">{i.name}</span>
              {i.shortage > 0 ? <span className="block font-semibold text-red-700">{shortageText(i)}</span> : null}
              {i.stock < 0 ? <span className="block font-semibold text-red-700">{NEGATIVE_STOCK}</span> : null}
              {i.shortage <= 0 && i.stock >= 0 ? <span className="block text-green-800">Alcanza</span> : null}
            </th>
            <td className="py-2 pl-2 text-right tabular-nums whitespace-nowrap">{formatAmount(i.needed, i.unit)}</td>
            <td className="py-2 pl-2 text-right tabular-nums whitespace-nowrap">{formatAmount(i.stock, i.unit)}</td>
          </tr>
        ))}
      </tbody>
    </table>
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
              <td className="py-1.5 text-right tabular-nums">{formatQuantity(p.quantity)}</td>
              <td className="py-1.5 text-right tabular-nums">
                {p.batches === null ? 'Sin receta' : formatQuantity(p.batches)}
              </td>
              <td className="py-1.5 text-right tabular-nums">
                {p.recipeYield ? `${formatQuantity(p.recipeYield)} por lote` : ''}
              </td>
              <td className="py-1.5 text-right tabular-nums">{formatQuantity(p.produced)}</td>
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
              <td className="py-1.5 pl-4 font-semibold">
                {[i.shortage > 0 ? shortageText(i) : '', i.stock < 0 ? NEGATIVE_STOCK : ''].filter(Boolean).join(' · ')}
              </td>
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
                  {formatQuantity(i.quantity)} × {i.name}
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
