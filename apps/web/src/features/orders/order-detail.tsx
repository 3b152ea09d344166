import { formatDateTime, formatDay, formatMoney } from '@hornada/domain/format';
import { refundedSoFar } from '@hornada/domain/refunds';
import { mapHref, telHref, whatsappHref, windowLabel } from '@hornada/domain/order-display';
import type { Order } from '@hornada/domain/schemas/orders';
import { MapPin, MessageCircle, Pencil, Phone, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { useSearchParams } from 'react-router';
import { usePhone } from '../../components/data-table/data-table';
import { secondaryButtonClass } from '../../components/ui/button';
import type { ScreenRead } from '../../lib/api/screen-read';
import { EDIT_PARAM, type PanelRead } from './order-panel-read';
import type { ResourceService } from '../../lib/api/resource-service';
import { balanceDue } from '@hornada/domain/order-history';
import { EDITABLE_STATUSES, notReceivedText } from '@hornada/domain/order-status';
import { can } from '@hornada/domain/policy';
import type { Role } from '@hornada/domain/roles';
import { otherActionClass, OrderPanelActions, type OrderActor } from './order-actions';
import { OrderEditor } from './order-edit';
import { OrderLocation } from './order-location';
import { PaymentChip, RecurringChip, StatusChip } from '../../components/order-chips';
import {
  CHANNEL_ES,
  FULFILLMENT_ES,
  historyLine,
  PAYMENT_METHOD_ES,
  REFUND_DUE_ES,
  type WindowDef,
} from './order-view';

const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])';

/**
 * The detail of one order (`?order=<id>`): a side panel beside the list at desktop widths, a full-screen sheet
 * on a phone. Not modal, so the list stays usable beside it; focus moves into it when it opens and back to
 * what opened it when it closes; Escape closes it. It follows the order live.
 */
export function OrderDetailPanel({
  id,
  read,
  retry,
  companyId,
  service,
  actor,
  windows,
  timeZone,
  known,
  onClose,
}: {
  id: string;
  /** The order as the panel's read (order-panel-read.ts) has it, kept current by the live stream. */
  read: ScreenRead<PanelRead> | null;
  retry(): void;
  companyId: string | null;
  service: ResourceService<Order> | null;
  actor: OrderActor;
  windows: readonly WindowDef[];
  timeZone: string;
  /** The order as the list has it, shown until the full read arrives. */
  known: Order | undefined;
  onClose(): void;
}) {
  // What an edit saved shows at once, until a read brings the order as new (the stream brings it to everyone else).
  const [saved, setSaved] = useState<Order | null>(null);
  const panel = useRef<HTMLElement>(null);
  const titleId = useId();
  const fresh = read?.state === 'ready' && read.data.order.id === id ? read.data.order : null;
  const products = read?.state === 'ready' ? read.data.products : null;
  const order = saved && saved.id === id && (!fresh || saved.updatedAt > fresh.updatedAt) ? saved : fresh;
  const error = read?.state === 'failed' ? read.message : null;

  // Focus: into the panel when it opens (or shows another order), back to what had it when it closes.
  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    panel.current?.focus();
    return () => {
      if (before?.isConnected) before.focus();
    };
  }, [id]);

  // Escape closes, unless a dialog (a confirmation) is open above it.
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (document.querySelector('dialog[open]') || document.querySelector('[role="menu"]')) return;
      closeRef.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  // On a phone the sheet covers the list: Tab stays inside it, as in a modal.
  const phone = usePhone();
  const trapTab = (event: ReactKeyboardEvent<HTMLElement>) => {
    if (!phone || event.key !== 'Tab' || !panel.current) return;
    const focusable = [...panel.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
      (el) => !el.hasAttribute('disabled'),
    );
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) return;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === panel.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };

  const shown = order ?? known;
  return (
    <aside
      ref={panel}
      tabIndex={-1}
      role="dialog"
      aria-modal={phone}
      aria-labelledby={titleId}
      onKeyDown={trapTab}
      className="fixed inset-0 z-40 flex flex-col bg-white shadow-2xl outline-none sm:inset-y-0 sm:left-auto sm:right-0 sm:w-[30rem] sm:border-l sm:border-stone-200"
    >
      <header className="flex items-center justify-between gap-3 border-b border-stone-200 px-4 py-3">
        <h2 id={titleId} className="text-xl font-bold text-stone-900">
          {shown ? `Pedido #${shown.number}` : 'Pedido'}
        </h2>
        <button
          type="button"
          onClick={onClose}
          aria-label="Cerrar detalle"
          className="inline-flex size-11 items-center justify-center rounded-lg text-stone-700 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-amber-900"
        >
          <X className="size-6" aria-hidden="true" />
        </button>
      </header>
      <div className="flex-1 overflow-y-auto px-4 py-4">
        {error && !shown ? (
          <div role="alert" className="space-y-3 rounded-lg border border-red-200 bg-red-50 p-3 text-red-900">
            <p>{error}</p>
            <button type="button" className={secondaryButtonClass} onClick={retry}>
              Intentar de nuevo
            </button>
          </div>
        ) : !shown ? (
          <div className="space-y-3" aria-busy="true">
            <p role="status" className="sr-only">
              Cargando el pedido…
            </p>
            {[1, 2, 3, 4].map((n) => (
              <span key={n} className="block h-5 animate-pulse rounded bg-stone-200 motion-reduce:animate-none" />
            ))}
          </div>
        ) : (
          <OrderDetail
            order={shown}
            actor={actor}
            windows={windows}
            timeZone={timeZone}
            editing={companyId && service ? { companyId, service, products, onSaved: setSaved } : null}
          />
        )}
      </div>
    </aside>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="border-t border-stone-200 pt-4">
      <h3 className="text-sm font-semibold uppercase tracking-wide text-stone-600">{title}</h3>
      <div className="mt-2">{children}</div>
    </section>
  );
}

const linkClass =
  'inline-flex min-h-11 items-center gap-2 rounded-lg border border-stone-300 px-3 font-medium text-stone-800 hover:bg-stone-50 focus-visible:outline-2 focus-visible:outline-amber-900';

/** Staff and admins change an order's content while it is pending or confirmed (docs/design.md §5). */
const edits = (role: Role | null) => role !== null && can(role, 'orders:edit');

function OrderDetail({
  order,
  actor,
  windows,
  timeZone,
  editing,
}: {
  order: Order;
  actor: OrderActor;
  windows: readonly WindowDef[];
  timeZone: string;
  editing: {
    companyId: string;
    service: ResourceService<Order>;
    products: PanelRead['products'];
    onSaved(order: Order): void;
  } | null;
}) {
  // The editor is open in the address (`&editar`): the panel's read brings what it can add.
  const [params, setParams] = useSearchParams();
  const editorOpen = params.has(EDIT_PARAM);
  const setEditorOpen = (open: boolean) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (open) next.set(EDIT_PARAM, '');
        else next.delete(EDIT_PARAM);
        return next;
      },
      { replace: true },
    );
  const editable = !!editing && edits(actor.role) && EDITABLE_STATUSES.includes(order.status);
  const owed = balanceDue(order);
  const whatsapp = whatsappHref(
    order.contact.phone,
    `Hola ${order.contact.name}, te escribimos por tu pedido #${order.number}.`,
  );
  const map = order.fulfillment === 'delivery' ? mapHref(order.address) : null;
  const history = [...order.history].reverse().map((h) => historyLine(h, windows, timeZone));
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2">
        <StatusChip status={order.status} />
        <PaymentChip status={order.paymentStatus} orderStatus={order.status} />
        {order.standingOrderId ? <RecurringChip size="md" /> : null}
        <span className="text-sm text-stone-600">{CHANNEL_ES[order.channel]}</span>
      </div>
      {order.status === 'cancelled' && order.cancelReason ? (
        <p className="rounded-lg bg-stone-100 p-3 text-stone-800">
          <span className="font-semibold">Motivo de la cancelación:</span> {order.cancelReason}
        </p>
      ) : null}
      {order.status === 'ready' && order.notReceived ? (
        <p className="rounded-lg bg-red-50 p-3 text-red-900">
          <span className="font-semibold">No recibió:</span> {notReceivedText(order.notReceived)}. Reasígnalo en
          Domicilios.
        </p>
      ) : null}
      {order.refunds.length > 0 ? (
        <section aria-label="Reembolsos" className="rounded-lg bg-stone-100 p-3 text-stone-800">
          <h3 className="font-semibold">
            Reembolsado: {formatMoney(refundedSoFar(order))} de {formatMoney(order.total)}
          </h3>
          <ul className="mt-1 space-y-1 text-sm">
            {order.refunds.map((r) => (
              <li key={`${r.at}-${r.amount}`}>
                <span className="font-semibold tabular-nums">{formatMoney(r.amount)}</span> ·{' '}
                {formatDateTime(r.at, { timeZone })} · {r.reason}
              </li>
            ))}
          </ul>
        </section>
      ) : order.paymentStatus === 'refunded' && order.refundReason ? (
        <p className="rounded-lg bg-stone-100 p-3 text-stone-800">
          <span className="font-semibold">Motivo del reembolso:</span> {order.refundReason}
        </p>
      ) : null}
      {order.refundsDue.length > 0 ? (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-red-900">
          <ul className="space-y-1">
            {order.refundsDue.map((r) => (
              <li key={r.transactionId}>
                <span className="font-semibold">{REFUND_DUE_ES[r.reason]}</span>{' '}
                {formatMoney(Math.round(r.amountInCents / 100))} · transacción {r.transactionId}
              </li>
            ))}
          </ul>
          <p className="mt-1 text-sm">Devuélvelo desde el panel de la pasarela de pago.</p>
        </div>
      ) : null}
      <OrderPanelActions order={order} actor={actor} />
      {editable && editing ? (
        editorOpen ? (
          <OrderEditor
            order={order}
            service={editing.service}
            products={editing.products}
            windows={windows}
            timeZone={timeZone}
            onSaved={editing.onSaved}
            onClose={() => setEditorOpen(false)}
          />
        ) : (
          <button type="button" className={otherActionClass} onClick={() => setEditorOpen(true)}>
            <Pencil className="size-4" aria-hidden="true" />
            Editar pedido
          </button>
        )
      ) : null}

      <dl className="grid grid-cols-2 gap-x-4 gap-y-3">
        <div>
          <dt className="text-sm text-stone-600">Entrega</dt>
          <dd className="font-medium">{FULFILLMENT_ES[order.fulfillment]}</dd>
        </div>
        <div>
          <dt className="text-sm text-stone-600">Día</dt>
          <dd className="font-medium">{formatDay(order.dueDate, { timeZone })}</dd>
        </div>
        <div>
          <dt className="text-sm text-stone-600">Horario</dt>
          <dd className="font-medium">{windowLabel(order.window, windows) || 'Todo el día'}</dd>
        </div>
        <div>
          <dt className="text-sm text-stone-600">Pago</dt>
          <dd className="font-medium">{PAYMENT_METHOD_ES[order.paymentMethod]}</dd>
        </div>
      </dl>

      <Section title="Cliente">
        <p className="font-medium text-stone-900">{order.contact.name}</p>
        <p className="text-stone-700">{order.contact.phone}</p>
        {order.contact.email ? <p className="break-all text-stone-700">{order.contact.email}</p> : null}
        <div className="mt-2 flex flex-wrap gap-2">
          <a href={telHref(order.contact.phone)} className={linkClass}>
            <Phone className="size-4" aria-hidden="true" />
            Llamar
          </a>
          {whatsapp ? (
            <a href={whatsapp} target="_blank" rel="noreferrer" className={linkClass}>
              <MessageCircle className="size-4" aria-hidden="true" />
              WhatsApp
            </a>
          ) : null}
        </div>
      </Section>

      {order.fulfillment === 'delivery' && order.address ? (
        <Section title="Dirección">
          <p className="text-stone-900">{order.address.line}</p>
          <p className="text-stone-700">
            {[order.address.neighborhood, order.address.city].filter(Boolean).join(', ')}
          </p>
          {order.address.notes ? <p className="text-stone-700">{order.address.notes}</p> : null}
          <OrderLocation
            order={order}
            service={editing?.service ?? null}
            canPin={!!editing && edits(actor.role) && !editorOpen}
            onSaved={(next) => editing?.onSaved(next)}
          />
          {map ? (
            <a href={map} target="_blank" rel="noreferrer" className={`${linkClass} mt-2`}>
              <MapPin className="size-4" aria-hidden="true" />
              Ver en el mapa
            </a>
          ) : null}
        </Section>
      ) : null}

      <Section title="Productos">
        <table className="w-full text-sm">
          <caption className="sr-only">Productos del pedido #{order.number}</caption>
          <thead className="text-left text-stone-600">
            <tr>
              <th scope="col" className="py-1 font-medium">
                Producto
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                Cant.
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                Precio
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                Total
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-100">
            {order.items.map((line) => (
              <tr key={line.productId}>
                <td className="py-2 pr-2">
                  {line.name}
                  {line.notes ? <span className="block text-stone-600">{line.notes}</span> : null}
                </td>
                <td className="py-2 text-right tabular-nums">{line.quantity}</td>
                <td className="py-2 pl-2 text-right tabular-nums">{formatMoney(line.unitPrice)}</td>
                <td className="py-2 pl-2 text-right tabular-nums">{formatMoney(line.lineTotal)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <dl className="mt-3 space-y-1 border-t border-stone-200 pt-3 text-sm">
          <div className="flex justify-between">
            <dt>Subtotal</dt>
            <dd className="tabular-nums">{formatMoney(order.subtotal)}</dd>
          </div>
          {order.discount ? (
            <div className="flex justify-between">
              <dt>Descuento</dt>
              <dd className="tabular-nums">−{formatMoney(order.discount)}</dd>
            </div>
          ) : null}
          <div className="flex justify-between">
            <dt>Domicilio</dt>
            <dd className="tabular-nums">{order.deliveryFee ? formatMoney(order.deliveryFee) : 'Sin costo'}</dd>
          </div>
          <div className="flex justify-between text-base font-bold text-stone-900">
            <dt>Total</dt>
            <dd className="tabular-nums">{formatMoney(order.total)}</dd>
          </div>
          {owed > 0 ? (
            <div className="flex justify-between font-semibold text-red-800">
              <dt>Por cobrar (creció después del pago)</dt>
              <dd className="tabular-nums">{formatMoney(owed)}</dd>
            </div>
          ) : null}
        </dl>
      </Section>

      {order.notes ? (
        <Section title="Notas">
          <p className="whitespace-pre-line text-stone-800">{order.notes}</p>
        </Section>
      ) : null}

      <Section title="Historial">
        <ol className="space-y-3" aria-label={`Historial del pedido #${order.number}`}>
          {history.map((h, i) => (
            <li key={`${h.at}-${i}`} className="border-l-2 border-amber-200 pl-3">
              <p className="text-stone-900">{h.what}</p>
              <p className="text-sm text-stone-600">
                <time dateTime={h.at}>{h.when}</time> · {h.who}
              </p>
            </li>
          ))}
        </ol>
      </Section>
    </div>
  );
}
