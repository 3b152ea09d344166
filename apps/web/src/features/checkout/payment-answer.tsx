import { useState } from 'react';
import { formatMoney } from '@hornada/domain/format';
import { ApiError } from '../../lib/api/http';
import { buttonClass, checkoutApi, PAYMENT_LABELS, type CheckoutLoaderData, type GuestOrder } from './checkout-api';
import type { PaymentView } from './payment-view';

const BOX: Record<Exclude<PaymentView, 'offline'>, string> = {
  approved: 'border-green-300 bg-green-50 text-green-950',
  declined: 'border-red-200 bg-red-50 text-red-950',
  pending: 'border-amber-300 bg-amber-50 text-amber-950',
  late: 'border-stone-300 bg-stone-50 text-stone-900',
  closed: 'border-stone-300 bg-stone-50 text-stone-900',
};

/**
 * An online order's payment as the server reports it, in plain Spanish: approved, declined (with a new
 * try, a new reference at the gateway, and the other ways to pay), pending (the page follows it by
 * itself) or, after ten minutes pending, a calm word that the bakery will let them know.
 */
export function PaymentAnswer({
  order,
  view,
  token,
  settings,
  whatsapp,
}: {
  order: GuestOrder;
  view: Exclude<PaymentView, 'offline'>;
  token: string;
  settings: CheckoutLoaderData;
  whatsapp: string | null;
}) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const others = settings.paymentMethods.filter((m) => m !== 'online');

  async function retry() {
    setBusy(true);
    setFailure(null);
    try {
      const link = await checkoutApi.retryPayment(token);
      window.location.assign(link.checkoutUrl);
    } catch (err) {
      setBusy(false);
      setFailure(err instanceof ApiError ? err.userMessage : 'No pudimos abrir el pago. Intenta de nuevo.');
    }
  }

  const amount = formatMoney(order.total);
  return (
    <section aria-labelledby="payment-title" className={`rounded-xl border p-4 ${BOX[view]}`}>
      <div role="status" aria-live="polite">
        <h2 id="payment-title" className="text-lg font-semibold">
          {view === 'approved'
            ? 'Pago aprobado'
            : view === 'declined'
              ? 'El pago no fue aprobado'
              : view === 'closed'
                ? 'Este pedido ya no espera un pago'
                : 'Tu pago está en proceso'}
        </h2>
        <p className="mt-1">
          {view === 'approved'
            ? `Recibimos tu pago de ${amount}. Tu pedido #${order.number} está confirmado.`
            : view === 'declined'
              ? `No se hizo ningún cobro por el pedido #${order.number}. Puedes intentarlo de nuevo o pagar de otra forma.`
              : view === 'pending'
                ? `Estamos esperando la respuesta de la pasarela para tu pago de ${amount}. Esta página se actualiza sola.`
                : view === 'late'
                  ? `La pasarela aún no confirma tu pago de ${amount}. Te avisaremos cuando lo haga: tu pedido #${order.number} queda guardado y puedes cerrar esta página.`
                  : `El pedido #${order.number} fue cancelado: no hace falta pagarlo.`}
        </p>
      </div>
      {view === 'declined' ? (
        <div className="mt-3 space-y-3">
          <button type="button" className={buttonClass} disabled={busy} onClick={() => void retry()}>
            {busy ? 'Abriendo el pago…' : 'Intentar de nuevo'}
          </button>
          {failure ? (
            <p role="alert" className="font-medium text-red-800">
              {failure}
            </p>
          ) : null}
          {others.length > 0 ? (
            <p>
              También puedes pagar con {others.map((m) => PAYMENT_LABELS[m].toLowerCase()).join(' o ')}:{' '}
              {whatsapp ? (
                <a href={whatsapp} target="_blank" rel="noreferrer" className="font-semibold underline">
                  escríbenos por WhatsApp
                </a>
              ) : (
                'escríbenos'
              )}{' '}
              y te ayudamos a cambiarlo.
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
