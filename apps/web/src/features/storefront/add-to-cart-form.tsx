import Minus from 'lucide-react/icons/minus';
import Plus from 'lucide-react/icons/plus';
import ShoppingBag from 'lucide-react/icons/shopping-bag';
import { useState } from 'react';
import { MAX_QUANTITY } from '../../lib/cart-store';
import { useHydrated } from '../../lib/use-hydrated';
import { useAddToCart } from './add-to-cart';

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
