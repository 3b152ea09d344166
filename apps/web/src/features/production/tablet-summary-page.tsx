import { formatQuantity } from '@hornada/domain/format';
import { AreaPage } from '../../components/area-page';
import { EmptyState } from '../../components/empty-state';
import { LoadFailed } from '../../components/load-status';
import { loadProductionDay, useProductionDay, type ProductionLoader } from './production-api';
import { ProgressBar } from './production-parts';
import { allProduced, dayFromNow } from './production-view';

/** Producción › Resumen del día: units and orders done against pending, today, live. */
export const loader: ProductionLoader = ({ request }) => loadProductionDay(request, dayFromNow(0));

export function Component() {
  const { load, reload } = useProductionDay(loader);
  if (load.state === 'failed')
    return (
      <AreaPage title="Resumen del día">
        <LoadFailed message={load.message} onRetry={reload} />
      </AreaPage>
    );
  const { products, orders = [] } = load.data;
  const units = products.reduce((n, p) => n + p.quantity, 0);
  const made = products.reduce((n, p) => n + Math.min(p.produced, p.quantity), 0);
  const done = orders.filter((o) => allProduced(o)).length;
  const stat = (label: string, value: number) => (
    <div className="rounded-2xl bg-white p-5 shadow-sm">
      <p className="text-lg text-stone-700">{label}</p>
      <p className="text-4xl font-bold tabular-nums">{formatQuantity(value)}</p>
    </div>
  );
  return (
    <AreaPage title="Resumen del día">
      {products.length === 0 ? (
        <EmptyState title="Hoy no hay nada que hornear." />
      ) : (
        <>
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {stat('Unidades hechas', made)}
            {stat('Unidades pendientes', units - made)}
            {stat('Pedidos listos', done)}
            {stat('Pedidos pendientes', orders.length - done)}
          </div>
          <div className="mt-6">
            <ProgressBar produced={made} quantity={units} label="Progreso del día" large />
          </div>
        </>
      )}
    </AreaPage>
  );
}
