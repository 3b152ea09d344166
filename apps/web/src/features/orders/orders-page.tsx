import { windowHours } from '@hornada/domain/order-display';
import { dayInZone } from '@hornada/domain/days';
import { formatMoney } from '@hornada/domain/format';
import {
  ORDER_CHANNELS,
  ORDER_PAYMENT_METHODS,
  ORDER_STATUSES,
  PAYMENT_STATUSES,
  type Order,
  type OrderStatus,
  type SuspiciousOrder,
} from '@hornada/domain/schemas/orders';
import type { ColumnDef } from '@tanstack/react-table';
import { Bell, BellOff, Plus, TriangleAlert } from 'lucide-react';
import { useCallback, useId } from 'react';
import { Link, redirect, useSearchParams } from 'react-router';
import { useStore } from 'zustand';
import { AreaPage } from '../../components/area-page';
import { DataTable, type TableFilter } from '../../components/data-table/data-table';
import { readListView, type ListView, type ListViewConfig } from '../../components/data-table/list-url';
import { resourceService } from '../../components/data-table/resource-client';
import { readTablePage, useResourceTable, type TableDef } from '../../components/data-table/use-resource-table';
import { readForScreen } from '../../lib/api/screen-read';
import { ignoringParams, usePartData } from '../../lib/live/use-screen-data';
import { EmptyState } from '../../components/empty-state';
import { buttonClass, secondaryButtonClass } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { authStore } from '../../lib/auth/auth-store';
import { useNewOrderAlert, useSoundSetting } from './new-order-alert';
import { OrderQuickActions, useOrderActor, type OrderActor } from './order-actions';
import { PaymentChip, RecurringChip, RefundDueChip, StatusChip } from '../../components/order-chips';
import { OrderDetailPanel } from './order-detail';
import {
  CHANNEL_ES,
  absoluteDay,
  DATE_PRESETS,
  FULFILLMENT_ES,
  orderMoves,
  ORDER_STATUS_ES,
  PAYMENT_METHOD_ES,
  PAYMENT_STATUS_ES,
  presetOf,
  shortDay,
} from './order-view';
import { readStatusCounts, type StatusCounts } from './status-counts';
import { TodayStrip } from './today-strip';
import { SetupChecklist } from './setup-checklist';
import { NO_FLAGS, readSuspicious, SUSPICIOUS_CANCEL_REASON_ES, suspiciousText } from './suspicious-orders';
import * as framePart from './orders-frame';
import type { CompanyClock } from './orders-frame';
import * as panelRead from './order-panel-read';
import { ORDER_PARAM, PANEL_READS } from './order-panel-read';

/**
 * The due-day range travels as the API's own list parameters (`date_field=dueDate`, `start_date`, `end_date`,
 * relative days such as `today` included), so the kit's URL view carries it like any filter. A URL without
 * `date_field` has not chosen a range yet: it becomes today and upcoming (docs/design.md §6), `start_date=today`, which
 * a saved link keeps meaning tomorrow.
 */
const CONFIG: ListViewConfig = {
  sortFields: ['dueDate', 'number', 'total', 'createdAt', 'updatedAt', 'status'],
  filterKeys: ['status', 'channel', 'paymentStatus', 'paymentMethod', 'date_field', 'start_date', 'end_date'],
  defaults: { sortBy: 'dueDate', sortDesc: false, perPage: 25 },
};

const FILTERS: TableFilter[] = [
  { key: 'channel', label: 'Canal', options: ORDER_CHANNELS.map((c) => ({ value: c, label: CHANNEL_ES[c] })) },
  {
    key: 'paymentStatus',
    label: 'Pago',
    options: PAYMENT_STATUSES.map((s) => ({ value: s, label: PAYMENT_STATUS_ES[s] })),
  },
  {
    key: 'paymentMethod',
    label: 'Medio de pago',
    options: ORDER_PAYMENT_METHODS.map((m) => ({ value: m, label: PAYMENT_METHOD_ES[m] })),
  },
];

/** The filters but the status: what the status chips count under. */
function otherFilters(view: ListView): Record<string, string> {
  const rest: Record<string, string> = {};
  for (const [k, v] of Object.entries(view.filters)) if (k !== 'status' && v !== '') rest[k] = v;
  return rest;
}

const TABLE: TableDef = { resource: 'orders', config: CONFIG };

/**
 * The page of orders the address asks for, the status chips' counts and the flags of its suspicious orders (never
 * older than the rows: they are read together). What is around the list is the frame's (orders-frame.ts). An address without
 * a chosen range has not chosen one yet: it becomes today and upcoming (docs/design.md §6), in place of itself
 * (Back does not come back to it to be sent on again).
 */
export const loader = ({ request }: { request: Request }) => {
  const url = new URL(request.url);
  if (!url.searchParams.has('date_field')) {
    url.searchParams.set('date_field', 'dueDate');
    url.searchParams.set('start_date', 'today');
    throw redirect(url.pathname + url.search, { headers: { 'X-Remix-Replace': 'true' } });
  }
  return readForScreen(async (companyId) => {
    const view = readListView(url.searchParams, CONFIG);
    const [page, counts, flags] = await Promise.all([
      readTablePage<Order>(TABLE, request, companyId, view),
      readStatusCounts(resourceService<Order>('orders', companyId), view.search, otherFilters(view)),
      readSuspicious(companyId, authStore.getState().user?.role ?? null, request.signal),
    ]);
    return { page, counts, flags };
  });
};

/** The order's panel over the list has its own read (order-panel-read.ts): opening or closing it reads the list not again. */
export const shouldRevalidate = ignoringParams(PANEL_READS);

/** What is around the list, and the panel over it (routes.ts names them): each read apart from the list. */
export const parts = { frame: framePart, panel: panelRead };

const NO_COUNTS: StatusCounts = {};
/** This screen's route id (features/orders/routes.ts): its frame's data is read by it. */
const SCREEN_ID = 'dashboard.orders';
/** The clock and the setup checklist follow the bakery's settings; today's figures are read on entering. */
const FRAME_FOLLOWS = ['settings'] as const;
const READS = { ignore: PANEL_READS };
/** The panel follows its order: a change to it reads it again (panelChanged); one to another order does not. */
const PANEL_FOLLOWS = ['orders'] as const;

/** Dashboard › Pedidos (docs/design.md §6): today's and upcoming orders, live, with quick moves and the detail. */
export function Component() {
  const table = useResourceTable(TABLE, loader, READS);
  const { view, setView, store } = table;
  const frame = usePartData(SCREEN_ID, 'frame', framePart.loader, table.companyId, FRAME_FOLLOWS).data;
  const clock = frame.clock;
  const today = dayInZone(new Date(), clock.timeZone);
  const counts = table.data?.counts ?? NO_COUNTS;
  const role = useStore(authStore, (s) => s.user?.role ?? null);
  const [params, setParams] = useSearchParams();
  const openId = params.get(ORDER_PARAM);
  const [sound, setSound] = useSoundSetting();

  const open = useCallback(
    (id: string) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        next.set(ORDER_PARAM, id);
        return next;
      }),
    [setParams],
  );
  const close = useCallback(
    () =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        next.delete(ORDER_PARAM);
        return next;
      }),
    [setParams],
  );

  // A saved move shows at once in its row; the stream then brings it to everyone else.
  const saved = useCallback(
    (order: Order) => store?.setState((s) => ({ items: s.items.map((o) => (o.id === order.id ? order : o)) })),
    [store],
  );
  const actor = useOrderActor(table.service, role, saved);
  const flags = table.data?.flags ?? NO_FLAGS;
  const panel = usePartData(SCREEN_ID, 'panel', panelRead.loader, table.companyId, PANEL_FOLLOWS, {
    reads: PANEL_READS,
    relevant: panelRead.panelChanged,
  });

  useNewOrderAlert(table.companyId, {
    sound,
    open,
    describe: (o) =>
      [
        o.contact?.name,
        [shortDay(o.dueDate, clock.timeZone, today), windowHours(o.window, clock.windows)].filter(Boolean).join(' '),
        typeof o.total === 'number' ? formatMoney(o.total) : '',
      ]
        .filter(Boolean)
        .join(' · '),
  });

  const onlyDefaultRange =
    view.search === '' &&
    Object.entries(view.filters).every(([k, v]) => v === '' || k === 'date_field' || k === 'start_date') &&
    view.filters.start_date === 'today' &&
    !view.filters.end_date;
  const nothingUpcoming = !table.loading && !table.error && table.total === 0 && onlyDefaultRange;

  const create = (
    <Link to={paths.dashboard.orderCreate} className={buttonClass}>
      <Plus className="size-4" aria-hidden="true" />
      Nuevo pedido
    </Link>
  );

  return (
    <AreaPage
      title="Pedidos"
      actions={
        <div className="flex items-center gap-2">
          <button
            type="button"
            aria-pressed={sound}
            onClick={() => setSound(!sound)}
            title={sound ? 'Sonido de pedidos nuevos: activado' : 'Sonido de pedidos nuevos: apagado'}
            className={`${secondaryButtonClass} min-h-11 min-w-11`}
          >
            {sound ? <Bell className="size-5" aria-hidden="true" /> : <BellOff className="size-5" aria-hidden="true" />}
            <span className="sr-only sm:not-sr-only">Sonido de pedidos nuevos</span>
          </button>
          {create}
        </div>
      }
    >
      <div className="space-y-4">
        <SetupChecklist setup={frame.setup} />
        <TodayStrip figures={frame.figures} today={today} />
        <StatusChips
          value={(view.filters.status ?? '') as OrderStatus | ''}
          counts={counts}
          onChange={(status) => setView({ filters: { status } })}
        />
        <DueRange
          today={today}
          start={view.filters.start_date ?? ''}
          end={view.filters.end_date ?? ''}
          onChange={(start, end) => setView({ filters: { date_field: 'dueDate', start_date: start, end_date: end } })}
        />
        {nothingUpcoming ? (
          <EmptyState
            title="No hay pedidos para hoy ni los próximos días."
            action={
              <div className="flex flex-wrap justify-center gap-2">
                <button
                  type="button"
                  className={secondaryButtonClass}
                  onClick={() => setView({ filters: { date_field: 'dueDate', start_date: '', end_date: '' } })}
                >
                  Ver todas las fechas
                </button>
                {create}
              </div>
            }
          >
            <p>Los pedidos de la tienda aparecerán aquí en cuanto lleguen, sin recargar la página.</p>
          </EmptyState>
        ) : (
          <DataTable
            id="orders"
            label="Pedidos"
            table={table}
            columns={columns(actor, clock, today, open, flags)}
            searchLabel="Buscar pedidos"
            searchPlaceholder="Número, nombre o teléfono"
            filters={FILTERS}
            empty={
              <EmptyState title="Aún no hay pedidos." action={create}>
                <p>Los pedidos de la tienda y los que registre el equipo aparecerán aquí.</p>
              </EmptyState>
            }
          />
        )}
      </div>
      {openId ? (
        <OrderDetailPanel
          key={openId}
          id={openId}
          read={panel.data}
          retry={panel.reload}
          companyId={table.companyId}
          service={table.service}
          actor={actor}
          windows={clock.windows}
          timeZone={clock.timeZone}
          known={table.items.find((o) => o.id === openId)}
          onClose={close}
        />
      ) : null}
      {actor.dialogs}
    </AreaPage>
  );
}

function columns(
  actor: OrderActor,
  clock: CompanyClock,
  today: string,
  open: (id: string) => void,
  flags: ReadonlyMap<string, SuspiciousOrder>,
): ColumnDef<Order>[] {
  const when = (o: Order) =>
    [shortDay(o.dueDate, clock.timeZone, today), windowHours(o.window, clock.windows)].filter(Boolean).join(' · ');
  return [
    {
      id: 'number',
      header: 'Pedido',
      meta: { sortField: 'number', fixed: true },
      cell: ({ row }) => {
        const o = row.original;
        return (
          <div className="min-w-36 sm:min-w-0">
            <div className="flex flex-wrap items-center gap-x-2">
              <OrderLink order={o} />
              {o.standingOrderId ? <RecurringChip /> : null}
              <span className="sm:hidden">
                <StatusChip status={o.status} />
              </span>
            </div>
            <p className="hidden whitespace-nowrap text-xs text-stone-600 sm:block">{CHANNEL_ES[o.channel]}</p>
            <SuspiciousFlag order={o} flag={flags.get(o.id)} actor={actor} />
            {/* On a phone the other columns are hidden: what staff need to decide is here. */}
            <div className="space-y-0.5 text-sm text-stone-700 sm:hidden">
              <p className="font-medium text-stone-900">{o.contact.name}</p>
              <p>
                {when(o)} · {FULFILLMENT_ES[o.fulfillment]}
              </p>
              <p className="flex flex-wrap items-center gap-2">
                <span className="font-semibold text-stone-900">{formatMoney(o.total)}</span>
                <PaymentChip status={o.paymentStatus} orderStatus={o.status} />
                <RefundDueChip count={o.refundsDue.length} />
              </p>
            </div>
          </div>
        );
      },
    },
    {
      id: 'due',
      header: 'Entrega',
      meta: { sortField: 'dueDate', hideOnPhone: true },
      cell: ({ row }) => (
        <div className="min-w-28">
          <p className="whitespace-nowrap font-medium text-stone-900">
            {shortDay(row.original.dueDate, clock.timeZone, today)}
          </p>
          <p className="text-stone-600">
            {[windowHours(row.original.window, clock.windows), FULFILLMENT_ES[row.original.fulfillment]]
              .filter(Boolean)
              .join(' · ')}
          </p>
        </div>
      ),
    },
    {
      id: 'customer',
      header: 'Cliente',
      meta: { hideOnPhone: true },
      cell: ({ row }) => (
        <div className="min-w-32">
          <p className="font-medium text-stone-900">{row.original.contact.name}</p>
          <p className="whitespace-nowrap text-stone-600">{row.original.contact.phone}</p>
        </div>
      ),
    },
    {
      id: 'total',
      header: 'Total',
      meta: { sortField: 'total', align: 'right', hideOnPhone: true },
      cell: ({ row }) => <span className="font-medium">{formatMoney(row.original.total)}</span>,
    },
    {
      id: 'status',
      header: 'Estado',
      meta: { sortField: 'status', hideOnPhone: true },
      cell: ({ row }) => (
        <div className="flex flex-col items-start gap-1">
          <StatusChip status={row.original.status} />
          <PaymentChip status={row.original.paymentStatus} orderStatus={row.original.status} />
          <RefundDueChip count={row.original.refundsDue.length} />
          <span className="whitespace-nowrap text-xs text-stone-600">
            {PAYMENT_METHOD_ES[row.original.paymentMethod]}
          </span>
        </div>
      ),
    },
    {
      id: 'actions',
      header: 'Acciones',
      meta: { fixed: true, align: 'right' },
      cell: ({ row }) => (
        <OrderQuickActions order={row.original} actor={actor} onDetails={() => open(row.original.id)} />
      ),
    },
  ];
}

/**
 * The server's flag on a web order that shares its phone with other unpaid ones due the same day:
 * what it means, and a one-click cancel through the usual status move, its reason already written.
 */
function SuspiciousFlag({
  order,
  flag,
  actor,
}: {
  order: Order;
  flag: SuspiciousOrder | undefined;
  actor: OrderActor;
}) {
  if (!flag) return null;
  const canCancel = orderMoves(actor.role, order).cancel;
  return (
    <div className="mt-1 flex flex-wrap items-center gap-1.5">
      <span
        className="inline-flex items-center gap-1 rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-900"
        title={suspiciousText(flag.samePhone)}
      >
        <TriangleAlert className="size-3.5" aria-hidden="true" />
        Sospechoso
        <span className="sr-only">: {suspiciousText(flag.samePhone)}</span>
      </span>
      {canCancel ? (
        <button
          type="button"
          className="inline-flex min-h-11 items-center rounded-lg px-2 text-xs font-semibold text-red-900 underline underline-offset-2 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-900 sm:min-h-0 sm:py-1"
          disabled={actor.busy === order.id}
          aria-label={`Cancelar el pedido sospechoso #${order.number}`}
          onClick={() => actor.ask('cancel', order, SUSPICIOUS_CANCEL_REASON_ES)}
        >
          Cancelar
        </button>
      ) : null}
    </div>
  );
}

/** The order's number, opening its detail (a link: it keeps the list's view and can be opened in a new tab). */
function OrderLink({ order }: { order: Order }) {
  const [params] = useSearchParams();
  const next = new URLSearchParams(params);
  next.set(ORDER_PARAM, order.id);
  return (
    <Link
      to={{ search: next.toString() }}
      aria-label={`Pedido #${order.number}, ver detalle`}
      className="inline-flex min-h-11 items-center text-base font-bold text-amber-900 underline-offset-2 hover:underline sm:min-h-0"
    >
      #{order.number}
    </Link>
  );
}

/** The status chips: one per status with its count, pressed when it filters the list. */
function StatusChips({
  value,
  counts,
  onChange,
}: {
  value: OrderStatus | '';
  counts: StatusCounts;
  onChange(status: OrderStatus | ''): void;
}) {
  const chips: { value: OrderStatus | ''; label: string; count: number | undefined }[] = [
    { value: '', label: 'Todos', count: counts.all },
    ...ORDER_STATUSES.map((s) => ({ value: s, label: ORDER_STATUS_ES[s], count: counts[s] })),
  ];
  return (
    <div
      role="group"
      aria-label="Filtrar por estado"
      className="-mx-4 flex gap-2 overflow-x-auto px-4 pb-1 sm:mx-0 sm:flex-wrap sm:px-0"
    >
      {chips.map((c) => {
        const pressed = value === c.value;
        return (
          <button
            key={c.value || 'all'}
            type="button"
            aria-pressed={pressed}
            onClick={() => onChange(c.value)}
            className={`inline-flex min-h-11 shrink-0 items-center gap-2 rounded-full border px-4 text-sm font-semibold transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-900 ${
              pressed
                ? 'border-amber-900 bg-amber-900 text-white'
                : 'border-stone-300 bg-white text-stone-800 hover:bg-stone-50'
            }`}
          >
            {c.label}
            {c.count !== undefined ? (
              <span
                className={`rounded-full px-2 py-0.5 text-xs tabular-nums ${pressed ? 'bg-white/20' : 'bg-stone-100 text-stone-700'}`}
              >
                {c.count}
              </span>
            ) : null}
          </button>
        );
      })}
    </div>
  );
}

const fieldClass =
  'mt-1 block min-h-11 w-full rounded-lg border border-stone-300 bg-white px-3 py-2 text-stone-900 shadow-sm focus:border-amber-700 focus:outline-none focus:ring-2 focus:ring-amber-700/30';

/** The due-day range: presets relative to today, or two dates. */
function DueRange({
  today,
  start,
  end,
  onChange,
}: {
  today: string;
  start: string;
  end: string;
  onChange(start: string, end: string): void;
}) {
  const id = useId();
  const preset = presetOf(start, end);
  // Two calendar days never equal a preset (those are relative): the range is then 'custom'.
  const showDates = preset === 'custom';
  return (
    <div className="grid w-full grid-cols-2 gap-2 sm:flex sm:w-auto sm:items-end">
      <div className="col-span-2 sm:w-52">
        <label htmlFor={`${id}-preset`} className="block text-sm font-medium text-stone-700">
          Fecha de entrega
        </label>
        <select
          id={`${id}-preset`}
          value={showDates ? 'custom' : preset}
          onChange={(event) => {
            const chosen = DATE_PRESETS.find((p) => p.id === event.target.value);
            if (chosen) onChange(chosen.start, chosen.end);
            // Two dates: the range shown so far, as calendar days, to adjust.
            else onChange(absoluteDay(start, today) || today, absoluteDay(end, today));
          }}
          className={fieldClass}
        >
          {DATE_PRESETS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
          <option value="custom">Entre dos fechas…</option>
        </select>
      </div>
      {showDates ? (
        <>
          <div className="sm:w-40">
            <label htmlFor={`${id}-from`} className="block text-sm font-medium text-stone-700">
              Desde
            </label>
            <input
              id={`${id}-from`}
              type="date"
              value={absoluteDay(start, today)}
              max={absoluteDay(end, today) || undefined}
              onChange={(event) => onChange(event.target.value, absoluteDay(end, today))}
              className={fieldClass}
            />
          </div>
          <div className="sm:w-40">
            <label htmlFor={`${id}-to`} className="block text-sm font-medium text-stone-700">
              Hasta
            </label>
            <input
              id={`${id}-to`}
              type="date"
              value={absoluteDay(end, today)}
              min={absoluteDay(start, today) || undefined}
              onChange={(event) => onChange(absoluteDay(start, today), event.target.value)}
              className={fieldClass}
            />
          </div>
        </>
      ) : null}
    </div>
  );
}
