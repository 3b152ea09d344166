import { dayInZone } from '@hornada/domain/days';
import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { AreaPage } from '../../components/area-page';
import { useCompanyId } from '../../components/data-table/resource-client';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api/http';
import { readForScreen } from '../../lib/api/screen-read';
import { FOLLOWS_NOTHING, useScreenData } from '../../lib/live/use-screen-data';
import { orderEntryApi } from './api';
import type { EntryData } from './entry-data';
import { countSlots, dayChoices, leadDays } from './entry-rules';
import { EntryScreen } from './entry-screen';
import { LoadFailed, LoadingStatus } from '../../components/load-status';

/** How many days ahead staff may book (delivery-days' default). */
const DAYS_AHEAD = 14;

async function loadEntry(companyId: string, signal: AbortSignal): Promise<EntryData> {
  const [settings, products, clients, offered] = await Promise.all([
    orderEntryApi.settings(companyId, signal),
    orderEntryApi.products(companyId, signal),
    orderEntryApi.b2bClients(companyId, signal),
    orderEntryApi.deliveryDays(companyId, DAYS_AHEAD, signal),
  ]);
  const now = new Date();
  // delivery-days leaves out the windows within the lead time; staff may still take them, so their places
  // are counted here (only when a window has a capacity to fill).
  const { from, to } = leadDays(settings, now);
  const counted = settings.deliveryWindows.some((w) => w.capacity !== null)
    ? countSlots(await orderEntryApi.ordersDue(companyId, from, to, signal), settings.timeZone)
    : new Map<string, number>();
  const days = dayChoices(settings, offered, now, DAYS_AHEAD, counted);
  return { settings, products, clients, days, today: dayInZone(now, settings.timeZone) };
}

/**
 * What the order entry works from, read once when it opens: it follows nothing live (an order being taken is
 * not redrawn under the person taking it); the server checks prices and places again when it is sent.
 */
export const loader = ({ request }: { request: Request }) =>
  readForScreen(
    (companyId) => loadEntry(companyId, request.signal),
    (err) => (err instanceof ApiError ? err.userMessage : 'No pudimos cargar los datos del pedido.'),
  );

/** `/dashboard/orders/create`: staff order entry (docs/design.md §5, §6). */
export function Component() {
  const companyId = useCompanyId();
  const { data: loaded, reload } = useScreenData(loader, companyId, FOLLOWS_NOTHING);

  return (
    <AreaPage title="Nuevo pedido">
      <Link
        to={paths.dashboard.orders}
        className="-mt-3 mb-4 inline-flex items-center gap-1 text-sm font-medium text-amber-900 hover:underline"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        Pedidos
      </Link>
      {loaded.state === 'failed' ? (
        <LoadFailed message={loaded.message} onRetry={reload} />
      ) : companyId ? (
        <EntryScreen companyId={companyId} data={loaded.data} />
      ) : (
        <LoadingStatus>Cargando productos, clientes y horarios…</LoadingStatus>
      )}
    </AreaPage>
  );
}
