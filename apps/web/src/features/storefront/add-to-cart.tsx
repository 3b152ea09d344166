import Minus from 'lucide-react/icons/minus';
import Plus from 'lucide-react/icons/plus';
import ShoppingBag from 'lucide-react/icons/shopping-bag';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { storefrontPaths as paths } from '../../config/storefront-paths';
import { MAX_LINES, MAX_QUANTITY, getCartStore } from '../../lib/cart-store';
import { toastStore } from '../../lib/toast-store';
import { useHydrated } from '../../lib/use-hydrated';

function useAddToCart() {
  const navigate = useNavigate();
  return (product: { id: string; name: string }, quantity: number) => {
    if (!getCartStore().getState().add(product.id, quantity)) {
      toastStore.getState().show({
        type: 'warning',
        message: `Tu carrito ya tiene ${MAX_LINES} productos distintos: quita alguno para agregar otro.`,
      });
      return;
    }
    toastStore.getState().show({
      message:
        quantity > 1 ? `Agregaste ${quantity} × ${product.name} al carrito.` : `Agregaste ${product.name} al carrito.`,
      actions: [{ label: 'Ver carrito', onClick: () => void navigate(paths.cart) }],
    });
  };
}

/** A card's small "Agregar" button, above the card's own link. */
export function AddToCartButton({ product }: { product: { id: string; name: string } }) {
  const add = useAddToCart();
  // Until the page's code has run a tap would do nothing: the button says so instead of losing it.
  const ready = useHydrated();
  return (
    <button
      type="button"
      disabled={!ready}
      onClick={() => add(product, 1)}
      aria-label={`Agregar ${product.name} al carrito`}
      className="relative z-10 mt-2 inline-flex items-center justify-center gap-1.5 rounded-lg border border-amber-900 px-3 py-2 text-sm font-semibold text-amber-900 hover:bg-amber-50 disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-900"
    >
      <ShoppingBag className="size-4" aria-hidden="true" />
      Agregar
    </button>
  );
}

/** The product page's quantity and "Agregar al carrito". */
export function AddToCartForm({ product }: { product: { id: string; name: string } }) {
  const add = useAddToCart();
  // Before the page's code has run, the form would submit itself as a plain GET (a reload, the tap lost).
  const ready = useHydrated();
  const [quantity, setQuantity] = useState(1);
  const step = (delta: number) => setQuantity((q) => Math.min(MAX_QUANTITY, Math.max(1, q + delta)));
  return (
    <form
      className="mt-5 flex flex-wrap items-end gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        add(product, quantity);
      }}
    >
      <div>
        <label htmlFor="product-quantity" className="block text-sm font-medium text-stone-700">
          Cantidad
        </label>
        <div className="mt-1 flex items-center rounded-lg border border-stone-300 bg-white">
          <button
            type="button"
            onClick={() => step(-1)}
            aria-label="Quitar uno"
            className="grid size-11 place-items-center"
          >
            <Minus className="size-4" aria-hidden="true" />
          </button>
          <input
            id="product-quantity"
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_QUANTITY}
            value={quantity}
            onChange={(e) => setQuantity(Math.min(MAX_QUANTITY, Math.max(1, Math.floor(Number(e.target.value) || 1))))}
            className="w-14 border-x border-stone-300 py-2 text-center text-base [appearance:textfield] [&::-webkit-inner-spin-button]:appearance-none"
          />
          <button
            type="button"
            onClick={() => step(1)}
            aria-label="Agregar uno"
            className="grid size-11 place-items-center"
          >
            <Plus className="size-4" aria-hidden="true" />
          </button>
        </div>
      </div>
      <button
        type="submit"
        disabled={!ready}
        className="inline-flex h-11 items-center gap-2 rounded-lg bg-amber-900 px-5 font-semibold text-white hover:bg-amber-800 disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-900"
      >
        <ShoppingBag className="size-5" aria-hidden="true" />
        Agregar al carrito
      </button>
    </form>
  );
}
