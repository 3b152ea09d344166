import { useEffect, useState } from 'react';
import { Link, useLoaderData, useSearchParams } from 'react-router';
import { capitalise, formatDayChoice } from '@hornada/domain/format';
import { addressLine, whatsappHref, windowLabel } from '@hornada/domain/order-display';
import { firstName } from '@hornada/domain/names';
import { PAYMENT_METHOD_ES } from '@hornada/domain/order-status';
import { BakeryLogo } from '../../components/bakery-logo';
import { EmptyState } from '../../components/empty-state';
import { PaymentChip, StatusChip } from '../../components/order-chips';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api/http';
import { useHydrated } from '../../lib/use-hydrated';
import { checkoutApi, type CheckoutLoaderData, type GuestOrder } from './checkout-api';
import { PaymentAnswer } from './payment-answer';
import { nextPoll, ORDER_POLL_MS, paymentView, type PaymentView } from './payment-view';
import { OrderLines } from './order-lines';
import { endSentence } from '@hornada/domain/text';

type Loaded =
  | { kind: 'loading' }
  | { kind: 'ready'; order: GuestOrder; view: PaymentView }
  | { kind: 'missing' }
  | { kind: 'error'; message: string };

/** A pending payment is asked of the gateway (through the server) every this many polls; else the order is read. */
const LOOK_UP_EVERY = 5;

/**
 * `/respuesta-de-pago?pedido={link}[&id={transaction}]`: the confirmation of an order placed, reached only
 * through the unguessable link checkout returned (the gateway comes back here with its transaction `id`):
 * the payment's answer for an online order (approved, declined with a new try, pending followed until
 * final), its number, what was ordered, the day and window, how to pay, a WhatsApp link to the bakery,
 * and the status, followed until it is final. The query is only passed on: what the page shows is the
 * server's answer, which asks the gateway itself.
 */
export function PaymentResponsePage() {
  const settings = useLoaderData() as CheckoutLoaderData;
  const [params] = useSearchParams();
  const token = params.get('pedido') ?? '';
  const transactionId = params.get('id');
  const hydrated = useHydrated();
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });

  useEffect(() => {
    if (!hydrated) return;
    if (!token) {
      setLoaded({ kind: 'missing' });
      return;
    }
    let stop = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const opened = Date.now();
    let polls = 0;
    let last: PaymentView | null = null;
    const read = async () => {
      try {
        // The server asks the gateway on the first read and now and then while pending (an event may be late).
        const waiting = last === 'pending' || last === 'late';
        if (last === null || (waiting && polls % LOOK_UP_EVERY === 0)) {
          await checkoutApi.payment(token, transactionId).catch((err: unknown) => {
            // Not an online order's answer, or the gateway is slow: the order's own state is read below.
            if (err instanceof ApiError && err.status === 404) throw err;
          });
        }
        const order = await checkoutApi.byLink(token);
        if (stop) return;
        const view = paymentView(order, Date.now() - opened);
        setLoaded({ kind: 'ready', order, view });
        polls += 1;
        last = view;
        const wait = nextPoll(view, order.status);
        if (wait !== null) timer = setTimeout(() => void read(), wait);
      } catch (err) {
        if (stop) return;
        if (err instanceof ApiError && err.status === 404) setLoaded({ kind: 'missing' });
        else {
          setLoaded((was) =>
            was.kind === 'ready'
              ? was
              : {
                  kind: 'error',
                  message: err instanceof ApiError ? err.userMessage : 'No pudimos cargar tu pedido.',
                },
          );
          timer = setTimeout(() => void read(), ORDER_POLL_MS * 2);
        }
      }
    };
    void read();
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, [hydrated, token, transactionId]);

  return (
    <div className="mx-auto max-w-3xl px-3 py-6 sm:px-4">
      <title>{`Tu pedido · ${settings.marketName}`}</title>
      <meta name="robots" content="noindex" />
      {!hydrated || loaded.kind === 'loading' ? (
        <>
          <h1 className="text-2xl font-bold sm:text-3xl">Respuesta del pago</h1>
          <p role="status" className="mt-6 text-stone-600">
            Cargando tu pedido…
          </p>
        </>
      ) : loaded.kind === 'missing' ? (
        <>
          <h1 className="text-2xl font-bold sm:text-3xl">Respuesta del pago</h1>
          <div className="mt-6">
            <EmptyState
              title="No encontramos este pedido."
              action={
                <Link
                  to={paths.home}
                  className="inline-block rounded-lg bg-amber-900 px-5 py-2.5 font-semibold text-white"
                >
                  Ver productos
                </Link>
              }
            >
              <p>Abre el enlace completo que recibiste al hacer tu pedido.</p>
            </EmptyState>
          </div>
        </>
      ) : loaded.kind === 'error' ? (
        <>
          <h1 className="text-2xl font-bold sm:text-3xl">Respuesta del pago</h1>
          <p role="alert" className="mt-6 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-red-900">
            {loaded.message}
          </p>
        </>
      ) : (
        <Confirmation order={loaded.order} view={loaded.view} token={token} settings={settings} />
      )}
    </div>
  );
}

/** The order its link opens: what was ordered, when, how it is paid, and where it stands. */
export function Confirmation({
  order,
  view,
  token,
  settings,
}: {
  order: GuestOrder;
  view: PaymentView;
  token: string;
  settings: CheckoutLoaderData;
}) {
  const whatsapp = settings.whatsapp
    ? whatsappHref(settings.whatsapp, endSentence(`Hola, hice el pedido #${order.number} en ${settings.marketName}`))
    : null;
  // 'Mañana jueves 26 de nov.': the weekday and date with the relative word, right when the page is kept or shared.
  const day = capitalise(formatDayChoice(order.dueDate, { timeZone: settings.timeZone }));
  return (
    <div className="space-y-5">
      {/* Printed, the page is the order's receipt: the bakery's logo and name head it (the site header is not printed). */}
      <div className="hidden items-center gap-3 border-b border-stone-300 pb-3 print:flex">
        {settings.logo ? (
          <BakeryLogo
            src={`/files/${settings.logo.path}`}
            name={settings.marketName}
            className="h-14 w-auto max-w-48 object-contain"
          />
        ) : null}
        <p className="text-xl font-bold">{settings.marketName}</p>
      </div>
      <div>
        <p className="text-stone-700">
          {order.status === 'cancelled'
            ? `${firstName(order.contact.name)}, este pedido fue cancelado.`
            : `¡Gracias, ${firstName(order.contact.name)}! Recibimos tu pedido.`}
        </p>
        <h1 className="text-2xl font-bold sm:text-3xl">Pedido #{order.number}</h1>
      </div>
      {view === 'offline' ? null : (
        <PaymentAnswer order={order} view={view} token={token} settings={settings} whatsapp={whatsapp} />
      )}
      <p className="flex items-center gap-2">
        <span>Estado:</span>
        <span role="status" aria-live="polite">
          <StatusChip status={order.status} size="md" />
        </span>
      </p>
      {order.status === 'cancelled' && order.cancelReason ? (
        <p className="text-stone-700">Motivo: {order.cancelReason}</p>
      ) : null}
      <dl className="grid gap-2 rounded-xl border border-stone-200 bg-white p-4 sm:grid-cols-2">
        <div>
          <dt className="text-sm text-stone-600">{order.fulfillment === 'pickup' ? 'Recoges' : 'Entrega'}</dt>
          <dd className="font-medium">
            {day}
            {order.window ? ` · ${windowLabel(order.window, settings.windows)}` : ''}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-stone-600">{order.fulfillment === 'pickup' ? 'Dónde' : 'Dirección'}</dt>
          <dd className="font-medium">
            {order.fulfillment === 'pickup' ? (settings.address ?? 'En la panadería') : addressLine(order.address)}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-stone-600">Pago</dt>
          <dd className="flex flex-wrap items-center gap-2 font-medium">
            {PAYMENT_METHOD_ES[order.paymentMethod]}
            <PaymentChip status={order.paymentStatus} orderStatus={order.status} size="md" />
          </dd>
        </div>
      </dl>
      {order.paymentMethod === 'transfer' ? (
        <section aria-labelledby="transfer-title" className="rounded-xl border border-amber-300 bg-amber-50 p-4">
          <h2 id="transfer-title" className="font-semibold">
            Cómo pagar por transferencia
          </h2>
          <p className="mt-1 whitespace-pre-line">
            {settings.transferInstructions ?? 'La panadería te enviará los datos para la transferencia.'}
          </p>
          <p className="mt-2 text-sm text-stone-700">Escribe el número #{order.number} en la referencia del pago.</p>
        </section>
      ) : null}
      <OrderLines lines={order.items} subtotal={order.subtotal} deliveryFee={order.deliveryFee} total={order.total} />
      {whatsapp ? (
        <a
          href={whatsapp}
          target="_blank"
          rel="noreferrer"
          className="inline-flex w-full items-center justify-center rounded-lg bg-green-800 px-5 py-3 font-semibold text-white hover:bg-green-900 sm:w-auto print:hidden"
        >
          Escribir por WhatsApp sobre el pedido #{order.number}
        </a>
      ) : null}
      <p className="print:hidden">
        <Link to={paths.home} className="font-semibold text-amber-900 underline">
          Seguir comprando
        </Link>
      </p>
    </div>
  );
}
