import type { Cart, ReorderAnswer } from '@hornada/domain/schemas/carts';
import { ApiError, browserStorage, http } from './http';
import { restoreSessionId } from '../auth/session-id';
import { getCartStore, type CartLine } from '../cart-store';

export type ServerCart = Cart;
export type ServerCartLine = Cart['items'][number];

/**
 * The server cart (docs/design.md §3): the holder proves itself with the browser's session id (`X-Session-Id`), or
 * is the signed-in customer it belongs to. Names, prices and totals always come from the server.
 */
let sessionId: string | null = null;
/** The header that proves this browser holds a cart (the checkout sends it too). */
export const holderHeaders = () => ({ 'x-session-id': (sessionId ??= restoreSessionId(browserStorage())) });
const holder = () => ({ headers: holderHeaders() });

const items = (lines: readonly CartLine[]) => lines.map(({ productId, quantity }) => ({ productId, quantity }));

export const cartApi = {
  create: (companyId: string, lines: readonly CartLine[]) =>
    http.post<ServerCart>('/carts', { companyId, items: items(lines) }, holder()),
  read: (id: string) => http.get<ServerCart>(`/carts/${encodeURIComponent(id)}`, holder()),
  /** Replaces the lines, keeping the checkout fields the cart already has. */
  replaceLines: (cart: ServerCart, lines: readonly CartLine[]) =>
    http.put<ServerCart>(
      `/carts/${encodeURIComponent(cart.id)}`,
      {
        items: items(lines),
        contact: cart.contact,
        fulfillment: cart.fulfillment,
        address: cart.address,
        dueDate: cart.dueDate,
        window: cart.window,
        notes: cart.notes,
      },
      holder(),
    ),
  /** A guest's cart joins the signed-in customer's (their open cart's lines merge in). */
  claim: (id: string) => http.post<ServerCart>(`/carts/${encodeURIComponent(id)}/claim`, undefined, holder()),
  /** The signed-in customer's open cart, or null. */
  mine: () => http.get<ServerCart | null>('/carts/mine', holder()),
  /** "Pedir de nuevo": one of the customer's orders into the cart `cartId` (null: a new one); the server merges. */
  reorder: (orderId: string, cartId: string | null) =>
    http.post<ReorderAnswer>('/carts/reorder', { orderId, cartId }, holder()),
};

/**
 * Saves the lines to the server cart: replaces the saved one, or makes a new one when there is none (or it is
 * gone: checked out, or not this holder's), remembering its id in the browser's cart.
 */
export async function saveLines(companyId: string, lines: CartLine[], known: ServerCart | null): Promise<ServerCart> {
  const cartId = getCartStore().getState().cartId;
  if (cartId) {
    try {
      const current = known?.id === cartId ? known : await cartApi.read(cartId);
      return await cartApi.replaceLines(current, lines);
    } catch (err) {
      // Not ours any more (another browser's session, or removed): start a new one.
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    }
  }
  const created = await cartApi.create(companyId, lines);
  getCartStore().getState().replace({ cartId: created.id });
  return created;
}

/** The product a 400/422 about one line names (`items.3.productId`), from the lines that were sent. */
export function refusedProduct(err: unknown, lines: readonly CartLine[]): string | null {
  if (!(err instanceof ApiError) || (err.status !== 400 && err.status !== 422)) return null;
  for (const d of err.details) {
    const m = /^items\.(\d+)/.exec(d.path);
    if (m) return lines[Number(m[1])]?.productId ?? null;
  }
  return null;
}
