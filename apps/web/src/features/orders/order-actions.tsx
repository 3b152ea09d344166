import { formatMoney } from '@hornada/domain/format';
import type { Role } from '@hornada/domain/roles';
import { leftToRefund, refundHowStaffEs } from '@hornada/domain/refunds';
import type { Order, OrderInput, OrderStatus } from '@hornada/domain/schemas/orders';
import { EllipsisVertical } from 'lucide-react';
import { useCallback, useId, useState, type ReactNode } from 'react';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '../../components/ui/dropdown-menu';
import { ApiError } from '../../lib/api/http';
import type { ResourceService } from '../../lib/api/resource-service';
import { toastStore } from '../../lib/toast-store';
import { ORDER_STATUS_ES, orderMoves, PAYMENT_METHOD_ES, STATUS_ACTION_ES } from './order-view';

/**
 * The quick moves on an order (status and payment), as the signed-in role may make them: the row's main
 * button, a menu for the rest, and one set of dialogs for the page (a reason to cancel; marking paid and
 * refunding asked first, since neither can be undone from here). The server decides: a refused move shows its
 * Spanish message.
 */

type AskKind = 'cancel' | 'paid' | 'refund' | 'returned';
type Ask = { kind: AskKind; order: Order } | null;

export interface OrderActor {
  role: Role | null;
  /** The id of the order a move is under way for. */
  busy: string | null;
  move(order: Order, to: OrderStatus): Promise<void>;
  /** Opens the dialog of a move; a cancel may start with a reason already written (staff may change it). */
  ask(kind: AskKind, order: Order, reason?: string): void;
  dialogs: ReactNode;
}

const touchButton =
  'inline-flex min-h-11 items-center justify-center gap-2 rounded-lg px-3 text-sm font-semibold shadow-sm transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-60';
export const mainActionClass = `${touchButton} bg-amber-900 text-white hover:bg-amber-800 focus-visible:outline-amber-900`;
export const otherActionClass = `${touchButton} border border-stone-300 bg-white text-stone-800 hover:bg-stone-50 focus-visible:outline-amber-900`;

/** Whole pesos from what was typed ("12.500", "$ 12 500"), or null when it holds no digits or other characters. */
function typedAmount(text: string): number | null {
  const digits = text.replace(/[\s.,$]/g, '');
  return /^\d{1,9}$/.test(digits) ? Number(digits) : null;
}

function failure(err: unknown): string {
  return err instanceof ApiError ? err.userMessage : 'No pudimos guardar el cambio. Intenta de nuevo.';
}

/** The page's mover: patches through the orders service and hands the saved order to `saved`. */
export function useOrderActor(
  service: ResourceService<Order> | null,
  role: Role | null,
  saved: (order: Order) => void,
): OrderActor {
  const [busy, setBusy] = useState<string | null>(null);
  const [asked, setAsked] = useState<Ask>(null);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const reasonId = useId();
  // A refund's amount as typed (pesos; dots, commas and spaces ignored), the whole of what is left at first.
  const [amount, setAmount] = useState('');
  const [amountError, setAmountError] = useState<string | null>(null);
  const amountId = useId();

  const patch = useCallback(
    async (order: Order, data: Partial<Order> & Pick<Partial<OrderInput>, 'refund'>, done: string) => {
      if (!service) return;
      setBusy(order.id);
      try {
        const next = await service.patch(order.id, data);
        saved(next);
        toastStore.getState().show({ type: 'success', message: done });
      } catch (err) {
        // Refused: the order moved meanwhile (another person, a driver); show where it stands now.
        if (err instanceof ApiError && err.status !== null && err.status < 500) {
          service
            .get(order.id)
            .then(saved)
            .catch(() => undefined);
        }
        toastStore
          .getState()
          .show({ type: 'error', title: `Pedido #${order.number}`, message: failure(err), duration: 6000 });
        throw err;
      } finally {
        setBusy(null);
      }
    },
    [service, saved],
  );

  const move = useCallback(
    async (order: Order, to: OrderStatus) => {
      await patch(order, { status: to }, `Pedido #${order.number}: ${ORDER_STATUS_ES[to]}.`).catch(() => undefined);
    },
    [patch],
  );

  const ask = useCallback((kind: AskKind, order: Order, prefilled = '') => {
    setReason(prefilled);
    setReasonError(null);
    setAmount(String(leftToRefund(order)));
    setAmountError(null);
    setAsked({ kind, order });
  }, []);

  const order = asked?.order;
  const close = (open: boolean) => {
    if (!open) setAsked(null);
  };
  /** The reason a cancellation or a refund carries (the server refuses either without one). */
  const reasonField = (label: string) => (
    <div>
      <label htmlFor={reasonId} className="block text-sm font-medium text-stone-800">
        {label}
      </label>
      <textarea
        id={reasonId}
        value={reason}
        maxLength={500}
        rows={3}
        aria-invalid={reasonError ? true : undefined}
        aria-describedby={reasonError ? `${reasonId}-error` : undefined}
        onChange={(event) => {
          setReason(event.target.value);
          if (reasonError) setReasonError(null);
        }}
        className="mt-1 block w-full rounded-lg border border-stone-300 px-3 py-2 text-stone-900 shadow-sm focus:border-amber-700 focus:outline-none focus:ring-2 focus:ring-amber-700/30"
      />
      {reasonError ? (
        <p id={`${reasonId}-error`} className="mt-1 text-sm text-red-800">
          {reasonError}
        </p>
      ) : null}
    </div>
  );
  /** The written reason, or null with the field's message shown. */
  const reasonOrAsk = (): string | null => {
    const text = reason.trim();
    if (!text) setReasonError('Escribe el motivo: el cliente y el equipo lo verán.');
    return text || null;
  };
  /**
   * A refund's amount and reason, and who gives the money back: the bakery itself for cash and transfers,
   * the gateway's dashboard only for an online payment.
   */
  const refundFields = () => {
    if (!order) return null;
    const left = leftToRefund(order);
    const value = typedAmount(amount);
    const shown = value !== null && value >= 1 && value <= left ? value : left;
    return (
      <div className="space-y-3">
        <p>
          Pagado: {formatMoney(order.total)}
          {left < order.total ? ` · queda por reembolsar ${formatMoney(left)}` : ''}.
        </p>
        <div>
          <label htmlFor={amountId} className="block text-sm font-medium text-stone-800">
            Valor a reembolsar
          </label>
          <input
            id={amountId}
            type="text"
            inputMode="numeric"
            autoComplete="off"
            value={amount}
            aria-invalid={amountError ? true : undefined}
            aria-describedby={amountError ? `${amountId}-error` : `${amountId}-hint`}
            onChange={(event) => {
              setAmount(event.target.value);
              if (amountError) setAmountError(null);
            }}
            className="mt-1 block w-full rounded-lg border border-stone-300 px-3 py-2 text-stone-900 shadow-sm focus:border-amber-700 focus:outline-none focus:ring-2 focus:ring-amber-700/30"
          />
          {amountError ? (
            <p id={`${amountId}-error`} className="mt-1 text-sm text-red-800">
              {amountError}
            </p>
          ) : (
            <p id={`${amountId}-hint`} className="mt-1 text-sm text-stone-600">
              Hasta {formatMoney(left)}. Puedes reembolsar una parte y el resto después.
            </p>
          )}
        </div>
        <p className="rounded-lg bg-amber-50 p-3 font-medium text-amber-950">
          {refundHowStaffEs(order.paymentMethod, shown)}
        </p>
        {reasonField('Motivo del reembolso')}
        <p className="text-sm text-stone-600">Le enviaremos un correo al cliente. Esto no se puede deshacer.</p>
      </div>
    );
  };
  const dialogs = (
    <>
      <ConfirmDialog
        open={asked?.kind === 'cancel'}
        onOpenChange={close}
        title={order ? `¿Cancelar el pedido #${order.number}?` : ''}
        confirmLabel="Cancelar pedido"
        cancelLabel="Volver"
        description={
          <div className="space-y-3">
            <p>El cliente verá el pedido como cancelado. Esto no se puede deshacer.</p>
            {reasonField('Motivo de la cancelación')}
          </div>
        }
        onConfirm={async () => {
          if (!order) return;
          const text = reasonOrAsk();
          if (!text) throw new Error('reason required');
          await patch(order, { status: 'cancelled', cancelReason: text }, `Pedido #${order.number} cancelado.`);
        }}
      />
      <ConfirmDialog
        open={asked?.kind === 'paid'}
        onOpenChange={close}
        destructive={false}
        title={order ? `¿Marcar pagado el pedido #${order.number}?` : ''}
        confirmLabel="Marcar pagado"
        cancelLabel="Volver"
        description={
          order ? (
            <p>
              {formatMoney(order.total)} por {PAYMENT_METHOD_ES[order.paymentMethod].toLowerCase()}. Solo la
              administración puede reembolsarlo después.
            </p>
          ) : null
        }
        onConfirm={async () => {
          if (order) await patch(order, { paymentStatus: 'paid' }, `Pedido #${order.number}: pagado.`);
        }}
      />
      <ConfirmDialog
        open={asked?.kind === 'refund'}
        onOpenChange={close}
        title={order ? `¿Registrar el reembolso del pedido #${order.number}?` : ''}
        confirmLabel="Registrar reembolso"
        cancelLabel="Volver"
        description={order ? refundFields() : null}
        onConfirm={async () => {
          if (!order) return;
          const left = leftToRefund(order);
          const value = typedAmount(amount);
          const text = reasonOrAsk();
          if (value === null || value < 1 || value > left) {
            setAmountError(`Escribe un valor entre ${formatMoney(1)} y ${formatMoney(left)}.`);
            throw new Error('amount out of range');
          }
          if (!text) throw new Error('reason required');
          await patch(
            order,
            { refund: { amount: value, reason: text } },
            `Pedido #${order.number}: reembolso de ${formatMoney(value)} registrado.`,
          );
        }}
      />
      <ConfirmDialog
        open={asked?.kind === 'returned'}
        onOpenChange={close}
        title={order ? `¿Ya devolviste los pagos del pedido #${order.number}?` : ''}
        confirmLabel="Sí, ya se devolvieron"
        cancelLabel="Volver"
        description="Confírmalo solo después de devolver el dinero desde el panel de la pasarela. El aviso desaparece del pedido."
        onConfirm={async () => {
          if (order) await patch(order, { refundsDue: [] }, `Pedido #${order.number}: devolución registrada.`);
        }}
      />
    </>
  );
  return { role, busy, move, ask, dialogs };
}

/**
 * An order's quick actions: the next step as a large button, the rest (cancel, paid, refund, details) in a
 * menu. Only what the role may do from the current status shows.
 */
export function OrderQuickActions({
  order,
  actor,
  onDetails,
}: {
  order: Order;
  actor: OrderActor;
  onDetails?: () => void;
}) {
  const moves = orderMoves(actor.role, order);
  const busy = actor.busy === order.id;
  const more = moves.cancel || moves.markPaid || moves.refund || onDetails;
  return (
    <div className="flex flex-col items-stretch gap-1.5 sm:flex-row sm:items-center sm:justify-end">
      {moves.next ? (
        <button
          type="button"
          className={mainActionClass}
          disabled={busy}
          aria-busy={busy || undefined}
          aria-label={`${STATUS_ACTION_ES[moves.next]} el pedido #${order.number}`}
          onClick={() => void actor.move(order, moves.next!)}
        >
          {STATUS_ACTION_ES[moves.next]}
        </button>
      ) : null}
      {more ? (
        <DropdownMenu>
          <DropdownMenuTrigger
            className={`${otherActionClass} min-w-11 sm:px-2`}
            aria-label={`Más acciones del pedido #${order.number}`}
            disabled={busy}
          >
            <EllipsisVertical className="size-5" aria-hidden="true" />
          </DropdownMenuTrigger>
          <DropdownMenuContent label={`Acciones del pedido #${order.number}`}>
            {onDetails ? <DropdownMenuItem onSelect={onDetails}>Ver detalle</DropdownMenuItem> : null}
            {moves.markPaid ? (
              <DropdownMenuItem onSelect={() => actor.ask('paid', order)}>Marcar pagado</DropdownMenuItem>
            ) : null}
            {moves.refund ? (
              <DropdownMenuItem onSelect={() => actor.ask('refund', order)}>Registrar reembolso…</DropdownMenuItem>
            ) : null}
            {moves.cancel ? (
              <DropdownMenuItem onSelect={() => actor.ask('cancel', order)}>Cancelar pedido…</DropdownMenuItem>
            ) : null}
          </DropdownMenuContent>
        </DropdownMenu>
      ) : null}
    </div>
  );
}

/** The same moves as plain buttons, for the detail panel (no menu: there is room). */
export function OrderPanelActions({ order, actor }: { order: Order; actor: OrderActor }) {
  const moves = orderMoves(actor.role, order);
  const busy = actor.busy === order.id;
  if (!moves.next && !moves.cancel && !moves.markPaid && !moves.refund && !moves.clearRefunds) return null;
  return (
    <div className="flex flex-wrap gap-2">
      {moves.next ? (
        <button
          type="button"
          className={mainActionClass}
          disabled={busy}
          onClick={() => void actor.move(order, moves.next!)}
        >
          {STATUS_ACTION_ES[moves.next]}
        </button>
      ) : null}
      {moves.markPaid ? (
        <button type="button" className={otherActionClass} disabled={busy} onClick={() => actor.ask('paid', order)}>
          Marcar pagado
        </button>
      ) : null}
      {moves.refund ? (
        <button type="button" className={otherActionClass} disabled={busy} onClick={() => actor.ask('refund', order)}>
          Registrar reembolso
        </button>
      ) : null}
      {moves.clearRefunds ? (
        <button type="button" className={otherActionClass} disabled={busy} onClick={() => actor.ask('returned', order)}>
          Devolución hecha
        </button>
      ) : null}
      {moves.cancel ? (
        <button
          type="button"
          className={`${otherActionClass} text-red-800`}
          disabled={busy}
          onClick={() => actor.ask('cancel', order)}
        >
          Cancelar pedido
        </button>
      ) : null}
    </div>
  );
}
