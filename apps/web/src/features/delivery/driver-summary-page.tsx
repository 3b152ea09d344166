import { deliveryTotals } from '@hornada/domain/delivery';
import { useStore } from 'zustand';
import { AreaPage } from '../../components/area-page';
import { dayFromNow } from '../../components/day-picker';
import { authStore } from '../../lib/auth/auth-store';
import { LoadFailed } from '../../components/load-status';
import { DriverApp } from './driver-app';
import { loadDeliveryDay, useDeliveryDay, type DeliveryLoader } from './delivery-api';
import { TotalsList } from './delivery-parts';

/** Domicilios › Resumen del día (docs/design.md §6 driver summary): the driver's stops and cash today. */
export const loader: DeliveryLoader = ({ request }) => loadDeliveryDay(request, dayFromNow(0));

export function Component() {
  const { load, reload } = useDeliveryDay(loader);
  const uid = useStore(authStore, (st) => st.user?.uid ?? null);
  // Staff who drive read every route: their own totals, as a delivery assistant's read gives.
  const totals =
    load.state === 'ready' ? (load.data.routes.find((r) => r.driver?.id === uid)?.totals ?? deliveryTotals([])) : null;
  return (
    <AreaPage title="Resumen del día">
      <DriverApp />
      <div className="rounded-2xl bg-white p-4 shadow-sm">
        {load.state === 'failed' ? (
          <LoadFailed message={load.message} onRetry={reload} />
        ) : (
          <TotalsList totals={totals!} />
        )}
      </div>
    </AreaPage>
  );
}
