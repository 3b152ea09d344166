import type { DeliveryDay, DeliveryStop } from '@hornada/domain/delivery';
import { mapLinks, unconfirmedTransfer } from '@hornada/domain/delivery';
import { formatMoney } from '@hornada/domain/format';
import { canMoveStatus, NOT_RECEIVED_ES, notReceivedText, ORDER_STATUS_ES } from '@hornada/domain/order-status';
import { NOT_RECEIVED_DETAILS_MAX, NOT_RECEIVED_REASONS, type NotReceivedReason } from '@hornada/domain/schemas/orders';
import { CheckCircle2, CloudOff, MapPin, MessageCircle, AlertTriangle, Phone, Truck } from 'lucide-react';
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { useStore } from 'zustand';
import { AreaPage } from '../../components/area-page';
import { useCompanyId } from '../../components/data-table/resource-client';
import { TodayTomorrow, todayOrTomorrowOf, useTodayOrTomorrow } from '../../components/today-tomorrow';
import { EmptyState } from '../../components/empty-state';
import { authStore } from '../../lib/auth/auth-store';
import { LoadFailed, LoadingStatus } from '../../components/load-status';
import { DriverApp } from './driver-app';
import { loadDeliveryDay, newAction, useDeliveryDay, type DeliveryLoader, type DriverAction } from './delivery-api';
import { useScreenLoading } from '../../lib/use-screen-loading';
import { addressText, collectText, returnedText } from './delivery-parts';
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

/** Large touch targets (at least 44 px). */
const big =
  'inline-flex min-h-12 min-w-12 items-center justify-center gap-2 rounded-xl px-4 text-base font-semibold focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-amber-900';
const primary = `${big} bg-amber-900 text-white hover:bg-amber-800 disabled:opacity-60`;
const secondary = `${big} border border-stone-300 bg-white text-stone-900 hover:bg-stone-50`;

/** A Colombian phone as WhatsApp's link wants it: digits with the country code. */
export function whatsappLink(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return `https://wa.me/${digits.length === 10 ? `57${digits}` : digits}`;
}

/** The signed-in user's queue and conflicts on this phone, kept up to date, and flushed whenever the connection returns. */
function useQueue(uid: string | null, companyId: string | null, reload: () => void) {
  const [pending, setPending] = useState<DriverAction[]>([]);
  const [problems, setProblems] = useState<Conflict[]>([]);
  const refresh = useCallback(() => {
    if (!uid) return;
    // Refused once the user signs out of this tab (driver-queue.ts): nothing to show then.
    pendingActions(uid).then(setPending, () => undefined);
    readConflicts(uid).then(setProblems, () => undefined);
  }, [uid]);
  useEffect(() => {
    refresh();
    const off = onQueueChange(refresh);
    // What was sent (or refused) changed the route: read it again.
    const online = () => uid && companyId && void flush(uid, companyId).then(reload, () => undefined);
    window.addEventListener('online', online);
    online();
    return () => {
      off();
      window.removeEventListener('online', online);
    };
  }, [uid, companyId, refresh, reload]);
  return { pending, problems };
}

/** The status a stop shows: the server's, moved on by the moves still on the phone. */
function shownStatus(stop: DeliveryStop, pending: readonly DriverAction[]): DeliveryStop['status'] {
  let status = stop.status;
  for (const a of pending) if (a.orderId === stop.id && a.body.status) status = a.body.status;
  return status;
}

/** "No recibió": the driver picks why (and for "Otro" says what, at most 200 characters); the stop goes back. */
function NotReceivedForm({
  number,
  onSend,
  onCancel,
}: {
  number: number;
  onSend(notReceived: NonNullable<DriverAction['body']['notReceived']>): void;
  onCancel(): void;
}) {
  const id = useId();
  const [reason, setReason] = useState<NotReceivedReason | null>(null);
  const [details, setDetails] = useState('');
  const [error, setError] = useState<string | null>(null);
  const send = (e: FormEvent) => {
    e.preventDefault();
    if (!reason) return setError('Elige por qué no se entregó.');
    const text = details.trim();
    if (reason === 'other' && !text) return setError('Cuenta qué pasó (hasta 200 caracteres).');
    onSend({ reason, details: reason === 'other' ? text : null });
  };
  return (
    <form className="mt-3 space-y-3 rounded-xl border border-stone-300 p-3" onSubmit={send} noValidate>
      <fieldset aria-describedby={error ? `${id}-error` : undefined}>
        <legend className="text-base font-semibold">¿Por qué no se entregó el pedido #{number}?</legend>
        <div className="mt-2 space-y-1">
          {NOT_RECEIVED_REASONS.map((r) => (
            <label key={r} className="flex min-h-12 items-center gap-3 text-base">
              <input
                type="radio"
                name={`${id}-reason`}
                value={r}
                checked={reason === r}
                onChange={() => {
                  setReason(r);
                  setError(null);
                }}
                className="size-5"
              />
              {NOT_RECEIVED_ES[r]}
            </label>
          ))}
        </div>
      </fieldset>
      {reason === 'other' ? (
        <label className="block text-base font-medium">
          ¿Qué pasó?
          <textarea
            value={details}
            maxLength={NOT_RECEIVED_DETAILS_MAX}
            onChange={(e) => {
              setDetails(e.target.value);
              setError(null);
            }}
            rows={2}
            className="mt-1 block w-full rounded-xl border border-stone-300 px-3 py-2 text-base"
            aria-describedby={`${id}-count`}
          />
          <span id={`${id}-count`} className="text-sm text-stone-700">
            {details.length} de {NOT_RECEIVED_DETAILS_MAX} caracteres
          </span>
        </label>
      ) : null}
      {error ? (
        <p id={`${id}-error`} role="alert" className="font-semibold text-red-800">
          {error}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={primary}>
          Devolver a la panadería
        </button>
        <button type="button" className={secondary} onClick={onCancel}>
          Cancelar
        </button>
      </div>
    </form>
  );
}

function StopCard({
  stop,
  position,
  pending,
  canReturn,
  onAction,
}: {
  stop: DeliveryStop;
  position: number;
  pending: readonly DriverAction[];
  /** Whether this user may send a stop back ("No recibió" is the driver's move, docs/design.md §5). */
  canReturn: boolean;
  onAction(body: DriverAction['body']): void;
}) {
  const status = shownStatus(stop, pending);
  const waiting = pending.some((a) => a.orderId === stop.id);
  // An unconfirmed transfer may be paid in cash at the door: the field starts empty, as the
  // shopper may have transferred already; the cash sent pays it on the server.
  const transfer = unconfirmedTransfer(stop);
  const takesCash = stop.paymentMethod === 'cash' || transfer > 0;
  const [cash, setCash] = useState(transfer > 0 ? '' : String(stop.amountToCollect));
  const hintId = `cash-hint-${stop.id}`;
  const [failing, setFailing] = useState(false);
  // The reason of a "No recibió" still on the phone, else the office's copy of it.
  const kept = [...pending].reverse().find((a) => a.orderId === stop.id && a.body.status);
  const returned =
    kept?.body.status === 'ready' && kept.body.notReceived
      ? `No recibió: ${notReceivedText(kept.body.notReceived)}`
      : kept
        ? null
        : returnedText(stop);
  const links = mapLinks(stop);
  const headingId = `stop-${stop.id}`;
  const deliver = (e: FormEvent) => {
    e.preventDefault();
    const amount = Number(cash.replace(/\D/g, ''));
    const received = Number.isFinite(amount) ? amount : 0;
    onAction(
      stop.paymentMethod === 'cash' || (transfer > 0 && received > 0)
        ? { status: 'delivered', cashCollected: received }
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
      {returned ? (
        <p className="mt-2 flex items-center gap-1 font-semibold text-red-800">
          <AlertTriangle className="size-5" aria-hidden="true" />
          {returned}
        </p>
      ) : null}
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
      ) : status === 'out_for_delivery' && failing ? (
        <NotReceivedForm
          number={stop.number}
          onCancel={() => setFailing(false)}
          onSend={(notReceived) => {
            setFailing(false);
            onAction({ status: 'ready', notReceived });
          }}
        />
      ) : status === 'out_for_delivery' ? (
        <form className="mt-3 space-y-2" onSubmit={deliver}>
          {takesCash ? (
            <label className="block text-base font-medium">
              Efectivo recibido
              <input
                inputMode="numeric"
                value={cash}
                onChange={(e) => setCash(e.target.value)}
                aria-describedby={transfer > 0 ? hintId : undefined}
                className="mt-1 block min-h-12 w-full rounded-xl border border-stone-300 px-3 text-lg tabular-nums"
              />
            </label>
          ) : null}
          {transfer > 0 ? (
            <p id={hintId} className="text-sm text-stone-700">
              Si paga en efectivo, escribe {formatMoney(transfer)}; si ya transfirió, déjalo vacío.
            </p>
          ) : null}
          <button type="submit" className={`${primary} w-full`}>
            <CheckCircle2 className="size-5" aria-hidden="true" />
            Entregado
          </button>
          {canReturn ? (
            <button type="button" className={`${secondary} w-full`} onClick={() => setFailing(true)}>
              <AlertTriangle className="size-5" aria-hidden="true" />
              No recibió
            </button>
          ) : null}
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
 * Domicilios › Mi ruta (docs/design.md §6 driver orders): today's (or tomorrow's) stops in route order, one card a stop
 * with large targets; "En camino", "Entregado" (with the cash received) and "No recibió" (with a reason: the
 * stop goes back to the office) are kept on the phone and sent when there is signal; without signal the
 * last route read is shown.
 */
export const loader: DeliveryLoader = ({ request }) => {
  // Each answer is kept on the phone for the signed-in driver: without signal, the last route read is shown.
  const uid = authStore.getState().user?.uid ?? null;
  return loadDeliveryDay(request, todayOrTomorrowOf(new URL(request.url).searchParams), (companyId, day) => {
    if (uid) void keepRoute(uid, companyId, day).catch(() => undefined);
  });
};

export function Component() {
  const companyId = useCompanyId();
  const { tomorrow, date, choose } = useTodayOrTomorrow();
  // Everything the phone keeps is the signed-in user's own (driver-queue.ts): another driver never sees it.
  const uid = useStore(authStore, (st) => st.user?.uid ?? null);
  const role = useStore(authStore, (st) => st.user?.role ?? null);
  const canReturn = role !== null && canMoveStatus(role, 'out_for_delivery', 'ready', 'delivery');
  const { load, reload } = useDeliveryDay(loader);
  const switching = useScreenLoading();
  const { pending, problems } = useQueue(uid, companyId, reload);
  const [kept, setKept] = useState<DeliveryDay | null>(null);
  useEffect(() => {
    if (load.state === 'failed' && companyId && uid)
      void keptRoute(uid, companyId, date)
        .then(setKept)
        .catch(() => undefined);
  }, [load.state, uid, companyId, date]);
  const day = load.state === 'ready' ? load.data : kept;
  // A delivery assistant reads only its own stops; staff who drive read every route, and see theirs here.
  const stops = day?.routes.filter((r) => r.driver?.id === uid).flatMap((r) => r.stops) ?? [];

  const act = (stop: DeliveryStop, body: DriverAction['body']) => {
    if (!companyId || !uid) return;
    void enqueue(uid, companyId, newAction(stop, body)).then(reload, () => undefined);
  };

  return (
    <AreaPage title={tomorrow ? 'Mi ruta de mañana' : 'Mi ruta de hoy'}>
      <DriverApp />
      <TodayTomorrow tomorrow={tomorrow} onChoose={choose} />
      {problems.length > 0 ? (
        <ul className="mb-4 space-y-2" aria-label="Cambios que no se pudieron enviar">
          {problems.map((c) => (
            // The alert inside the item: a role on the <li> itself would leave the list without list items.
            <li key={c.action.key} className="rounded-xl border border-red-300 bg-red-50 p-3 text-red-900">
              <p role="alert">{c.message}</p>
              <button
                type="button"
                className={`${secondary} mt-2`}
                onClick={() => uid && void dismissConflict(uid, c.action.key).catch(() => undefined)}
              >
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
      {switching && !kept ? (
        <LoadingStatus>Cargando tu ruta…</LoadingStatus>
      ) : load.state === 'failed' && !kept ? (
        <LoadFailed message={load.message} onRetry={reload} />
      ) : stops.length === 0 ? (
        <EmptyState
          title={tomorrow ? 'Mañana no tienes domicilios asignados.' : 'Hoy no tienes domicilios asignados.'}
        />
      ) : (
        <ol className="space-y-4">
          {stops.map((s, i) => (
            <StopCard
              key={s.id}
              stop={s}
              position={i + 1}
              pending={pending}
              canReturn={canReturn}
              onAction={(body) => act(s, body)}
            />
          ))}
        </ol>
      )}
    </AreaPage>
  );
}
