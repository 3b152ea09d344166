import { formatMoney } from '@hornada/domain/format';
import {
  mapLinks,
  unconfirmedTransfer,
  type DeliveryRoute,
  type DeliveryStop,
  type DeliveryTotals,
} from '@hornada/domain/delivery';
import { notReceivedText, PAYMENT_METHOD_ES } from '@hornada/domain/order-status';
import { dayLong } from '../../components/day-picker';

/** The address as one line: street, neighbourhood, city. */
export function addressText(stop: Pick<DeliveryStop, 'address'>): string {
  const a = stop.address;
  return a ? [a.line, a.neighborhood, a.city].filter(Boolean).join(', ') : 'Sin dirección';
}

/**
 * What to collect at the door, in words: "Cobrar $12,500 en efectivo", "Transferencia sin confirmar: $52,000"
 * (the driver may take it in cash) or "Nada que cobrar (Transferencia)".
 */
export function collectText(
  stop: Pick<DeliveryStop, 'amountToCollect' | 'paymentMethod' | 'paymentStatus' | 'total'>,
): string {
  if (stop.amountToCollect > 0) return `Cobrar ${formatMoney(stop.amountToCollect)} en efectivo`;
  const transfer = unconfirmedTransfer(stop);
  return transfer > 0
    ? `Transferencia sin confirmar: ${formatMoney(transfer)}`
    : `Nada que cobrar (${PAYMENT_METHOD_ES[stop.paymentMethod]})`;
}

/** "No recibió: No había nadie" while a stop that failed is back at the office (null otherwise). */
export function returnedText(stop: Pick<DeliveryStop, 'status' | 'notReceived'>): string | null {
  return stop.status === 'ready' && stop.notReceived ? `No recibió: ${notReceivedText(stop.notReceived)}` : null;
}

/** Google Maps and Waze for a stop, by coordinates or by the address. */
export function MapLinks({ stop, className }: { stop: DeliveryStop; className: string }) {
  const links = mapLinks(stop);
  if (!links) return null;
  return (
    <>
      <a className={className} href={links.google} target="_blank" rel="noreferrer">
        Google Maps<span className="sr-only"> para el pedido #{stop.number}</span>
      </a>
      <a className={className} href={links.waze} target="_blank" rel="noreferrer">
        Waze<span className="sr-only"> para el pedido #{stop.number}</span>
      </a>
    </>
  );
}

/** A driver's or the day's cash and stops, as a definition list: the cash still to collect first, the day's beside it. */
export function TotalsList({ totals }: { totals: DeliveryTotals }) {
  const item = (label: string, value: string, strong = false, note?: string) => (
    <div>
      <dt className="text-xs uppercase tracking-wide text-stone-600">{label}</dt>
      <dd className={`tabular-nums ${strong ? 'text-lg font-bold' : 'font-semibold'}`}>{value}</dd>
      {note ? <dd className="text-xs tabular-nums text-stone-600">{note}</dd> : null}
    </div>
  );
  return (
    <dl className="grid grid-cols-3 gap-3 sm:grid-cols-6">
      {item('Paradas', String(totals.stops))}
      {item('Entregados', String(totals.delivered))}
      {item('Pendientes', String(totals.pending))}
      {/* What is still to ask for at the doors ahead; the day's whole cash beside it once some was collected. */}
      {item(
        'Efectivo por cobrar',
        formatMoney(totals.cashLeft),
        false,
        totals.cashLeft !== totals.cashToCollect ? `de ${formatMoney(totals.cashToCollect)} del día` : undefined,
      )}
      {item('Efectivo recibido', formatMoney(totals.cashCollected))}
      {item('Diferencia', formatMoney(totals.difference), true)}
    </dl>
  );
}

/** The printed run sheet of one driver: stops in order with what to deliver and collect, and a signature. */
export function RunSheet({ route, date, marketName }: { route: DeliveryRoute; date: string; marketName: string }) {
  return (
    <div className="text-black">
      <header className="border-b-2 border-black pb-2">
        <p className="text-xl font-bold">{marketName || 'Panadería'} · Hoja de ruta</p>
        <p className="text-base">
          {route.driver?.name ?? 'Sin repartidor'} · {dayLong(date)}
        </p>
        <p className="text-sm">
          {route.totals.stops} paradas · Efectivo por cobrar {formatMoney(route.totals.cashToCollect)}
        </p>
      </header>
      <ol className="mt-3 space-y-3">
        {route.stops.map((s, i) => (
          <li key={s.id} className="break-inside-avoid border-b border-stone-400 pb-2 text-sm">
            <p className="text-base font-bold">
              {i + 1}. #{s.number} · {s.contact.name} · {s.contact.phone}
            </p>
            <p>
              {addressText(s)}
              {s.address?.notes ? ` (${s.address.notes})` : ''}
              {s.noCoordinates ? ' · sin ubicación en el mapa' : ''}
            </p>
            <p>Franja: {s.windowLabel ?? 'Sin franja'}</p>
            <p>{s.items.map((l) => `${l.quantity} × ${l.name}`).join(', ')}</p>
            <p className="font-semibold">{collectText(s)}</p>
            {s.notes ? <p>Nota: {s.notes}</p> : null}
            <p className="mt-1">Recibido: ____________ Efectivo: ____________</p>
          </li>
        ))}
      </ol>
    </div>
  );
}
