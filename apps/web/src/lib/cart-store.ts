import { createStore, type StoreApi } from 'zustand/vanilla';

/**
 * The cart as the browser keeps it: the lines (product and quantity) and, once saved, the server
 * cart's id. Kept in local storage so it survives a reload; names, prices and totals are never kept here:
 * the server computes them from the catalogue on every save and read.
 */

export const CART_STORAGE_KEY = 'hornada-cart';
/** Design §3: 1 to 1,000 of a product; 100 lines at most. */
export const MAX_QUANTITY = 1000;
export const MAX_LINES = 100;

export interface CartLine {
  productId: string;
  quantity: number;
}

export interface CartData {
  lines: CartLine[];
  /** The server cart these lines were last saved to (null until the first save). */
  cartId: string | null;
}

export interface CartState extends CartData {
  /** Adds `quantity` (capped at 1,000); false when the cart already has 100 other lines. */
  add(productId: string, quantity?: number): boolean;
  /** Sets a line's quantity (1 to 1,000); 0 or less removes it. */
  setQuantity(productId: string, quantity: number): void;
  remove(productId: string): void;
  /** Replaces the lines with what the server saved (after a claim or a merge). */
  replace(data: Partial<CartData>): void;
  clear(): void;
}

export interface KeyValue {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const clamp = (quantity: number) => Math.min(MAX_QUANTITY, Math.max(1, Math.floor(quantity)));

/** What was stored, if it is a cart: anything else (another version, a hand edit) starts empty. */
export function readStoredCart(text: string | null): CartData {
  const empty: CartData = { lines: [], cartId: null };
  if (!text) return empty;
  try {
    const value = JSON.parse(text) as Partial<CartData>;
    if (!Array.isArray(value.lines)) return empty;
    const lines = value.lines
      .filter(
        (l): l is CartLine =>
          typeof l === 'object' && l !== null && typeof l.productId === 'string' && Number.isFinite(l.quantity),
      )
      .slice(0, MAX_LINES)
      .map((l) => ({ productId: l.productId, quantity: clamp(l.quantity) }));
    return { lines, cartId: typeof value.cartId === 'string' ? value.cartId : null };
  } catch {
    return empty;
  }
}

export function createCartStore(storage: KeyValue | null): StoreApi<CartState> {
  const store = createStore<CartState>()((set, get) => ({
    ...readStoredCart(storage?.getItem(CART_STORAGE_KEY) ?? null),
    add(productId, quantity = 1) {
      const { lines } = get();
      const existing = lines.find((l) => l.productId === productId);
      if (!existing && lines.length >= MAX_LINES) return false;
      set({
        lines: existing
          ? lines.map((l) => (l.productId === productId ? { ...l, quantity: clamp(l.quantity + quantity) } : l))
          : [...lines, { productId, quantity: clamp(quantity) }],
      });
      return true;
    },
    setQuantity(productId, quantity) {
      if (quantity <= 0) return get().remove(productId);
      set({ lines: get().lines.map((l) => (l.productId === productId ? { ...l, quantity: clamp(quantity) } : l)) });
    },
    remove(productId) {
      set({ lines: get().lines.filter((l) => l.productId !== productId) });
    },
    replace(data) {
      set({
        ...(data.lines ? { lines: data.lines } : {}),
        ...(data.cartId !== undefined ? { cartId: data.cartId } : {}),
      });
    },
    clear() {
      set({ lines: [], cartId: null });
    },
  }));
  // Another tab's change (an order placed there empties the cart): this tab follows it rather than writing
  // back the lines it still held, which would bring an ordered cart back.
  if (typeof window !== 'undefined' && storage) {
    window.addEventListener('storage', (event) => {
      if (event.key === CART_STORAGE_KEY) store.setState(readStoredCart(event.newValue));
    });
  }
  store.subscribe(({ lines, cartId }) => {
    try {
      storage?.setItem(CART_STORAGE_KEY, JSON.stringify({ lines, cartId }));
    } catch {
      // Storage full or blocked: the cart still works for this page's life.
    }
  });
  return store;
}

function browserStorage(): KeyValue | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

let singleton: StoreApi<CartState> | null = null;

/** The browser's cart, made on first use (server rendering gets an empty one and renders no count). */
export function getCartStore(): StoreApi<CartState> {
  singleton ??= createCartStore(browserStorage());
  return singleton;
}

/** The total number of items, for the header's Cart link. */
export const countItems = (lines: readonly CartLine[]) => lines.reduce((n, l) => n + l.quantity, 0);
