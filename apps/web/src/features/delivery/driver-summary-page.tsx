import { AreaPage } from '../../components/area-page';
import { useCompanyId } from '../../components/data-table/resource-client';
import { dayFromNow } from '../../components/day-picker';
import { LoadFailed, LoadingStatus } from '../../components/load-status';
import { DriverApp } from './driver-app';
import { useDeliveryDay } from './delivery-api';
import { TotalsList } from './delivery-parts';

/** Domicilios › Resumen del día (design §6 driver summary, issue 27): the driver's stops and cash today. */
export function Component() {
  const companyId = useCompanyId();
  const { load, reload } = useDeliveryDay(companyId, dayFromNow(0));
  return (
    <AreaPage title="Resumen del día">
      <DriverApp />
      <div className="rounded-2xl bg-white p-4 shadow-sm">
        {load.state === 'loading' ? (
          <LoadingStatus>Cargando tu resumen…</LoadingStatus>
        ) : load.state === 'failed' ? (
          <LoadFailed message={load.message} onRetry={reload} />
        ) : (
          <TotalsList totals={load.data.totals} />
        )}
      </div>
    </AreaPage>
  );
}
