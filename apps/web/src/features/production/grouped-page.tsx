import { formatCount, formatQuantity } from '@hornada/domain/format';
import { Printer, Tags } from 'lucide-react';
import { useState } from 'react';
import { AreaPage } from '../../components/area-page';
import { EmptyState } from '../../components/empty-state';
import { LoadFailed, LoadingStatus } from '../../components/load-status';
import { secondaryButtonClass } from '../../components/ui/button';
import { useMarketName } from '../../lib/use-market-name';
import { loadProductionDay, useProductionDay, type ProductionLoader } from './production-api';
import { useScreenLoading } from '../../lib/use-screen-loading';
import { DayPicker, dayOfParams, useDayParam } from '../../components/day-picker';
import { PrintPreview } from '../../components/print-preview';
import { IngredientNeeds, PackingLabels, ProductionSheet, ProgressBar } from './production-parts';

/**
 * Dashboard › Producción agrupada (docs/design.md §6 orders/production/grouped): a preparation day's
 * total per product with batches from the recipe's yield and progress, the ingredients it needs against
 * stock with shortages said in red, a printable production sheet and packing labels. Live.
 */
export const loader: ProductionLoader = ({ request }) =>
  loadProductionDay(request, dayOfParams(new URL(request.url).searchParams));

export function Component() {
  const [date, setDate] = useDayParam();
  const { load, reload } = useProductionDay(loader);
  const switching = useScreenLoading();
  const marketName = useMarketName();
  const [printing, setPrinting] = useState<'sheet' | 'labels' | null>(null);
  const day = load.state === 'ready' ? load.data : null;
  const hasProducts = (day?.products.length ?? 0) > 0;

  const actions = hasProducts ? (
    <div className="flex flex-wrap gap-2">
      <button type="button" className={secondaryButtonClass} onClick={() => setPrinting('sheet')}>
        <Printer className="size-4" aria-hidden="true" />
        Hoja de producción
      </button>
      <button type="button" className={secondaryButtonClass} onClick={() => setPrinting('labels')}>
        <Tags className="size-4" aria-hidden="true" />
        Etiquetas de empaque
      </button>
    </div>
  ) : undefined;

  return (
    <AreaPage title="Producción agrupada" actions={actions}>
      <DayPicker day={date} onChange={setDate} />
      <div className="mt-5">
        {switching ? (
          <LoadingStatus>Cargando la producción del día…</LoadingStatus>
        ) : load.state === 'failed' ? (
          <LoadFailed message={load.message} onRetry={reload} />
        ) : !hasProducts ? (
          <EmptyState title="No hay pedidos para preparar este día.">
            <p>Elige otro día o revisa los pedidos pendientes de confirmar.</p>
          </EmptyState>
        ) : (
          <div className="grid gap-6 xl:grid-cols-2">
            <section aria-labelledby="products-title" className="rounded-2xl bg-white p-4 shadow-sm">
              <h2 id="products-title" className="text-lg font-semibold">
                Productos
              </h2>
              {/* On a phone the progress bar sits under the product's name, so the row fits 375 px. */}
              <table className="mt-3 w-full text-sm">
                <thead className="border-b border-stone-300 text-left text-xs uppercase tracking-wide text-stone-600">
                  <tr>
                    <th scope="col" className="py-2">
                      Producto
                    </th>
                    <th scope="col" className="py-2 pl-2 text-right">
                      Cantidad
                    </th>
                    <th scope="col" className="py-2 pl-2 text-right">
                      Lotes
                    </th>
                    <th scope="col" className="py-2 pl-2 text-right">
                      Hecho
                    </th>
                    <th scope="col" className="hidden w-1/4 py-2 pl-4 sm:table-cell">
                      Progreso
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {day!.products.map((p) => (
                    <tr key={p.productId} className="border-b border-stone-100" data-product={p.productId}>
                      <th scope="row" className="py-2 text-left font-medium">
                        {p.name}
                        <div className="mt-1.5 sm:hidden">
                          <ProgressBar produced={p.produced} quantity={p.quantity} label={`Progreso de ${p.name}`} />
                        </div>
                      </th>
                      <td className="py-2 pl-2 text-right tabular-nums">{formatQuantity(p.quantity)}</td>
                      <td className="py-2 pl-2 text-right tabular-nums">
                        {p.batches === null ? (
                          <span className="text-stone-600">Sin receta</span>
                        ) : (
                          <span title={`${formatQuantity(p.recipeYield ?? 0)} por lote`}>
                            {formatQuantity(p.batches)}
                          </span>
                        )}
                      </td>
                      <td className="py-2 pl-2 text-right tabular-nums">{formatQuantity(p.produced)}</td>
                      <td className="hidden py-2 pl-4 sm:table-cell">
                        <ProgressBar produced={p.produced} quantity={p.quantity} label={`Progreso de ${p.name}`} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
            <section aria-labelledby="ingredients-title" className="rounded-2xl bg-white p-4 shadow-sm">
              <h2 id="ingredients-title" className="text-lg font-semibold">
                Ingredientes necesarios
              </h2>
              <div className="mt-3">
                <IngredientNeeds day={day!} />
              </div>
              {day!.problems.length > 0 ? (
                <p className="mt-3 text-sm text-amber-900">
                  {day!.problems.length === 1
                    ? 'Una línea de receta no se pudo contar (un ingrediente borrado o una unidad que no convierte).'
                    : `${formatCount(day!.problems.length, 'línea')} de receta no se pudieron contar (ingredientes borrados o unidades que no convierten).`}
                </p>
              ) : null}
            </section>
          </div>
        )}
      </div>
      {printing && day ? (
        <PrintPreview
          title={printing === 'sheet' ? 'Hoja de producción' : 'Etiquetas de empaque'}
          onClose={() => setPrinting(null)}
        >
          {printing === 'sheet' ? <ProductionSheet day={day} marketName={marketName} /> : <PackingLabels day={day} />}
        </PrintPreview>
      ) : null}
    </AreaPage>
  );
}
