import { canMoveStatus, ORDER_STATUS_ES, PAYMENT_METHOD_ES, paymentStatusText } from '@hornada/domain/order-status';
import {
  capitalise,
  formatCount,
  formatDateTime,
  formatDayChoice,
  formatMoney,
  formatQuantity,
} from '@hornada/domain/format';
import { addressLine, windowLabel } from '@hornada/domain/order-display';
import { balanceDue, historyLine } from '@hornada/domain/order-history';
import { DEFAULT_TIME_ZONE } from '@hornada/domain/constants';
import { SHOPPER_ROLE } from '@hornada/domain/roles';
import type { Order, OrderStatus } from '@hornada/domain/schemas/orders';
import { ChevronDown, ChevronUp, RotateCcw, XCircle } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useStore } from 'zustand';
import { AreaPage } from '../../components/area-page';
import { EmptyState } from '../../components/empty-state';
import { PaymentChip, StatusChip } from '../../components/order-chips';
import { buttonClass, secondaryButtonClass } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { paths } from '../../config/paths';
import { authStore } from '../../lib/auth/auth-store';
import { cartApi, saveLines } from '../../lib/api/cart-api';
import { getCartStore, MAX_LINES } from '../../lib/cart-store';
import { ApiError } from '../../lib/api/http';
import { applyChangesToList, type LiveChange } from '../../lib/live/live-rules';
import { getLiveStream } from '../../lib/live/live-stream';
import type { PublicSettings } from '../../lib/api/storefront-api';
import { toastStore } from '../../lib/toast-store';
import { historyApi } from './orders-api';
import { reorderToast } from './reorder';
import { LoadFailed } from '../../components/load-status';
import { screenRead } from '../../lib/api/screen-read';
import { FOLLOWS_NOTHING, useScreenData } from '../../lib/live/use-screen-data';

type Settings = Partial<PublicSettings>;

const errorText = (err: unknown, fallback: string) => (err instanceof ApiError ? err.userMessage : fallback);
const NO_SETTINGS: Settings = {};
/** A date field as received: an ISO string from a read, a Date from the live stream (docs/product.md §9). */
const time = (value: unknown) => new Date(value as string).getTime();
const newestFirst = (list: Order[]) => [...list].sort((a, b) => time(b.createdAt) - time(a.createdAt));

/**
 * The history's first page and the shop's settings (only labels and the transfer details: without them the
 * history still shows every order). The guard has let a signed-in user with a bakery in.
 */
export const loader = ({ request }: { request: Request }) =>
  screenRead(
    async () => {
      const user = authStore.getState().user;
      if (!user?.companyId) throw new Error('no company');
      const [first, settings] = await Promise.all([
        historyApi.page(user.companyId, user.uid, 1, request.signal),
        historyApi.settings(user.companyId).catch((): Settings => NO_SETTINGS),
      ]);
      return { first, settings };
    },
    (err) => errorText(err, 'No pudimos cargar tus pedidos. Intenta de nuevo.'),
  );

/**
 * The customer's order history (docs/design.md §5, §6): its orders newest first, ten at a time; each with its number,
 * day and window, status and payment, total and what it holds; a detail to expand; the status kept live by
 * the shared stream; cancel while pending (with a reason) and "Pedir de nuevo" into the cart.
 */
export function Component() {
  const user = useStore(authStore, (s) => s.user);
  const companyId = user?.companyId ?? null;
  const uid = user?.uid ?? null;
  // The stream is followed below, order by order (a status moved is said aloud): the loader runs again on a reset.
  const { data: load, reload } = useScreenData(loader, companyId, FOLLOWS_NOTHING);
  const first = load.state === 'ready' ? load.data.first : null;
  const settings = load.state === 'ready' ? load.data.settings : NO_SETTINGS;
  const [orders, setOrders] = useState<Order[]>(first?.items ?? []);
  const [total, setTotal] = useState(first?.total ?? 0);
  const [page, setPage] = useState(1);
  const [from, setFrom] = useState(first);
  if (from !== first) {
    // A new first page (a reset read again): the pages shown start from it.
    setFrom(first);
    setOrders(first?.items ?? []);
    setTotal(first?.total ?? 0);
    setPage(1);
  }
  const [more, setMore] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const [announcement, setAnnouncement] = useState('');
  const current = useRef<Order[]>([]);
  current.current = orders;

  // The status live (docs/design.md §3): the bakery's moves reach this page on the shared stream, which brings a
  // customer only its own orders (the server's visibility rule; the filter keeps an admin's view to its own).
  useEffect(() => {
    if (!companyId || !uid) return;
    return getLiveStream().subscribe(companyId, 'orders', {
      onChanges: (changes: LiveChange[]) => {
        const mine = changes.filter((c) => c.type !== 'added' || c.doc.customerId === uid);
        const moved = mine.flatMap((c) => {
          const before = current.current.find((o) => o.id === c.doc.id);
          const to = c.doc.status as OrderStatus | undefined;
          return c.type === 'modified' && before && to && to !== before.status
            ? [`El pedido #${before.number} ahora está ${ORDER_STATUS_ES[to]}.`]
            : [];
        });
        if (moved.length > 0) setAnnouncement(moved.join(' '));
        const added = mine.filter((c) => c.type === 'added' && !current.current.some((o) => o.id === c.doc.id)).length;
        if (added > 0) setTotal((n) => n + added);
        setOrders((list) => {
          const next = applyChangesToList(list, mine, companyId);
          return next === list ? list : newestFirst(next);
        });
      },
      // Too much missed: read the history again.
      onReset: reload,
    });
  }, [companyId, uid, reload]);

  const showMore = async () => {
    if (!companyId || !uid) return;
    setMore({ busy: true, error: null });
    try {
      const res = await historyApi.page(companyId, uid, page + 1);
      setOrders((list) => newestFirst([...list, ...res.items.filter((o) => !list.some((l) => l.id === o.id))]));
      setTotal(res.total);
      setPage(page + 1);
      setMore({ busy: false, error: null });
    } catch (err) {
      setMore({ busy: false, error: errorText(err, 'No pudimos cargar más pedidos. Intenta de nuevo.') });
    }
  };

  const replace = useCallback((order: Order) => {
    setOrders((list) => list.map((o) => (o.id === order.id ? order : o)));
  }, []);

  return (
    <AreaPage title="Mis pedidos">
      <p className="sr-only" role="status" aria-live="polite">
        {announcement}
      </p>
      {load.state === 'failed' ? (
        <LoadFailed message={load.message} onRetry={reload} />
      ) : orders.length === 0 ? (
        <EmptyState
          title="Aún no tienes pedidos"
          action={
            <Link to={paths.home} className={buttonClass}>
              Ir a la tienda
            </Link>
          }
        >
          <p>Cuando hagas tu primer pedido, aquí verás su estado y podrás pedirlo de nuevo.</p>
        </EmptyState>
      ) : (
        <div className="max-w-3xl">
          <ul aria-label="Tus pedidos" className="grid gap-4">
            {orders.map((order) => (
              <li key={order.id}>
                <OrderCard order={order} companyId={companyId!} settings={settings} onChanged={replace} />
              </li>
            ))}
          </ul>
          <div className="mt-6 flex flex-col items-center gap-3 text-center">
            <p className="text-sm text-stone-600">
              {orders.length < total
                ? `Ves ${formatQuantity(orders.length)} de ${formatCount(total, 'pedido')}.`
                : `${formatCount(total, 'pedido')} en total.`}
            </p>
            {orders.length < total ? (
              <button
                type="button"
                className={`${secondaryButtonClass} w-full sm:w-auto`}
                disabled={more.busy}
                aria-busy={more.busy || undefined}
                onClick={() => void showMore()}
              >
                {more.busy ? 'Cargando…' : 'Ver más pedidos'}
              </button>
            ) : null}
            {more.error ? (
              <p role="alert" className="text-red-900">
                {more.error}
              </p>
            ) : null}
          </div>
        </div>
      )}
    </AreaPage>
  );
}

function windowText(order: Order, settings: Settings): string | null {
  return order.window ? windowLabel(order.window, settings.deliveryWindows ?? []) : null;
}

function itemSummary(order: Order): string {
  return order.items.map((i) => `${i.quantity} × ${i.name}`).join(', ');
}

function OrderCard({
  order,
  companyId,
  settings,
  onChanged,
}: {
  order: Order;
  companyId: string;
  settings: Settings;
  onChanged: (order: Order) => void;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const [reordering, setReordering] = useState(false);
  const navigate = useNavigate();
  const timeZone = settings.timeZone;
  const day = capitalise(formatDayChoice(order.dueDate, { timeZone }));
  const slot = windowText(order, settings);
  const cancellable = canMoveStatus(SHOPPER_ROLE, order.status, 'cancelled', order.fulfillment);

  const reorder = async () => {
    setReordering(true);
    try {
      // The server merges the order into the cart (one line a product, never doubled): lines only in this
      // browser so far are saved first, so that it merges into what the shopper sees.
      const local = getCartStore().getState();
      const cartId = local.lines.length > 0 ? (await saveLines(companyId, local.lines, null)).id : null;
      const answer = await cartApi.reorder(order.id, cartId);
      getCartStore()
        .getState()
        .replace({
          cartId: answer.cart.id,
          lines: answer.cart.items.map(({ productId, quantity }) => ({ productId, quantity })),
        });
      toastStore.getState().show(reorderToast(order.number, answer, MAX_LINES));
      await navigate(paths.cart);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'cart/reorder-unavailable') {
        toastStore.getState().show({
          type: 'warning',
          message: `Ninguno de los productos del pedido #${order.number} está disponible hoy.`,
          duration: 8000,
        });
        return;
      }
      toastStore.getState().show({
        type: 'error',
        message: errorText(err, 'No pudimos preparar tu carrito. Intenta de nuevo.'),
      });
    } finally {
      setReordering(false);
    }
  };

  return (
    <article
      aria-labelledby={`${id}-title`}
      className="rounded-2xl border border-stone-200 bg-white p-4 shadow-sm sm:p-5"
    >
      <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-2">
        <div className="min-w-0">
          <h2 id={`${id}-title`} className="text-lg font-semibold text-stone-900">
            Pedido #{order.number}
          </h2>
          <p className="text-sm text-stone-600">Hecho {formatDateTime(order.createdAt, { timeZone }).toLowerCase()}</p>
        </div>
        <p className="text-lg font-bold text-stone-900 tabular-nums">{formatMoney(order.total)}</p>
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        <StatusChip status={order.status} size="md" />
        {order.status === 'cancelled' ? null : <PaymentChip status={order.paymentStatus} size="md" />}
      </div>
      <p className="mt-3 text-stone-800">
        <span className="font-medium">{order.fulfillment === 'pickup' ? 'Recoges' : 'Entrega'}:</span> {day}
        {slot ? ` · ${slot}` : ''}
      </p>
      <p className="mt-1 line-clamp-2 text-stone-600">{itemSummary(order)}</p>

      <button
        type="button"
        className="-mx-1 mt-2 inline-flex items-center gap-1 rounded-md px-1 py-1.5 font-semibold text-amber-900 hover:underline focus-visible:outline-2 focus-visible:outline-amber-900"
        aria-expanded={open}
        aria-controls={`${id}-detail`}
        onClick={() => setOpen((v) => !v)}
      >
        {open ? 'Ocultar detalle' : 'Ver detalle'}
        {open ? (
          <ChevronUp className="size-4" aria-hidden="true" />
        ) : (
          <ChevronDown className="size-4" aria-hidden="true" />
        )}
      </button>
      <div id={`${id}-detail`} hidden={!open}>
        {open ? <OrderDetail order={order} settings={settings} /> : null}
      </div>

      <div className="mt-4 flex flex-col gap-2 border-t border-stone-100 pt-4 sm:flex-row sm:items-center">
        <button
          type="button"
          className={secondaryButtonClass}
          disabled={reordering}
          aria-busy={reordering || undefined}
          aria-label={`Pedir de nuevo el pedido #${order.number}`}
          onClick={() => void reorder()}
        >
          <RotateCcw className="size-4" aria-hidden="true" />
          {reordering ? 'Preparando…' : 'Pedir de nuevo'}
        </button>
        {cancellable ? (
          <button
            type="button"
            className={`${secondaryButtonClass} border-red-300 text-red-800 hover:bg-red-50 sm:ml-auto`}
            aria-label={`Cancelar el pedido #${order.number}`}
            onClick={() => setCancelling(true)}
          >
            <XCircle className="size-4" aria-hidden="true" />
            Cancelar pedido
          </button>
        ) : null}
      </div>

      {cancellable || cancelling ? (
        <CancelDialog
          order={order}
          companyId={companyId}
          open={cancelling}
          onOpenChange={setCancelling}
          onChanged={onChanged}
        />
      ) : null}
    </article>
  );
}

/** What a customer reads in their order's history: what was agreed and when it changed. */
const TOLD_FIELDS = new Set(['status', 'items', 'total', 'dueDate', 'window', 'fulfillment', 'address']);

function OrderDetail({ order, settings }: { order: Order; settings: Settings }) {
  const owed = balanceDue(order);
  const windows = settings.deliveryWindows ?? [];
  const changes = [...order.history]
    .filter((h) => TOLD_FIELDS.has(h.field))
    .reverse()
    .map((h) => historyLine(h, windows, settings.timeZone ?? DEFAULT_TIME_ZONE));
  const owesTransfer =
    order.paymentMethod === 'transfer' &&
    order.status !== 'cancelled' &&
    (order.paymentStatus === 'unpaid' || order.paymentStatus === 'failed');
  const address = order.address;
  return (
    <div className="mt-2 grid gap-4 border-t border-stone-200 pt-3">
      <div>
        <ul aria-label={`Productos del pedido #${order.number}`} className="divide-y divide-stone-100">
          {order.items.map((line, index) => (
            <li key={`${line.productId}-${index}`} className="flex justify-between gap-3 py-2">
              <span className="min-w-0">
                <span className="block text-stone-900">
                  {line.quantity} × {line.name}
                </span>
                <span className="block text-sm text-stone-600">
                  {formatMoney(line.unitPrice)} c/u{line.notes ? ` · ${line.notes}` : ''}
                </span>
              </span>
              <span className="shrink-0 tabular-nums text-stone-900">{formatMoney(line.lineTotal)}</span>
            </li>
          ))}
        </ul>
        <dl className="mt-2 space-y-1 border-t border-stone-200 pt-2">
          <div className="flex justify-between">
            <dt>Subtotal</dt>
            <dd className="tabular-nums">{formatMoney(order.subtotal)}</dd>
          </div>
          {order.discount > 0 ? (
            <div className="flex justify-between">
              <dt>Descuento</dt>
              <dd className="tabular-nums">−{formatMoney(order.discount)}</dd>
            </div>
          ) : null}
          {order.fulfillment === 'delivery' ? (
            <div className="flex justify-between">
              <dt>Domicilio</dt>
              <dd className="tabular-nums">{order.deliveryFee === 0 ? 'Gratis' : formatMoney(order.deliveryFee)}</dd>
            </div>
          ) : null}
          <div className="flex justify-between font-bold">
            <dt>Total</dt>
            <dd className="tabular-nums">{formatMoney(order.total)}</dd>
          </div>
          {owed > 0 ? (
            <div className="flex justify-between font-semibold text-red-800">
              <dt>Por pagar (el pedido creció después de pagarlo)</dt>
              <dd className="tabular-nums">{formatMoney(owed)}</dd>
            </div>
          ) : null}
        </dl>
      </div>

      <dl className="grid gap-3 sm:grid-cols-2">
        <div>
          <dt className="font-medium text-stone-700">
            {order.fulfillment === 'pickup' ? 'Recoges en la panadería' : 'Dirección de entrega'}
          </dt>
          <dd className="text-stone-900">
            {order.fulfillment === 'pickup' ? (
              (settings.address ?? 'Te confirmamos la dirección al alistar tu pedido.')
            ) : address ? (
              <>
                {addressLine(address)}
                {address.notes ? <span className="block text-sm text-stone-600">{address.notes}</span> : null}
              </>
            ) : (
              'Sin dirección'
            )}
          </dd>
        </div>
        <div>
          <dt className="font-medium text-stone-700">Pago</dt>
          <dd className="text-stone-900">
            {PAYMENT_METHOD_ES[order.paymentMethod]} · {paymentStatusText(order.paymentStatus, order.status)}
          </dd>
        </div>
        {order.notes ? (
          <div className="sm:col-span-2">
            <dt className="font-medium text-stone-700">Notas</dt>
            <dd className="whitespace-pre-line text-stone-900">{order.notes}</dd>
          </div>
        ) : null}
        {order.status === 'cancelled' && order.cancelReason ? (
          <div className="sm:col-span-2">
            <dt className="font-medium text-stone-700">Motivo de la cancelación</dt>
            <dd className="text-stone-900">{order.cancelReason}</dd>
          </div>
        ) : null}
      </dl>
      <div>
        <h3 className="font-medium text-stone-700">Historial</h3>
        <ol aria-label={`Historial del pedido #${order.number}`} className="mt-1 space-y-2">
          {changes.map((h, n) => (
            <li key={`${h.at}-${n}`} className="border-l-2 border-amber-200 pl-3">
              <p className="text-stone-900">{h.what}</p>
              <p className="text-sm text-stone-600">
                <time dateTime={h.at}>{h.when}</time>
              </p>
            </li>
          ))}
        </ol>
      </div>

      {owesTransfer ? (
        <section className="rounded-xl border border-amber-300 bg-amber-50 p-4">
          <h3 className="font-semibold text-stone-900">Cómo pagar por transferencia</h3>
          <p className="mt-1 whitespace-pre-line text-stone-800">
            {settings.transferInstructions ?? 'La panadería te enviará los datos para la transferencia.'}
          </p>
          <p className="mt-2 text-sm text-stone-700">
            Escribe «Pedido #{order.number}» en la referencia. Lo marcamos pagado al ver la transferencia.
          </p>
        </section>
      ) : null}
    </div>
  );
}

const REASON_MAX = 500;

/**
 * Cancelling asks first, with the reason the server requires (docs/design.md §5). If the bakery moved the order
 * meanwhile, the server's answer (422) is shown and the order on screen takes its new status.
 */
function CancelDialog({
  order,
  companyId,
  open,
  onOpenChange,
  onChanged,
}: {
  order: Order;
  companyId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onChanged: (order: Order) => void;
}) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const field = useRef<HTMLTextAreaElement>(null);

  const change = (next: boolean) => {
    if (!next) {
      setReason('');
      setError(null);
    }
    onOpenChange(next);
  };

  const confirm = async () => {
    const text = reason.trim();
    if (!text) {
      setError('Cuéntanos por qué lo cancelas.');
      field.current?.focus();
      throw new Error('reason required');
    }
    setError(null);
    try {
      const saved = await historyApi.cancel(companyId, order.id, text);
      onChanged(saved);
      setReason('');
      toastStore.getState().show({ message: `Cancelamos el pedido #${order.number}.` });
    } catch (err) {
      if (err instanceof ApiError && (err.status === 422 || err.status === 409)) {
        // It moved meanwhile: say so, show where it is now, and close.
        const now = await historyApi.one(companyId, order.id).catch(() => null);
        if (now) onChanged(now);
        toastStore.getState().show({
          type: 'error',
          title: `No pudimos cancelar el pedido #${order.number}`,
          message: now ? `${err.userMessage} Ahora está ${ORDER_STATUS_ES[now.status]}.` : err.userMessage,
          duration: 10_000,
        });
        setReason('');
        return;
      }
      setError(errorText(err, 'No pudimos cancelar el pedido. Intenta de nuevo.'));
      throw err;
    }
  };

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={change}
      title={`¿Cancelar el pedido #${order.number}?`}
      confirmLabel="Cancelar pedido"
      cancelLabel="Volver"
      onConfirm={confirm}
      description={
        <div className="space-y-3">
          <p>La panadería no lo preparará. Esto no se puede deshacer.</p>
          <div>
            <label htmlFor={`${id}-reason`} className="block font-medium text-stone-800">
              Motivo
            </label>
            <textarea
              ref={field}
              id={`${id}-reason`}
              value={reason}
              maxLength={REASON_MAX}
              rows={3}
              required
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(e) => setReason(e.target.value)}
              className="mt-1 block w-full rounded-lg border border-stone-300 px-3 py-2 text-stone-900 focus-visible:outline-2 focus-visible:outline-amber-900"
            />
            {error ? (
              <p id={`${id}-error`} role="alert" className="mt-1 text-sm text-red-800">
                {error}
              </p>
            ) : null}
          </div>
        </div>
      }
    />
  );
}
