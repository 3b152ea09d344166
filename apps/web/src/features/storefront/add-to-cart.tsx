import ShoppingBag from 'lucide-react/icons/shopping-bag';
import { useNavigate } from 'react-router';
import { storefrontPaths as paths } from '../../config/storefront-paths';
import { MAX_LINES, getCartStore } from '../../lib/cart-store';
import { toastStore } from '../../lib/toast-store';
import { useHydrated } from '../../lib/use-hydrated';

/**
 * Adds to the cart and says so. The product page's form is apart (add-to-cart-form.tsx): the cards of the home
 * page need only the button, and the form with its icons stays out of the first load.
 */
export function useAddToCart() {
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
