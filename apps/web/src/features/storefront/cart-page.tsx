import AlertTriangle from 'lucide-react/icons/triangle-alert';
import Minus from 'lucide-react/icons/minus';
import Plus from 'lucide-react/icons/plus';
import Trash2 from 'lucide-react/icons/trash-2';
import { Link, useLoaderData, useNavigate, type LoaderFunctionArgs } from 'react-router';
import { formatMoney } from '@hornada/domain/format';
import { EmptyState } from '../../components/empty-state';
import { paths } from '../../config/paths';
import { MAX_QUANTITY, getCartStore, type CartLine } from '../../lib/cart-store';
import type { ServerCart, ServerCartLine } from '../../lib/api/cart-api';
import { storefrontApi } from '../../lib/api/storefront-api';
import { useHydrated } from '../../lib/use-hydrated';
import { useLiveChanges, useSettingsChanges } from '../../lib/live/use-settings-changes';
import { OpeningSoon } from './opening-soon';
import { ProductImage } from './product-card';
import { useServerCart } from './use-server-cart';

export async function cartLoader({ context }: LoaderFunctionArgs) {
  const api = storefrontApi(context);
  const config = await api.config();
  const settings = config.companyId ? await api.settings(config.companyId) : {};
  return {
    marketName: config.marketName,
    companyId: config.companyId,
    freeDeliveryFrom: settings.freeDeliveryFrom ?? null,
    opening: config.opening,
  };
}

const buttonClass =
  'inline-flex w-full items-center justify-center rounded-lg bg-amber-900 px-5 py-3 font-semibold text-white hover:bg-amber-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-900 disabled:cursor-not-allowed disabled:opacity-60';

/** `/carrito`: the lines with quantity and remove, the totals the server computed, and the way on. */
export function CartPage() {
  const { marketName, companyId, freeDeliveryFrom, opening } = useLoaderData<typeof cartLoader>();
  const hydrated = useHydrated();
  return (
    <div className="mx-auto max-w-5xl px-3 py-6 sm:px-4">
      <title>{`Carrito · ${marketName}`}</title>
      <meta name="robots" content="noindex" />
      <h1 className="text-2xl font-bold sm:text-3xl">Carrito</h1>
      {/* The cart is in this browser's storage: the server sends the page without it. */}
      {opening ? (
        // The shop takes no orders yet (the server refuses its carts too).
        <OpeningSoon />
      ) : hydrated ? (
        <CartContents companyId={companyId} freeDeliveryFrom={freeDeliveryFrom} />
      ) : (
        <p role="status" className="mt-6 text-stone-600">
          Cargando tu carrito…
        </p>
      )}
    </div>
  );
}

function CartContents({ companyId, freeDeliveryFrom }: { companyId: string | null; freeDeliveryFrom: number | null }) {
  const navigate = useNavigate();
  const { lines, cart, repriced, state, notice, dismissNotice, flush, retry, refresh } = useServerCart(companyId);
  // The fee and the catalogue as they are now: a product repriced or taken off shows at once.
  useSettingsChanges(companyId, () => void refresh());
  useLiveChanges(companyId, 'products', () => void refresh());
  const store = getCartStore().getState();

  if (lines.length === 0) {
    return (
      <div className="mt-6 space-y-4">
        {notice ? <Notice text={notice} onClose={dismissNotice} /> : null}
        <EmptyState
          title="Tu carrito está vacío."
          action={
            <Link to={paths.home} className="inline-block rounded-lg bg-amber-900 px-5 py-2.5 font-semibold text-white">
              Ver productos
            </Link>
          }
        />
      </div>
    );
  }

  // The quantities are this browser's; names and prices are the server's, shown once it has priced the line
  // (never a price the server did not give).
  const shown = lines.map((line) => ({
    line,
    priced: cart?.items.find((i) => i.productId === line.productId) ?? null,
  }));
  const unavailable = cart?.items.filter((i) => !i.available) ?? [];
  const belowMinimum = (cart?.missingForMinimum ?? 0) > 0;
  const canContinue = !!cart && state.kind === 'idle' && !belowMinimum && cart.items.some((i) => i.available);

  return (
    <div className="mt-6 grid gap-6 lg:grid-cols-[1fr_20rem]">
      <div className="space-y-3">
        {notice ? <Notice text={notice} onClose={dismissNotice} /> : null}
        {unavailable.length ? (
          <p
            role="alert"
            className="flex gap-2 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-amber-950"
          >
            <AlertTriangle className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
            {unavailable.length === 1
              ? 'Un producto de tu carrito ya no está disponible: no se cobra ni entra en tu pedido.'
              : `${unavailable.length} productos de tu carrito ya no están disponibles: no se cobran ni entran en tu pedido.`}
          </p>
        ) : null}
        <ul
          aria-label="Productos en tu carrito"
          className="divide-y divide-stone-200 rounded-xl border border-stone-200 bg-white"
        >
          {shown.map(({ line, priced }) => (
            <CartRow
              key={line.productId}
              line={line}
              priced={priced}
              repriced={repriced.has(line.productId)}
              onQuantity={(q) => store.setQuantity(line.productId, q)}
              onRemove={() => store.remove(line.productId)}
            />
          ))}
        </ul>
      </div>
      <aside
        aria-label="Resumen"
        className="h-fit space-y-3 rounded-xl border border-stone-200 bg-white p-4 lg:sticky lg:top-20"
      >
        <Totals cart={cart} freeDeliveryFrom={freeDeliveryFrom} />
        {state.kind === 'error' ? (
          <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-red-900">
            {state.message}{' '}
            <button type="button" onClick={retry} className="font-semibold underline">
              Reintentar
            </button>
          </div>
        ) : null}
        <button
          type="button"
          disabled={!canContinue}
          className={buttonClass}
          onClick={async () => {
            const saved = await flush();
            if (saved && saved.missingForMinimum === 0) void navigate(paths.orderSummary(saved.id));
          }}
        >
          Continuar
        </button>
        <p className="text-center text-sm text-stone-600" aria-live="polite">
          {state.kind === 'saving' ? 'Guardando tu carrito…' : cart ? 'Tu carrito está guardado.' : ''}
        </p>
      </aside>
    </div>
  );
}

function Notice({ text, onClose }: { text: string; onClose: () => void }) {
  return (
    <p
      role="alert"
      className="flex items-start justify-between gap-3 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-amber-950"
    >
      {text}
      <button type="button" onClick={onClose} className="font-semibold underline">
        Entendido
      </button>
    </p>
  );
}

function CartRow({
  line,
  priced,
  repriced,
  onQuantity,
  onRemove,
}: {
  line: CartLine;
  priced: ServerCartLine | null;
  repriced: boolean;
  onQuantity: (quantity: number) => void;
  onRemove: () => void;
}) {
  const name = priced?.name ?? 'Producto';
  // The line's total once the server has priced this very quantity.
  const lineTotal = priced?.available && priced.quantity === line.quantity ? formatMoney(priced.lineTotal) : '';
  return (
    <li className="flex gap-3 p-3 sm:p-4">
      {priced?.image ? (
        <ProductImage
          image={priced.image}
          alt={name}
          sizes="80px"
          eager
          first={false}
          className="size-20 shrink-0 rounded-lg bg-amber-100 object-cover"
        />
      ) : (
        <div className="size-20 shrink-0 rounded-lg bg-amber-100" aria-hidden="true" />
      )}
      <div className="min-w-0 flex-1">
        <div className="flex items-start justify-between gap-2">
          <div className="min-w-0">
            {priced ? (
              <Link to={paths.product(line.productId)} className="font-semibold text-stone-900 hover:underline">
                {name}
              </Link>
            ) : (
              <span className="inline-block h-5 w-32 animate-pulse rounded bg-stone-200" aria-label="Cargando" />
            )}
            {priced && !priced.available ? (
              <p className="text-sm font-medium text-amber-900">Ya no está disponible</p>
            ) : priced ? (
              <p className="text-sm text-stone-600">
                {formatMoney(priced.unitPrice)} c/u
                {repriced ? <span className="ml-2 font-medium text-amber-900">Precio actualizado</span> : null}
              </p>
            ) : null}
          </div>
          <p className="line-total shrink-0 font-semibold text-stone-900">{lineTotal}</p>
        </div>
        <div className="mt-2 flex items-center justify-between gap-3">
          <div
            className="flex items-center rounded-lg border border-stone-300"
            role="group"
            aria-label={`Cantidad de ${name}`}
          >
            <button
              type="button"
              onClick={() => onQuantity(line.quantity - 1)}
              disabled={line.quantity <= 1 || priced?.available === false}
              aria-label={`Quitar uno de ${name}`}
              className="grid size-10 place-items-center disabled:opacity-40"
            >
              <Minus className="size-4" aria-hidden="true" />
            </button>
            <span className="w-10 text-center tabular-nums" aria-live="polite">
              {line.quantity}
            </span>
            <button
              type="button"
              onClick={() => onQuantity(line.quantity + 1)}
              disabled={line.quantity >= MAX_QUANTITY || priced?.available === false}
              aria-label={`Agregar uno de ${name}`}
              className="grid size-10 place-items-center disabled:opacity-40"
            >
              <Plus className="size-4" aria-hidden="true" />
            </button>
          </div>
          <button
            type="button"
            onClick={onRemove}
            aria-label={`Quitar ${name} del carrito`}
            className="inline-flex items-center gap-1 rounded-lg px-2 py-2 text-sm font-medium text-stone-700 hover:bg-stone-100"
          >
            <Trash2 className="size-4" aria-hidden="true" />
            Quitar
          </button>
        </div>
      </div>
    </li>
  );
}

export function Totals({ cart, freeDeliveryFrom }: { cart: ServerCart | null; freeDeliveryFrom: number | null }) {
  if (!cart) return <p className="text-stone-600">Calculando el total…</p>;
  const toFree = freeDeliveryFrom ? freeDeliveryFrom - cart.subtotal : 0;
  return (
    <div className="space-y-2">
      <dl className="space-y-1">
        <div className="flex justify-between">
          <dt>Subtotal</dt>
          <dd className="subtotal tabular-nums">{formatMoney(cart.subtotal)}</dd>
        </div>
        <div className="flex justify-between">
          <dt>Domicilio</dt>
          <dd className="delivery-fee tabular-nums">{cart.deliveryFee ? formatMoney(cart.deliveryFee) : 'Gratis'}</dd>
        </div>
        <div className="flex justify-between border-t border-stone-200 pt-2 text-lg font-bold">
          <dt>Total</dt>
          <dd className="total tabular-nums">{formatMoney(cart.total)}</dd>
        </div>
      </dl>
      {cart.fulfillment === 'delivery' && toFree > 0 ? (
        <p className="text-sm text-stone-700">
          Te faltan {formatMoney(toFree)} para el domicilio gratis (desde {formatMoney(freeDeliveryFrom!)}).
        </p>
      ) : null}
      {cart.missingForMinimum > 0 ? (
        <p
          role="status"
          className="minimum-notice rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
        >
          El pedido mínimo es de {formatMoney(cart.minimumOrder)}: te faltan {formatMoney(cart.missingForMinimum)}.
        </p>
      ) : null}
    </div>
  );
}
