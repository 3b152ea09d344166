import { formatMoney } from '@hornada/domain/format';
import type { OrderTotals } from '@hornada/domain/order-pricing';
import { AlertTriangle } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClass, secondaryButtonClass } from '../../components/ui/button';
import { paths } from '../../config/paths';
import type { B2bClient, Settings } from './api';
import type { CreditCheck } from './entry-rules';
import type { CreditLoad } from './entry-data';

/** The order's figures as a preview (the server prices the order it creates), the credit warning and submit. */
export function SummaryPanel({
  totals,
  settings,
  fulfillment,
  client,
  credit,
  check,
  onCredit,
  sending,
}: {
  totals: OrderTotals;
  settings: Settings;
  fulfillment: 'delivery' | 'pickup';
  client: B2bClient | null;
  credit: CreditLoad;
  check: CreditCheck | null;
  onCredit: boolean;
  sending: boolean;
}) {
  const free = settings.freeDeliveryFrom;
  return (
    <aside aria-labelledby="entry-summary" className="grid gap-4 lg:sticky lg:top-20">
      <section className="rounded-2xl border border-stone-200 bg-white p-4 shadow-sm sm:p-6">
        <h2 id="entry-summary" className="text-lg font-semibold text-stone-900">
          Resumen
        </h2>
        <dl className="mt-3 grid grid-cols-[1fr_auto] gap-x-4 gap-y-2">
          <dt className="text-stone-700">Subtotal</dt>
          <dd className="text-right tabular-nums" data-testid="entry-subtotal">
            {formatMoney(totals.subtotal)}
          </dd>
          <dt className="text-stone-700">Domicilio</dt>
          <dd className="text-right tabular-nums" data-testid="entry-delivery-fee">
            {fulfillment === 'pickup'
              ? 'Recoge'
              : totals.deliveryFee === 0
                ? 'Gratis'
                : formatMoney(totals.deliveryFee)}
          </dd>
          <dt className="text-lg font-semibold text-stone-900">Total</dt>
          <dd className="text-right text-lg font-semibold tabular-nums" data-testid="entry-total">
            {formatMoney(totals.total)}
          </dd>
        </dl>
        {fulfillment === 'delivery' && free !== null && totals.subtotal > 0 && totals.subtotal < free ? (
          <p className="mt-2 text-sm text-stone-600">Domicilio gratis desde {formatMoney(free)}.</p>
        ) : null}
        <p className="mt-3 text-sm text-stone-600">
          Vista previa: al crear el pedido, la panadería calcula los precios y el total con su catálogo.
        </p>
      </section>

      {client && client.creditLimit > 0 ? (
        <CreditBox client={client} credit={credit} check={check} onCredit={onCredit} />
      ) : null}

      <div className="flex gap-2">
        <Link to={paths.dashboard.orders} className={`${secondaryButtonClass} flex-1`}>
          Cancelar
        </Link>
        <button type="submit" className={`${buttonClass} flex-1`} disabled={sending} aria-busy={sending || undefined}>
          {sending ? 'Creando…' : 'Crear pedido'}
        </button>
      </div>
    </aside>
  );
}

/** Design §5's credit: unpaid credit orders plus this one against the limit; it warns, staff decide. */
function CreditBox({
  client,
  credit,
  check,
  onCredit,
}: {
  client: B2bClient;
  credit: CreditLoad;
  check: CreditCheck | null;
  onCredit: boolean;
}) {
  if (credit.state === 'loading') {
    return <p className="text-sm text-stone-600">Consultando el crédito de {client.businessName}…</p>;
  }
  if (credit.state === 'failed' || !check) {
    return (
      <p role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
        No pudimos consultar el crédito usado por {client.businessName}: revisa sus saldos antes de venderle a crédito.
      </p>
    );
  }
  if (!check.over) {
    return (
      <p className="rounded-lg bg-stone-50 p-3 text-sm text-stone-700">
        Crédito de {client.businessName}: {formatMoney(check.after)} de {formatMoney(check.limit)}
        {onCredit ? ' con este pedido.' : ' (este pedido no va a crédito).'}
      </p>
    );
  }
  return (
    <div role="alert" className="rounded-lg border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950">
      <p className="flex items-center gap-2 font-semibold">
        <AlertTriangle className="size-4 shrink-0" aria-hidden="true" />
        Supera el cupo de crédito
      </p>
      <dl className="mt-2 grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 tabular-nums">
        <dt>Cupo de {client.businessName}</dt>
        <dd className="text-right">{formatMoney(check.limit)}</dd>
        <dt>Crédito sin pagar</dt>
        <dd className="text-right">{formatMoney(check.used)}</dd>
        {onCredit ? (
          <>
            <dt>Con este pedido</dt>
            <dd className="text-right font-semibold">{formatMoney(check.after)}</dd>
          </>
        ) : null}
        <dt>Excede en</dt>
        <dd className="text-right font-semibold">{formatMoney(check.after - check.limit)}</dd>
      </dl>
      <p className="mt-2">Puedes crear el pedido igual; confirma con el cliente o con administración.</p>
    </div>
  );
}

/**
 * On a phone the summary sits below the whole form: this bar keeps the total in sight while lines are
 * added. It repeats the summary, so screen readers skip it.
 */
export function TotalBar({ total, lines }: { total: number; lines: number }) {
  return (
    <div
      aria-hidden="true"
      className="sticky bottom-0 z-10 -mx-4 flex justify-between gap-3 border-t border-stone-200 bg-white/95 px-4 py-2 shadow-[0_-2px_6px_rgba(0,0,0,0.05)] lg:hidden"
    >
      <span className="text-stone-700">{lines === 1 ? '1 producto' : `${lines} productos`}</span>
      <span>
        Total <strong className="tabular-nums">{formatMoney(total)}</strong>
      </span>
    </div>
  );
}
