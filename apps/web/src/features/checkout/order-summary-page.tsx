import { useEffect, useState } from 'react';
import { Link, useLoaderData, useParams } from 'react-router';
import type { PricingSettings } from '@hornada/domain/pricing';
import type { Cart } from '@hornada/domain/schemas/carts';
import type { OfferedDay } from '@hornada/domain/schemas/orders';
import { EmptyState } from '../../components/empty-state';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api/http';
import { useHydrated } from '../../lib/use-hydrated';
import { useSettingsChanges } from '../../lib/live/use-settings-changes';
import { checkoutApi, type CheckoutLoaderData } from './checkout-api';
import { CheckoutForm } from './checkout-form';

type Loaded =
  | { kind: 'loading' }
  | { kind: 'ready'; cart: Cart; days: OfferedDay[]; pricing: PricingSettings }
  | { kind: 'missing' }
  | { kind: 'error'; message: string };

/** `/resumen-de-pedido/{cartId}`: the final review, the day and window, the payment method, and the order. */
export function OrderSummaryPage() {
  const settings = useLoaderData() as CheckoutLoaderData;
  const { cartId = '' } = useParams();
  const hydrated = useHydrated();
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  // A saved setting (a blackout day, a window's capacity, the fee) reads the cart and days again, in place.
  const [settingsVersion, setSettingsVersion] = useState(0);
  useSettingsChanges(settings.companyId, () => setSettingsVersion((n) => n + 1));

  useEffect(() => {
    if (!hydrated || !settings.companyId) return;
    let cancelled = false;
    Promise.all([
      checkoutApi.cart(cartId),
      checkoutApi.deliveryDays(settings.companyId),
      checkoutApi.pricing(settings.companyId),
    ]).then(
      ([cart, days, pricing]) => !cancelled && setLoaded({ kind: 'ready', cart, days, pricing }),
      (err: unknown) => {
        if (cancelled) return;
        if (err instanceof ApiError && (err.status === 404 || err.status === 400)) setLoaded({ kind: 'missing' });
        else
          setLoaded({
            kind: 'error',
            message: err instanceof ApiError ? err.userMessage : 'No pudimos cargar tu pedido.',
          });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [cartId, hydrated, settings.companyId, settingsVersion]);

  return (
    <div className="mx-auto max-w-3xl px-3 py-6 sm:px-4">
      <title>{`Resumen del pedido · ${settings.marketName}`}</title>
      <meta name="robots" content="noindex" />
      <h1 className="text-2xl font-bold sm:text-3xl">Resumen del pedido</h1>
      {!hydrated || loaded.kind === 'loading' ? (
        <p role="status" className="mt-6 text-stone-600">
          Cargando tu pedido…
        </p>
      ) : loaded.kind === 'missing' ? (
        <div className="mt-6">
          <EmptyState
            title="No encontramos este carrito."
            action={
              <Link
                to={paths.cart}
                className="inline-block rounded-lg bg-amber-900 px-5 py-2.5 font-semibold text-white"
              >
                Ir al carrito
              </Link>
            }
          >
            <p>Solo el navegador o la cuenta que lo creó puede verlo, y un carrito ya pedido se cierra.</p>
          </EmptyState>
        </div>
      ) : loaded.kind === 'error' ? (
        <p role="alert" className="mt-6 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-red-900">
          {loaded.message}
        </p>
      ) : (
        <CheckoutForm cart={loaded.cart} days={loaded.days} pricing={loaded.pricing} settings={settings} />
      )}
    </div>
  );
}
