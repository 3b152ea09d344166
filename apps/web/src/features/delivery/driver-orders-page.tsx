import type { DeliveryDay, DeliveryStop } from '@hornada/domain/delivery';
import { mapLinks } from '@hornada/domain/delivery';
import { formatMoney } from '@hornada/domain/format';
import { ORDER_STATUS_ES } from '@hornada/domain/order-status';
import { CheckCircle2, CloudOff, MapPin, MessageCircle, Phone, Truck } from 'lucide-react';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useStore } from 'zustand';
import { AreaPage } from '../../components/area-page';
import { useCompanyId } from '../../components/data-table/resource-client';
import { dayFromNow } from '../../components/day-picker';
import { EmptyState } from '../../components/empty-state';
import { authStore } from '../../lib/auth-store';
import { LoadFailed, LoadingStatus } from '../../components/load-status';
import { DriverApp } from './driver-app';
import { newAction, useDeliveryDay, type DriverAction } from './delivery-api';
import { addressText, collectText } from './delivery-parts';
import {
  conflicts as readConflicts,
  dismissConflict,
  enqueue,
  flush,
  keepRoute,
  keptRoute,
  onQueueChange,
  pendingActions,
  type Conflict,
} from './driver-queue';

/** Large touch targets (at least 44 px, issue 27). */
const big =
  'inline-flex min-h-12 min-w-12 items-center justify-center gap-2 rounded-xl px-4 text-base font-semibold focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-amber-900';
const primary = `${big} bg-amber-900 text-white hover:bg-amber-800 disabled:opacity-60`;
const secondary = `${big} border border-stone-300 bg-white text-stone-900 hover:bg-stone-50`;

/** A Colombian phone as WhatsApp's link wants it: digits with the country code. */
export function whatsappLink(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return `https://wa.me/${digits.length === 10 ? `57${digits}` : digits}`;
}

/** The queue and conflicts of this phone, kept up to date, and flushed whenever the connection returns. */
function useQueue(companyId: string | null, reload: () => void) {
  const [pending, setPending] = useState<DriverAction[]>([]);
  const [problems, setProblems] = useState<Conflict[]>([]);
  const refresh = useCallback(() => {
    void pendingActions().then(setPending);
    void readConflicts().then(setProblems);
  }, []);
  useEffect(() => {
    refresh();
    const off = onQueueChange(refresh);
    // What was sent (or refused) changed the route: read it again.
    const online = () => companyId && void flush(companyId).then(reload);
    window.addEventListener('online', online);
    online();
    return () => {
      off();
      window.removeEventListener('online', online);
    };
  }, [companyId, refresh, reload]);
  return { pending, problems };
}

/** The status a stop shows: the server's, moved on by the moves still on the phone. */
function shownStatus(stop: DeliveryStop, pending: readonly DriverAction[]): DeliveryStop['status'] {
  let status = stop.status;
  for (const a of pending) if (a.orderId === stop.id && a.body.status) status = a.body.status;
  return status;
}

function StopCard({
  stop,
  position,
  pending,
  onAction,
}: {
  stop: DeliveryStop;
  position: number;
  pending: readonly DriverAction[];
  onAction(body: DriverAction['body']): void;
}) {
  const status = shownStatus(stop, pending);
  const waiting = pending.some((a) => a.orderId === stop.id);
  const [cash, setCash] = useState(String(stop.amountToCollect));
  const links = mapLinks(stop);
  const headingId = `stop-${stop.id}`;
  const deliver = (e: FormEvent) => {
    e.preventDefault();
    const amount = Number(cash.replace(/\D/g, ''));
    onAction(
      stop.paymentMethod === 'cash'
        ? { status: 'delivered', cashCollected: Number.isFinite(amount) ? amount : 0 }
        : { status: 'delivered' },
    );
  };
  return (
    <li className="rounded-2xl bg-white p-4 shadow-sm" aria-labelledby={headingId} data-stop={stop.number}>
      <div className="flex items-start justify-between gap-2">
        <h2 id={headingId} className="text-lg font-bold">
          {position}. #{stop.number} · {stop.contact.name}
        </h2>
        <span className="shrink-0 rounded-full bg-stone-100 px-2 py-1 text-sm font-medium text-stone-800">
          {ORDER_STATUS_ES[status]}
        </span>
      </div>
      {waiting ? (
        <p className="mt-1 flex items-center gap-1 font-semibold text-amber-900" role="status">
          <CloudOff className="size-5" aria-hidden="true" />
          Pendiente de enviar
        </p>
      ) : null}
      <p className="mt-1 text-base">{addressText(stop)}</p>
      {stop.address?.notes ? <p className="text-sm text-stone-700">{stop.address.notes}</p> : null}
      <p className="text-sm text-stone-700">Franja: {stop.windowLabel ?? 'Sin franja'}</p>
      <ul className="mt-2 text-base">
        {stop.items.map((l, i) => (
          <li key={i}>
            {l.quantity} × {l.name}
          </li>
        ))}
      </ul>
      <p className="mt-2 text-base font-semibold">{collectText(stop)}</p>
      {stop.notes ? <p className="text-sm text-stone-700">Nota: {stop.notes}</p> : null}
      <div className="mt-3 flex flex-wrap gap-2">
        <a className={secondary} href={`tel:${stop.contact.phone.replace(/[^\d+]/g, '')}`}>
          <Phone className="size-5" aria-hidden="true" />
          Llamar<span className="sr-only"> a {stop.contact.name}</span>
        </a>
        <a className={secondary} href={whatsappLink(stop.contact.phone)} target="_blank" rel="noreferrer">
          <MessageCircle className="size-5" aria-hidden="true" />
          WhatsApp<span className="sr-only"> a {stop.contact.name}</span>
        </a>
        {links ? (
          <a className={secondary} href={links.google} target="_blank" rel="noreferrer">
            <MapPin className="size-5" aria-hidden="true" />
            Mapa<span className="sr-only"> del pedido #{stop.number}</span>
          </a>
        ) : null}
      </div>
      {status === 'ready' ? (
        <button
          type="button"
          className={`${primary} mt-3 w-full`}
          onClick={() => onAction({ status: 'out_for_delivery' })}
        >
          <Truck className="size-5" aria-hidden="true" />
          En camino
        </button>
      ) : status === 'out_for_delivery' ? (
        <form className="mt-3 space-y-2" onSubmit={deliver}>
          {stop.paymentMethod === 'cash' ? (
            <label className="block text-base font-medium">
              Efectivo recibido
              <input
                inputMode="numeric"
                value={cash}
                onChange={(e) => setCash(e.target.value)}
                className="mt-1 block min-h-12 w-full rounded-xl border border-stone-300 px-3 text-lg tabular-nums"
              />
            </label>
          ) : null}
          <button type="submit" className={`${primary} w-full`}>
            <CheckCircle2 className="size-5" aria-hidden="true" />
            Entregado
          </button>
        </form>
      ) : status === 'delivered' ? (
        <p className="mt-3 font-semibold text-green-800">
          Entregado{stop.cashCollected !== null ? ` · Recibido ${formatMoney(stop.cashCollected)}` : ''}
        </p>
      ) : (
        <p className="mt-3 text-sm text-stone-700">Aún no está listo para salir.</p>
      )}
    </li>
  );
}

/**
 * Domicilios › Mi ruta (design §6 driver orders, issue 27): today's stops in route order, one card a stop
 * with large targets; "En camino" and "Entregado" (with the cash received) are kept on the phone and sent
 * when there is signal; without signal the last route read is shown.
 */
export function Component() {
  const companyId = useCompanyId();
  const date = dayFromNow(0);
  const keep = useCallback(
    (day: DeliveryDay) => companyId && void keepRoute(companyId, day).catch(() => undefined),
    [companyId],
  );
  const { load, reload } = useDeliveryDay(companyId, date, keep);
  const { pending, problems } = useQueue(companyId, reload);
  const [kept, setKept] = useState<DeliveryDay | null>(null);
  useEffect(() => {
    if (load.state === 'failed' && companyId)
      void keptRoute(companyId, date)
        .then(setKept)
        .catch(() => undefined);
  }, [load.state, companyId, date]);
  const day = load.state === 'ready' ? load.data : kept;
  // A delivery assistant reads only its own stops; staff who drive read every route, and see theirs here.
  const uid = useStore(authStore, (st) => st.user?.uid ?? null);
  const stops = day?.routes.filter((r) => r.driver?.id === uid).flatMap((r) => r.stops) ?? [];

  const act = (stop: DeliveryStop, body: DriverAction['body']) => {
    if (!companyId) return;
    void enqueue(companyId, newAction(stop, body)).then(reload);
  };

  return (
    <AreaPage title="Mi ruta de hoy">
      <DriverApp />
      {problems.length > 0 ? (
        <ul className="mb-4 space-y-2" aria-label="Cambios que no se pudieron enviar">
          {problems.map((c) => (
            <li key={c.action.key} role="alert" className="rounded-xl border border-red-300 bg-red-50 p-3 text-red-900">
              <p>{c.message}</p>
              <button type="button" className={`${secondary} mt-2`} onClick={() => void dismissConflict(c.action.key)}>
                Entendido
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {load.state === 'failed' && kept ? (
        <p className="mb-3 rounded-xl bg-amber-50 p-3 text-amber-900" role="status">
          Sin conexión: mostramos la ruta guardada en el teléfono.
        </p>
      ) : null}
      {load.state === 'loading' && !kept ? (
        <LoadingStatus>Cargando tu ruta…</LoadingStatus>
      ) : load.state === 'failed' && !kept ? (
        <LoadFailed message={load.message} onRetry={reload} />
      ) : stops.length === 0 ? (
        <EmptyState title="Hoy no tienes domicilios asignados." />
      ) : (
        <ol className="space-y-4">
          {stops.map((s, i) => (
            <StopCard key={s.id} stop={s} position={i + 1} pending={pending} onAction={(body) => act(s, body)} />
          ))}
        </ol>
      )}
    </AreaPage>
  );
}
