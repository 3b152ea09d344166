import { getCartStore } from '../lib/cart-store';

// Loaded when a customer signs in (session.ts), not with a guest's page (the storefront's first-load budget).

/**
 * After a customer signs in: the cart of this browser is claimed (its lines merge with the customer's open
 * cart on the server), or, with nothing here, the customer's open cart is brought here. Failures leave the
 * local cart as it is; it is saved again from the cart page.
 */
export async function joinCustomerCart(uid: string, companyId: string | null): Promise<void> {
  const cart = getCartStore();
  const { cartApi } = await import('../lib/api/cart-api');
  const { cartId, lines } = cart.getState();
  try {
    let joined: Awaited<ReturnType<typeof cartApi.mine>> = null;
    if (lines.length) {
      // Lines never saved yet are saved first, so that they join the customer's cart rather than being lost.
      const id = cartId ?? (companyId ? (await cartApi.create(companyId, lines)).id : null);
      const current = id ? await cartApi.read(id).catch(() => null) : null;
      if (current?.customerId === uid) return; // already theirs (a reload)
      if (current) joined = await cartApi.claim(current.id);
    }
    joined ??= await cartApi.mine();
    if (!joined) return;
    cart.getState().replace({
      cartId: joined.id,
      lines: joined.items.map(({ productId, quantity }) => ({ productId, quantity })),
    });
  } catch (err) {
    console.warn('[cart] could not join the customer cart', err);
  }
}
