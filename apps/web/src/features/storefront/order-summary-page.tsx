import { useEffect, useState } from 'react';
import { Link, useLoaderData, useParams } from 'react-router';
import { formatMoney } from '@hornada/domain/format';
import { EmptyState } from '../../components/empty-state';
import { paths } from '../../config/paths';
import { cartApi, type ServerCart } from '../../lib/cart-api';
import { ApiError } from '../../lib/http';
import { useHydrated } from '../../lib/use-hydrated';
import { Totals, type cartLoader } from './cart-page';

type Loaded =
  { kind: 'loading' } | { kind: 'ready'; cart: ServerCart } | { kind: 'missing' } | { kind: 'error'; message: string };

/** `/resumen-de-pedido/{cartId}`: the saved cart, read-only, with its total (placing the order comes with orders). */
export function OrderSummaryPage() {
  const { marketName, freeDeliveryFrom } = useLoaderData<typeof cartLoader>();
  const { cartId = '' } = useParams();
  const hydrated = useHydrated();
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });

  useEffect(() => {
    let cancelled = false;
    cartApi.read(cartId).then(
      (cart) => !cancelled && setLoaded({ kind: 'ready', cart }),
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
  }, [cartId]);

  return (
    <div className="mx-auto max-w-3xl px-3 py-6 sm:px-4">
      <title>{`Resumen del pedido · ${marketName}`}</title>
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
            <p>Solo el navegador o la cuenta que lo creó puede verlo.</p>
          </EmptyState>
        </div>
      ) : loaded.kind === 'error' ? (
        <p role="alert" className="mt-6 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-red-900">
          {loaded.message}
        </p>
      ) : (
        <div className="mt-6 space-y-4">
          <ul aria-label="Tu pedido" className="divide-y divide-stone-200 rounded-xl border border-stone-200 bg-white">
            {loaded.cart.items.map((line) => (
              <li key={line.productId} className="flex justify-between gap-3 p-3">
                <span>
                  {line.quantity} × {line.name ?? 'Producto'}
                  {line.available ? null : <span className="ml-2 text-sm text-amber-900">(ya no está disponible)</span>}
                </span>
                <span className="tabular-nums">{line.available ? formatMoney(line.lineTotal) : ''}</span>
              </li>
            ))}
          </ul>
          <div className="rounded-xl border border-stone-200 bg-white p-4">
            <Totals cart={loaded.cart} freeDeliveryFrom={freeDeliveryFrom} />
          </div>
          <p className="text-stone-700">
            La confirmación de pedidos en línea aún no está disponible en esta tienda.{' '}
            <Link to={paths.cart} className="font-semibold text-amber-900 underline">
              Volver al carrito
            </Link>
          </p>
        </div>
      )}
    </div>
  );
}
